#pragma once
// How each standard ONNX operator becomes a Tandem operator class (ARCHITECTURE.md §2.2):
//  - GEMM-like (MatMul, Gemm, Conv, ConvTranspose) → tensor core, shapes from inferred tensors;
//  - element-wise, activations, Softmax, normalisations, reductions, pooling, embedding
//    lookups, data-moving copies → vector core, cycles per element from
//    core/model/vector_op_costs.h (PHAZE's primitives; composites are sums of primitives, and
//    the table says which entry each row uses);
//  - views and re-labelings (Reshape, Transpose, Squeeze, Unsqueeze, Flatten, Identity, Cast,
//    Concat, Split, Slice, Expand, Tile, Gather of non-weights, …) → Nop: zero cost, kept for
//    precedence. Concat and Split are Nops because an accelerator writes the pieces into (or
//    reads them from) one buffer; Cast because mixed precision is modelled by the build's
//    bytes per element, not by the file's types;
//  - values fixed once shapes are bound (Constant, Shape, Size, and any node whose inputs are
//    all such values or initializers) are "static": folded away, not operators.
// Operators of other domains, and standard ones missing here, are unknown: the importer costs
// them as one-cycle-per-element vector work and warns.
#include <string_view>

#include "core/model/vector_op_costs.h"

namespace tandem::core::importers {

enum class OnnxOpKind {
    MatMul,         // numpy matmul, batched over leading dims
    Gemm,           // 2-D, transA/transB
    Conv,           // lowered to GEMM: m = N·∏out, n = Cout/g, k = Cin/g·∏kernel, batch = g
    ConvTranspose,  // the transposed lowering: m = N·∏in, n = Cout/g·∏kernel, k = Cin/g
    Gather,         // an embedding lookup when its data is a weight, else a Nop
    Vector,
    Nop,
    Static,  // always constant once shapes are bound
};

// Which tensor sets the element count of a vector op.
enum class ElementSource { Output, FirstInput };
// What a vector op keeps for its backward pass.
enum class SavedTensor { Nothing, Inputs, Output, Mask };
// Vector ops whose HBM streams depend on how many inputs are full-size activations
// (Elementwise), pooling whose work is a window per output element, or fixed by the cost.
enum class VectorShape { Fixed, Elementwise, Pooling };

struct OnnxOpInfo {
    std::string_view opType;
    OnnxOpKind kind = OnnxOpKind::Vector;
    std::string_view tandemKind;  // Operator::kind, e.g. "layer_norm"
    model::VectorOpCost cost{};
    ElementSource elements = ElementSource::Output;
    SavedTensor saved = SavedTensor::Nothing;
    VectorShape shape = VectorShape::Fixed;
};

// The entry for a standard-domain ("" or "ai.onnx") operator, or nullptr.
const OnnxOpInfo* findOnnxOp(std::string_view domain, std::string_view opType);

// How unknown operators are costed: 1 cycle per element forward and backward.
const OnnxOpInfo& unknownOnnxOp();

}  // namespace tandem::core::importers
