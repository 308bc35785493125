#pragma once
// Internal to the ONNX importer: the tensor types and known values of one scope of shape
// inference (onnx_node_inference.h) — the main graph, a subgraph (which also sees the scopes
// around it, as ONNX subgraphs see outer values) or a function body (which sees nothing else).
// Values are complete TensorProtos that the ONNX library may read through getInputData; the
// small integer ones are also kept parsed for folding (onnx_shape_folding.h).
#include <onnx/onnx_pb.h>

#include <deque>
#include <string>
#include <unordered_map>

#include "core/importers/onnx_int_tensor.h"

namespace tandem::core::importers {

class OnnxValueScope {
public:
    explicit OnnxValueScope(const OnnxValueScope* outer = nullptr) : outer_(outer) {}
    OnnxValueScope(const OnnxValueScope&) = delete;
    OnnxValueScope& operator=(const OnnxValueScope&) = delete;

    // nullptr when unknown here and in the scopes around.
    const onnx::TypeProto* type(const std::string& name) const;
    const onnx::TensorProto* data(const std::string& name) const;
    const OnnxIntTensor* intValue(const std::string& name) const;

    void setType(const std::string& name, onnx::TypeProto type);
    // `tensor` must outlive the scope; ignored unless it carries all of its data.
    void setData(const std::string& name, const onnx::TensorProto& tensor);
    // A folded value, owned by the scope; also sets the type.
    void setFolded(const std::string& name, OnnxIntTensor value);

    // The types defined in this scope (not the outer ones).
    const std::unordered_map<std::string, onnx::TypeProto>& types() const { return types_; }

private:
    const OnnxValueScope* outer_;
    std::unordered_map<std::string, onnx::TypeProto> types_;
    std::unordered_map<std::string, const onnx::TensorProto*> data_;
    std::unordered_map<std::string, OnnxIntTensor> ints_;
    std::deque<onnx::TensorProto> owned_;  // stable addresses
};

}  // namespace tandem::core::importers
