#include "core/importers/onnx_shape_inference.h"

#include <exception>
#include <limits>

#include "core/importers/onnx_node_inference.h"
#include "core/importers/onnx_value_scope.h"

namespace tandem::core::importers {

namespace {

constexpr std::int64_t kMaxElements = std::int64_t(1) << 62;

std::string at(std::int64_t batch, std::int64_t sequence) {
    return "microbatch " + std::to_string(batch) + ", sequence length " + std::to_string(sequence);
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
    const onnx::GraphProto& graph = state.model.graph();
    OnnxValueScope scope;
    try {
        OnnxNodeInference walk(state.model, state.plan, batch, sequence);
        const OnnxDeclaredTypes declared = walk.declaredTypes(graph);
        OnnxNodeInference::addInitializers(graph, scope);
        for (const onnx::ValueInfoProto& input : graph.input()) {
            onnx::TypeProto type = input.type();
            walk.bind(type);
            scope.setType(input.name(), std::move(type));
        }
        const OnnxNodeInference::Frame frame{&walk.modelOpsets(), &declared, "", 0};
        for (int i : state.plan.order) walk.infer(graph.node(i), i, scope, frame);
    } catch (const OnnxInferenceFailure& failure) {
        const bool symbolic = state.plan.symbolicBatch || state.plan.symbolicSequence;
        return Error{state.sourceName + ": " + failure.message +
                     (symbolic ? " (at " + at(batch, sequence) + ")" : "")};
    } catch (const std::exception& e) {
        return Error{state.sourceName + ": ONNX shape inference failed at " + at(batch, sequence) +
                     ": " + e.what()};
    }
    OnnxShapes shapes;
    for (const auto& [name, type] : scope.types()) {
        if (!type.has_tensor_type() || !type.tensor_type().has_shape()) continue;
        OnnxTensorShape shape;
        shape.dataType = type.tensor_type().elem_type();
        std::int64_t elements = 1;
        bool known = true;
        for (const auto& dim : type.tensor_type().shape().dim()) {
            const std::int64_t v = dim.dim_value();
            if (!dim.has_dim_value() || v < 0) {
                known = false;
                break;
            }
            if (v != 0 && elements > kMaxElements / v)
                return Error{state.sourceName + ": tensor '" + name +
                             "' has more than 2^62 elements at " + at(batch, sequence)};
            elements *= v;
            shape.dims.push_back(v);
        }
        if (!known) continue;
        shape.elements = elements;
        shapes.emplace(name, std::move(shape));
    }
    return shapes;
}

}  // namespace tandem::core::importers
