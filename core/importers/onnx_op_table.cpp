#include "core/importers/onnx_op_table.h"

#include <algorithm>
#include <array>

namespace tandem::core::importers {

namespace {

namespace c = model::vector_op_costs;
using model::VectorOpCost;

// Composite costs in PHAZE's primitive units (vector_op_costs.h), for operators the builder's
// table has no row for.
// Exp, Log, Sqrt, Pow, trigonometry: PHAZE has no primitive for them; each is costed as its
// division (10 cycles), the primitive of the same iterative kind, forward and backward.
constexpr VectorOpCost kTranscendental{c::kDiv, c::kDiv, 2, 3};
// erf is costed as a tanh (both are evaluated as the same kind of rational approximation).
constexpr VectorOpCost kErf = c::kTanh;
// σ(x) = 0.5 + 0.5·tanh(x/2): Mul, tanh, Mul, Add; backward σ·(1 − σ)·dy: Add, Mul, Mul.
constexpr VectorOpCost kSigmoid{c::kMul + c::kTanhForward + c::kMul + c::kAdd,
                                c::kAdd + 2 * c::kMul, 2, 3};
// SiLU / Swish: x·σ(x), PHAZE's own SiLU entry.
constexpr VectorOpCost kSilu{c::kSiluForward, c::kSiluBackward, 2, 3};
// One ALU operation per element (compare, select, min/max, abs, …).
constexpr VectorOpCost kOneOp{c::kAdd, c::kAdd, 2, 3};
// LeakyRelu / PRelu: the ReLU compare plus a multiply on the negative side.
constexpr VectorOpCost kLeakyRelu{c::kReluForward + c::kMul, c::kReluBackward + c::kMul, 2, 3};
// A reduction pass over the input; backward broadcasts the gradient back.
constexpr VectorOpCost kReduce{c::kReduction, c::kAdd, 2, 2};
// Data movement that really copies (Pad, Resize, GatherND, Scatter…): a one-cycle copy like an
// embedding lookup.
constexpr VectorOpCost kCopy = c::kEmbeddingLookup;
// Division: forward one Div; backward dy/b and −dy·a/b² (a Div, two Muls and the Div reused).
constexpr VectorOpCost kDivide{c::kDiv, c::kDiv + 2 * c::kMul, 2, 3};

constexpr OnnxOpInfo gemm(std::string_view op, OnnxOpKind kind, std::string_view tandemKind) {
    return {
        op, kind, tandemKind, {}, ElementSource::Output, SavedTensor::Inputs, VectorShape::Fixed};
}
constexpr OnnxOpInfo elementwise(std::string_view op, std::string_view kind, VectorOpCost cost,
                                 SavedTensor saved) {
    return {op,    OnnxOpKind::Vector,      kind, cost, ElementSource::Output,
            saved, VectorShape::Elementwise};
}
constexpr OnnxOpInfo fixed(std::string_view op, std::string_view kind, VectorOpCost cost,
                           SavedTensor saved, ElementSource from = ElementSource::FirstInput) {
    return {op, OnnxOpKind::Vector, kind, cost, from, saved, VectorShape::Fixed};
}
constexpr OnnxOpInfo pooling(std::string_view op) {
    return {op,
            OnnxOpKind::Vector,
            "pool",
            kReduce,
            ElementSource::FirstInput,
            SavedTensor::Inputs,
            VectorShape::Pooling};
}
constexpr OnnxOpInfo nop(std::string_view op) {
    return {op,
            OnnxOpKind::Nop,
            "view",
            {},
            ElementSource::Output,
            SavedTensor::Nothing,
            VectorShape::Fixed};
}
constexpr OnnxOpInfo staticOp(std::string_view op) {
    return {op,
            OnnxOpKind::Static,
            "constant",
            {},
            ElementSource::Output,
            SavedTensor::Nothing,
            VectorShape::Fixed};
}

using S = SavedTensor;

// Sorted by op type (checked on first use) for binary search.
constexpr std::array kTable{
    elementwise("Abs", "abs", kOneOp, S::Inputs),
    elementwise("Add", "add", VectorOpCost{c::kAdd, c::kAdd, 2, 3}, S::Nothing),
    elementwise("And", "logic", kOneOp, S::Nothing),
    fixed("ArgMax", "reduce", kReduce, S::Nothing),
    fixed("ArgMin", "reduce", kReduce, S::Nothing),
    pooling("AveragePool"),
    fixed("BatchNormalization", "batch_norm", c::kLayerNorm, S::Inputs),
    nop("Cast"),
    nop("CastLike"),
    elementwise("Ceil", "round", kOneOp, S::Nothing),
    elementwise("Celu", "elu", kTranscendental, S::Inputs),
    elementwise("Clip", "clip", kOneOp, S::Inputs),
    nop("Concat"),
    staticOp("Constant"),
    nop("ConstantOfShape"),
    gemm("Conv", OnnxOpKind::Conv, "conv"),
    gemm("ConvTranspose", OnnxOpKind::ConvTranspose, "conv_transpose"),
    elementwise("Cos", "trig", kTranscendental, S::Inputs),
    fixed("CumSum", "cumsum", kReduce, S::Nothing),
    nop("DepthToSpace"),
    elementwise("Div", "div", kDivide, S::Inputs),
    fixed("Dropout", "dropout", c::kDropout, S::Mask),
    elementwise("Elu", "elu", kTranscendental, S::Output),
    elementwise("Equal", "compare", kOneOp, S::Nothing),
    elementwise("Erf", "erf", kErf, S::Inputs),
    elementwise("Exp", "exp", kTranscendental, S::Output),
    nop("Expand"),
    nop("Flatten"),
    elementwise("Floor", "round", kOneOp, S::Nothing),
    OnnxOpInfo{"Gather", OnnxOpKind::Gather, "embedding", c::kEmbeddingLookup,
               ElementSource::Output, S::Nothing, VectorShape::Fixed},
    fixed("GatherElements", "gather", kCopy, S::Nothing, ElementSource::Output),
    fixed("GatherND", "gather", kCopy, S::Nothing, ElementSource::Output),
    elementwise("Gelu", "gelu", c::kGelu, S::Inputs),
    gemm("Gemm", OnnxOpKind::Gemm, "linear"),
    fixed("GlobalAveragePool", "reduce", kReduce, S::Nothing),
    fixed("GlobalLpPool", "reduce", kReduce, S::Inputs),
    fixed("GlobalMaxPool", "reduce", kReduce, S::Inputs),
    elementwise("Greater", "compare", kOneOp, S::Nothing),
    elementwise("GreaterOrEqual", "compare", kOneOp, S::Nothing),
    fixed("GroupNormalization", "group_norm", c::kLayerNorm, S::Inputs),
    elementwise("HardSigmoid", "hard_sigmoid", kOneOp, S::Inputs),
    elementwise("HardSwish", "hard_swish", VectorOpCost{2 * c::kMul, 2 * c::kMul, 2, 3}, S::Inputs),
    nop("Identity"),
    fixed("InstanceNormalization", "instance_norm", c::kLayerNorm, S::Inputs),
    elementwise("IsInf", "compare", kOneOp, S::Nothing),
    elementwise("IsNaN", "compare", kOneOp, S::Nothing),
    fixed("LayerNormalization", "layer_norm", c::kLayerNorm, S::Inputs),
    elementwise("LeakyRelu", "leaky_relu", kLeakyRelu, S::Inputs),
    elementwise("Less", "compare", kOneOp, S::Nothing),
    elementwise("LessOrEqual", "compare", kOneOp, S::Nothing),
    elementwise("Log", "log", kTranscendental, S::Inputs),
    fixed("LogSoftmax", "softmax", VectorOpCost{c::kSoftmaxForward, c::kSoftmaxBackward, 2, 3},
          S::Output),
    fixed("LpNormalization", "norm", c::kLayerNorm, S::Inputs),
    pooling("LpPool"),
    gemm("MatMul", OnnxOpKind::MatMul, "matmul"),
    elementwise("Max", "max", kOneOp, S::Inputs),
    pooling("MaxPool"),
    fixed("MeanVarianceNormalization", "norm", c::kLayerNorm, S::Inputs),
    elementwise("Min", "min", kOneOp, S::Inputs),
    elementwise("Mish", "mish",
                VectorOpCost{2 * c::kDiv + c::kTanhForward + c::kMul,
                             2 * c::kDiv + c::kTanhForward + 3 * c::kMul, 2, 3},
                S::Inputs),
    elementwise("Mod", "mod", kDivide, S::Nothing),
    elementwise("Mul", "mul", VectorOpCost{c::kMul, c::kMul, 2, 3}, S::Inputs),
    elementwise("Neg", "neg", kOneOp, S::Nothing),
    elementwise("Not", "logic", kOneOp, S::Nothing),
    fixed("OneHot", "one_hot", kCopy, S::Nothing, ElementSource::Output),
    elementwise("Or", "logic", kOneOp, S::Nothing),
    elementwise("PRelu", "leaky_relu", kLeakyRelu, S::Inputs),
    fixed("Pad", "pad", kCopy, S::Nothing, ElementSource::Output),
    elementwise("Pow", "pow", kTranscendental, S::Inputs),
    nop("Range"),
    elementwise("Reciprocal", "reciprocal", kDivide, S::Output),
    fixed("ReduceL1", "reduce", kReduce, S::Inputs),
    fixed("ReduceL2", "reduce", kReduce, S::Inputs),
    fixed("ReduceLogSum", "reduce", kReduce, S::Inputs),
    fixed("ReduceLogSumExp", "reduce", kReduce, S::Inputs),
    fixed("ReduceMax", "reduce", kReduce, S::Inputs),
    fixed("ReduceMean", "reduce", kReduce, S::Nothing),
    fixed("ReduceMin", "reduce", kReduce, S::Inputs),
    fixed("ReduceProd", "reduce", kReduce, S::Inputs),
    fixed("ReduceSum", "reduce", kReduce, S::Nothing),
    fixed("ReduceSumSquare", "reduce", kReduce, S::Inputs),
    elementwise("Relu", "relu", c::kRelu, S::Output),
    nop("Reshape"),
    fixed("Resize", "resize", kCopy, S::Nothing, ElementSource::Output),
    elementwise("Round", "round", kOneOp, S::Nothing),
    fixed("ScatterElements", "scatter", kCopy, S::Nothing, ElementSource::Output),
    fixed("ScatterND", "scatter", kCopy, S::Nothing, ElementSource::Output),
    elementwise("Selu", "elu", kTranscendental, S::Output),
    staticOp("Shape"),
    elementwise("Sigmoid", "sigmoid", kSigmoid, S::Output),
    elementwise("Sign", "sign", kOneOp, S::Nothing),
    elementwise("Sin", "trig", kTranscendental, S::Inputs),
    staticOp("Size"),
    nop("Slice"),
    fixed("Softmax", "softmax", VectorOpCost{c::kSoftmaxForward, c::kSoftmaxBackward, 2, 3},
          S::Output),
    elementwise("Softplus", "softplus", VectorOpCost{2 * c::kDiv, 2 * c::kDiv, 2, 3}, S::Inputs),
    elementwise("Softsign", "softsign", kDivide, S::Inputs),
    nop("SpaceToDepth"),
    nop("Split"),
    elementwise("Sqrt", "sqrt", kTranscendental, S::Output),
    nop("Squeeze"),
    elementwise("Sub", "sub", VectorOpCost{c::kAdd, c::kAdd, 2, 3}, S::Nothing),
    elementwise("Sum", "add", VectorOpCost{c::kAdd, c::kAdd, 2, 3}, S::Nothing),
    elementwise("Swish", "silu", kSilu, S::Inputs),
    elementwise("Tanh", "tanh", c::kTanh, S::Output),
    elementwise("ThresholdedRelu", "relu", c::kRelu, S::Inputs),
    nop("Tile"),
    nop("Transpose"),
    fixed("Trilu", "mask", kOneOp, S::Nothing, ElementSource::Output),
    nop("Unsqueeze"),
    elementwise("Where", "select", kOneOp, S::Inputs),
    elementwise("Xor", "logic", kOneOp, S::Nothing),
};

static_assert(std::is_sorted(kTable.begin(), kTable.end(),
                             [](const OnnxOpInfo& a, const OnnxOpInfo& b) {
                                 return a.opType < b.opType;
                             }),
              "kTable must stay sorted by op type for the binary search");

}  // namespace

const OnnxOpInfo* findOnnxOp(std::string_view domain, std::string_view opType) {
    if (!(domain.empty() || domain == "ai.onnx")) return nullptr;
    const auto it = std::lower_bound(
        kTable.begin(), kTable.end(), opType,
        [](const OnnxOpInfo& info, std::string_view key) { return info.opType < key; });
    return it != kTable.end() && it->opType == opType ? &*it : nullptr;
}

const OnnxOpInfo& unknownOnnxOp() {
    static constexpr OnnxOpInfo kUnknown{"",
                                         OnnxOpKind::Vector,
                                         "unknown",
                                         kOneOp,
                                         ElementSource::Output,
                                         SavedTensor::Inputs,
                                         VectorShape::Elementwise};
    return kUnknown;
}

}  // namespace tandem::core::importers
