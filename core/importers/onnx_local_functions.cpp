// OnnxLocalFunctions (onnx_local_functions.h).
#include "core/importers/onnx_local_functions.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace tandem::core::importers {

namespace {

std::string key(const std::string& domain, const std::string& name) {
    return normalOnnxDomain(domain) + ":" + name;
}

template <typename Imports>
OnnxOpsets opsetsFrom(const Imports& imports) {
    OnnxOpsets opsets;
    for (const auto& opset : imports)
        opsets[normalOnnxDomain(opset.domain())] =
            int(std::clamp<std::int64_t>(opset.version(), 0, 1 << 20));
    return opsets;
}

}  // namespace

std::string normalOnnxDomain(const std::string& domain) {
    return domain == "ai.onnx" ? "" : domain;
}

OnnxOpsets readOnnxOpsets(const onnx::ModelProto& model) {
    return opsetsFrom(model.opset_import());
}

OnnxOpsets readOnnxOpsets(const onnx::FunctionProto& function, const OnnxOpsets& model) {
    OnnxOpsets opsets = opsetsFrom(function.opset_import());
    for (const auto& [domain, version] : model) opsets.emplace(domain, version);
    return opsets;
}

OnnxLocalFunctions::OnnxLocalFunctions(const onnx::ModelProto& model)
    : model_(model), modelOpsets_(readOnnxOpsets(model)) {
    for (const onnx::FunctionProto& f : model.functions())
        functions_.emplace(key(f.domain(), f.name()), &f);
}

std::string OnnxLocalFunctions::nameOf(const onnx::FunctionProto& function) {
    return (function.domain().empty() ? "" : function.domain() + ".") + function.name();
}

const onnx::FunctionProto* OnnxLocalFunctions::calledBy(const onnx::NodeProto& node,
                                                        const OnnxOpsets& opsets) const {
    const auto it = functions_.find(key(node.domain(), node.op_type()));
    if (it == functions_.end()) return nullptr;
    const std::string domain = normalOnnxDomain(node.domain());
    const auto opset = opsets.find(domain);
    if (opset != opsets.end() &&
        onnx::OpSchemaRegistry::Schema(node.op_type(), opset->second, domain))
        return nullptr;
    return it->second;
}

Status OnnxLocalFunctions::checkNoRecursion() const {
    // Depth-first search over the call graph; a function met again on the current path closes
    // a cycle. Calls are collected from the body and from subgraphs of its nodes.
    enum class Mark { New, OnPath, Done };
    std::unordered_map<const onnx::FunctionProto*, Mark> marks;
    std::vector<const onnx::FunctionProto*> path;
    std::string cycle;
    std::function<bool(const onnx::FunctionProto&)> visit;
    std::function<bool(const onnx::NodeProto&, const OnnxOpsets&, int)> visitNode;
    visitNode = [&](const onnx::NodeProto& node, const OnnxOpsets& opsets, int depth) {
        if (const onnx::FunctionProto* callee = calledBy(node, opsets))
            if (visit(*callee)) return true;
        if (depth > 64) return false;  // deeper subgraphs are refused by the attribute checks
        for (const onnx::AttributeProto& a : node.attribute()) {
            std::vector<const onnx::GraphProto*> graphs;
            if (a.has_g()) graphs.push_back(&a.g());
            for (const onnx::GraphProto& g : a.graphs()) graphs.push_back(&g);
            for (const onnx::GraphProto* g : graphs)
                for (const onnx::NodeProto& inner : g->node())
                    if (visitNode(inner, opsets, depth + 1)) return true;
        }
        return false;
    };
    visit = [&](const onnx::FunctionProto& f) {
        Mark& mark = marks[&f];
        if (mark == Mark::Done) return false;
        if (mark == Mark::OnPath) {
            const auto from = std::find(path.begin(), path.end(), &f);
            for (auto it = from; it != path.end(); ++it) cycle += nameOf(**it) + " → ";
            cycle += nameOf(f);
            return true;
        }
        mark = Mark::OnPath;
        path.push_back(&f);
        const OnnxOpsets opsets = readOnnxOpsets(f, modelOpsets_);
        for (const onnx::NodeProto& node : f.node())
            if (visitNode(node, opsets, 0)) return true;
        path.pop_back();
        marks[&f] = Mark::Done;
        return false;
    };
    for (const onnx::FunctionProto& f : model_.functions())
        if (visit(f))
            return Error{"model-local functions call themselves (" + cycle +
                         "); ONNX functions cannot be recursive"};
    return {};
}

}  // namespace tandem::core::importers
