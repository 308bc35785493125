#pragma once
// Internal to the ONNX importer: the onnx::InferenceContext through which one node's schema
// inference function (ONNX 1.12) sees its attributes, input types and input values, and writes
// its output types. Input values are complete tensors only (OnnxValueScope); partial data
// propagation is not used, because folded shape tensors (onnx_shape_folding.h) are real values
// every inference function reads. Subgraph attributes (If, Loop, Scan) are inferred by the
// GraphInferencer the factory makes, so that the importer's checks run inside them too.
#include <onnx/defs/shape_inference.h>
#include <onnx/onnx_pb.h>

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/importers/onnx_value_scope.h"

namespace tandem::core::importers {

class OnnxNodeContext final : public onnx::InferenceContext {
public:
    using SubgraphFactory = std::function<std::unique_ptr<onnx::GraphInferencer>(
        const onnx::GraphProto& graph, const std::string& attribute)>;

    OnnxNodeContext(const onnx::NodeProto& node, const OnnxValueScope& scope,
                    SubgraphFactory subgraphs);

    const onnx::AttributeProto* getAttribute(const std::string& name) const override;
    size_t getNumInputs() const override { return inputTypes_.size(); }
    const onnx::TypeProto* getInputType(size_t index) const override;
    const onnx::TensorProto* getInputData(size_t index) const override;
    size_t getNumOutputs() const override { return outputs_.size(); }
    onnx::TypeProto* getOutputType(size_t index) override;
    onnx::GraphInferencer* getGraphAttributeInferencer(const std::string& name) override;
    const onnx::SparseTensorProto* getInputSparseData(size_t) const override { return nullptr; }
    const onnx::TensorShapeProto* getSymbolicInput(size_t) const override { return nullptr; }

    std::vector<onnx::TypeProto>& outputs() { return outputs_; }

private:
    std::unordered_map<std::string, const onnx::AttributeProto*> attributes_;
    std::vector<const onnx::TypeProto*> inputTypes_;
    std::vector<const onnx::TensorProto*> inputData_;
    std::vector<onnx::TypeProto> outputs_;
    SubgraphFactory subgraphs_;
    std::unordered_map<std::string, std::unique_ptr<onnx::GraphInferencer>> inferencers_;
};

}  // namespace tandem::core::importers
