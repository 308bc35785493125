#pragma once
// Internal to the ONNX importer: the model-local functions of a ModelProto (ModelProto.functions)
// and which nodes call them. A node calls a local function when its domain and op type name one
// and ONNX has no schema for it at the opset in force (a schema wins, as in the ONNX library).
// ONNX 1.12's shape inference expands a call by inferring the function's body, and a function
// that calls itself, directly or through others, makes it recurse until the stack overflows
// (SIGSEGV): checkNoRecursion refuses such models, naming the cycle, before inference runs.
#include <onnx/onnx_pb.h>

#include <string>
#include <unordered_map>

#include "core/common/expected.h"

namespace tandem::core::importers {

// Opset version by domain; the default domain is "" (also for "ai.onnx").
using OnnxOpsets = std::unordered_map<std::string, int>;

std::string normalOnnxDomain(const std::string& domain);
// The model's opset imports, or a function's own (falling back to the model's when it has none).
OnnxOpsets readOnnxOpsets(const onnx::ModelProto& model);
OnnxOpsets readOnnxOpsets(const onnx::FunctionProto& function, const OnnxOpsets& model);

class OnnxLocalFunctions {
public:
    explicit OnnxLocalFunctions(const onnx::ModelProto& model);

    // The function `node` calls under `opsets`, or nullptr.
    const onnx::FunctionProto* calledBy(const onnx::NodeProto& node,
                                        const OnnxOpsets& opsets) const;
    // An error naming a cycle of calls ("functions call themselves: local.F → local.G →
    // local.F"), including calls made from subgraphs inside function bodies.
    Status checkNoRecursion() const;

    static std::string nameOf(const onnx::FunctionProto& function);

private:
    const onnx::ModelProto& model_;
    OnnxOpsets modelOpsets_;
    std::unordered_map<std::string, const onnx::FunctionProto*> functions_;  // "domain:name"
};

}  // namespace tandem::core::importers
