#include "core/importers/onnx_shape_inference.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <exception>
#include <limits>

namespace tandem::core::importers {

namespace {

constexpr int kMaxFallbackRounds = 64;
constexpr std::int64_t kMaxElements = std::int64_t(1) << 62;

void bindShape(onnx::TypeProto* type, const OnnxPlan& plan, std::int64_t batch,
               std::int64_t sequence) {
    if (!type->has_tensor_type() || !type->tensor_type().has_shape()) return;
    auto* shape = type->mutable_tensor_type()->mutable_shape();
    for (int d = 0; d < shape->dim_size(); ++d) {
        auto* dim = shape->mutable_dim(d);
        if (!dim->has_dim_param()) continue;
        const auto it = plan.symbols.find(dim->dim_param());
        if (it == plan.symbols.end())
            dim->clear_dim_param();
        else
            dim->set_dim_value(it->second == SymbolRole::Batch ? batch : sequence);
    }
}

void bindGraph(onnx::GraphProto* graph, const OnnxPlan& plan, std::int64_t batch,
               std::int64_t sequence) {
    for (auto& v : *graph->mutable_input()) bindShape(v.mutable_type(), plan, batch, sequence);
    for (auto& v : *graph->mutable_output()) bindShape(v.mutable_type(), plan, batch, sequence);
    for (auto& v : *graph->mutable_value_info()) bindShape(v.mutable_type(), plan, batch, sequence);
}

bool fullyKnown(const onnx::TypeProto& type) {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return false;
    for (const auto& dim : type.tensor_type().shape().dim())
        if (!dim.has_dim_value() || dim.dim_value() < 0) return false;
    return true;
}

// Types by tensor name after inference: inputs, value_info, outputs.
std::unordered_map<std::string, const onnx::TypeProto*> typesOf(const onnx::GraphProto& graph) {
    std::unordered_map<std::string, const onnx::TypeProto*> types;
    for (const auto& v : graph.input()) types[v.name()] = &v.type();
    for (const auto& v : graph.value_info()) types[v.name()] = &v.type();
    for (const auto& v : graph.output())
        if (v.type().has_tensor_type() && v.type().tensor_type().has_shape())
            types[v.name()] = &v.type();
    return types;
}

void infer(onnx::ModelProto& model) {
    const onnx::ShapeInferenceOptions options(false, 0, true);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
}

// One round of the fallback: outputs of unknown (or unregistered element-wise) operators
// without a shape get their first input's type. Nodes are visited in topological order and see
// the assumptions made before them, so a chain of such operators resolves in one round; only
// known operators between them need another inference pass. Returns whether anything was added.
bool assumeShapes(onnx::ModelProto& model, const OnnxPlan& plan) {
    auto types = typesOf(model.graph());
    std::unordered_map<std::string, onnx::TypeProto> assumed;
    for (const OnnxPlannedNode& p : plan.nodes) {
        if (p.info && p.info->shape != VectorShape::Elementwise) continue;
        const onnx::NodeProto& node = model.graph().node(p.node);
        if (node.input_size() == 0) continue;
        const auto in = types.find(node.input(0));
        if (in == types.end() || !fullyKnown(*in->second)) continue;
        const onnx::TypeProto inputType = *in->second;
        for (const std::string& out : node.output()) {
            if (out.empty()) continue;
            const auto it = types.find(out);
            if (it != types.end() && fullyKnown(*it->second)) continue;
            auto [slot, inserted] = assumed.insert_or_assign(out, inputType);
            types[out] = &slot->second;
        }
    }
    if (assumed.empty()) return false;
    auto* graph = model.mutable_graph();
    for (auto& v : *graph->mutable_value_info()) {
        const auto it = assumed.find(v.name());
        if (it == assumed.end()) continue;
        *v.mutable_type() = it->second;
        assumed.erase(it);
    }
    for (auto& v : *graph->mutable_output()) {
        const auto it = assumed.find(v.name());
        if (it == assumed.end()) continue;
        *v.mutable_type() = it->second;
        assumed.erase(it);
    }
    for (auto& [name, type] : assumed) {
        auto* v = graph->add_value_info();
        v->set_name(name);
        *v->mutable_type() = type;
    }
    return true;
}

}  // namespace

bool isOnnxFloatType(int dataType) {
    using T = onnx::TensorProto;
    return dataType == T::FLOAT || dataType == T::FLOAT16 || dataType == T::BFLOAT16 ||
           dataType == T::DOUBLE;
}

std::int64_t onnxElementBytes(int dataType, std::int64_t bytesPerElement) {
    using T = onnx::TensorProto;
    if (isOnnxFloatType(dataType)) return bytesPerElement;
    switch (dataType) {
        case T::INT8:
        case T::UINT8:
        case T::BOOL:
            return 1;
        case T::INT16:
        case T::UINT16:
            return 2;
        case T::INT32:
        case T::UINT32:
            return 4;
        default:
            return 8;  // int64, uint64, complex, strings (as pointers)
    }
}

Expected<OnnxShapes> inferOnnxShapes(const OnnxImportState& state, std::int64_t batch,
                                     std::int64_t sequence) {
    onnx::ModelProto model = state.model;
    bindGraph(model.mutable_graph(), state.plan, batch, sequence);
    try {
        infer(model);
        for (int round = 0; round < kMaxFallbackRounds && assumeShapes(model, state.plan); ++round)
            infer(model);
    } catch (const std::exception& e) {
        return Error{state.sourceName + ": ONNX shape inference failed at microbatch " +
                     std::to_string(batch) + ", sequence length " + std::to_string(sequence) +
                     ": " + e.what()};
    }
    OnnxShapes shapes;
    for (const auto& [name, type] : typesOf(model.graph())) {
        if (!fullyKnown(*type)) continue;
        OnnxTensorShape shape;
        shape.dataType = type->tensor_type().elem_type();
        std::int64_t elements = 1;
        for (const auto& dim : type->tensor_type().shape().dim()) {
            const std::int64_t v = dim.dim_value();
            if (v != 0 && elements > kMaxElements / v)
                return Error{state.sourceName + ": tensor '" + name +
                             "' has more than 2^62 elements at microbatch " +
                             std::to_string(batch) + ", sequence length " +
                             std::to_string(sequence)};
            elements *= v;
            shape.dims.push_back(v);
        }
        shape.elements = elements;
        shapes.emplace(name, std::move(shape));
    }
    // Initializers kept in the graph (shape constants) are not in the inferred types.
    for (const onnx::TensorProto& t : model.graph().initializer()) {
        if (shapes.count(t.name())) continue;
        const auto it = state.initializers.find(t.name());
        if (it == state.initializers.end()) continue;
        shapes.emplace(t.name(),
                       OnnxTensorShape{it->second.dataType, it->second.dims, it->second.elements});
    }
    return shapes;
}

}  // namespace tandem::core::importers
