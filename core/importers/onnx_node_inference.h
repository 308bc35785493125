#pragma once
// Internal to the ONNX importer: shape inference one node at a time, in topological order, with
// the ONNX library's per-operator inference functions (ONNX 1.12) but Tandem's own walk, so
// that nothing reaches the library unchecked:
//  - before a node's inference function runs, checkOnnxNodeInputs (onnx_node_checks.h) checks
//    what that function assumes of the inputs' ranks, dims and values;
//  - subgraphs (If, Loop, Scan) are inferred by this same walk through the GraphInferencer the
//    library asks for, and calls to model-local functions by walking the function body (the
//    model has been checked for recursion, onnx_local_functions.h), so the checks run there too;
//  - after it, a node computing a small integer tensor is folded (onnx_shape_folding.h) and its
//    value given to the nodes after it, so Reshape, Slice, Range, Expand and ConstantOfShape see
//    the shapes an exporter computes at run time.
// An inference error on a node whose input types are all known means the graph is invalid at
// these shapes and fails the build (ONNX's "strict mode"); with an unknown input type the outputs
// stay unknown. Outputs that inference leaves unknown take their declared type (value_info,
// graph outputs), and for unknown operators and element-wise ones the library does not have
// (Gelu before opset 20), their first input's type. Declared types that contradict inference
// are errors. Failures are thrown as OnnxInferenceFailure, naming the node and where it is.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <unordered_map>

#include "core/importers/onnx_import_state.h"
#include "core/importers/onnx_local_functions.h"
#include "core/importers/onnx_value_scope.h"

namespace tandem::core::importers {

struct OnnxInferenceFailure {
    std::string message;
};

using OnnxDeclaredTypes = std::unordered_map<std::string, onnx::TypeProto>;

class OnnxNodeInference {
public:
    static constexpr int kMaxDepth = 64;  // nested subgraphs and function calls

    // One graph, subgraph or function body being walked.
    struct Frame {
        const OnnxOpsets* opsets = nullptr;
        const OnnxDeclaredTypes* declared = nullptr;  // may be null
        std::string context;                          // " in …", after node descriptions
        int depth = 0;
    };

    OnnxNodeInference(const onnx::ModelProto& model, const OnnxPlan& plan, std::int64_t batch,
                      std::int64_t sequence);

    const OnnxOpsets& modelOpsets() const { return opsets_; }

    // Binds the symbolic dims of a type: batch-like and sequence-like names (OnnxPlan::symbols)
    // to the build's values, other names to unknown.
    void bind(onnx::TypeProto& type) const;
    // The bound types a graph declares for its value_info and outputs.
    OnnxDeclaredTypes declaredTypes(const onnx::GraphProto& graph) const;
    // A graph's initializers (types, and values when complete) into `scope`.
    static void addInitializers(const onnx::GraphProto& graph, OnnxValueScope& scope);

    // Infers one node into `scope`; `index` names nodes without a name.
    void infer(const onnx::NodeProto& node, int index, OnnxValueScope& scope, const Frame& frame);

    [[noreturn]] static void fail(const onnx::NodeProto& node, int index, const Frame& frame,
                                  const std::string& problem);

private:
    void runSchema(const onnx::NodeProto& node, int index, OnnxValueScope& scope,
                   const Frame& frame, std::vector<onnx::TypeProto>& outputs);
    void callFunction(const onnx::FunctionProto& function, const onnx::NodeProto& node, int index,
                      const OnnxValueScope& scope, const Frame& frame,
                      std::vector<onnx::TypeProto>& outputs);
    void record(const onnx::NodeProto& node, int index, OnnxValueScope& scope, const Frame& frame,
                std::vector<onnx::TypeProto>& outputs);

    OnnxOpsets opsets_;
    OnnxLocalFunctions functions_;
    std::string firstAssumption_;  // the first node whose outputs took its input's type
    const OnnxPlan& plan_;
    std::int64_t batch_;
    std::int64_t sequence_;
};

}  // namespace tandem::core::importers
