// OnnxNodeContext (onnx_node_context.h).
#include "core/importers/onnx_node_context.h"

namespace tandem::core::importers {

namespace {

[[noreturn]] void outOfRange(const char* what, size_t index) {
    throw onnx::InferenceError(std::string("[ShapeInferenceError] ") + what + " " +
                               std::to_string(index) + " is out of range");
}

}  // namespace

OnnxNodeContext::OnnxNodeContext(const onnx::NodeProto& node, const OnnxValueScope& scope,
                                 SubgraphFactory subgraphs)
    : subgraphs_(std::move(subgraphs)) {
    for (const onnx::AttributeProto& a : node.attribute()) attributes_[a.name()] = &a;
    for (const std::string& input : node.input()) {
        inputTypes_.push_back(input.empty() ? nullptr : scope.type(input));
        inputData_.push_back(input.empty() ? nullptr : scope.data(input));
    }
    outputs_.resize(std::size_t(node.output_size()));
}

const onnx::AttributeProto* OnnxNodeContext::getAttribute(const std::string& name) const {
    const auto it = attributes_.find(name);
    return it == attributes_.end() ? nullptr : it->second;
}

const onnx::TypeProto* OnnxNodeContext::getInputType(size_t index) const {
    if (index >= inputTypes_.size()) outOfRange("input", index);
    return inputTypes_[index];
}

const onnx::TensorProto* OnnxNodeContext::getInputData(size_t index) const {
    if (index >= inputData_.size()) outOfRange("input", index);
    return inputData_[index];
}

onnx::TypeProto* OnnxNodeContext::getOutputType(size_t index) {
    if (index >= outputs_.size()) outOfRange("output", index);
    return &outputs_[index];
}

onnx::GraphInferencer* OnnxNodeContext::getGraphAttributeInferencer(const std::string& name) {
    if (const auto it = inferencers_.find(name); it != inferencers_.end()) return it->second.get();
    const auto attribute = attributes_.find(name);
    if (attribute == attributes_.end() || !attribute->second->has_g())
        throw onnx::InferenceError("[TypeInferenceError] attribute " + name +
                                   " does not hold a graph");
    auto inferencer = subgraphs_(attribute->second->g(), name);
    onnx::GraphInferencer* raw = inferencer.get();
    inferencers_.emplace(name, std::move(inferencer));
    return raw;
}

}  // namespace tandem::core::importers
