#pragma once
// The one table of vector-core costs that every model builder uses: cycles per element (per lane)
// of each vector operator, forward and backward, and how many tensors it streams through HBM.
// The primitive costs are PHAZE's (its public code's vector-core table; ARCHITECTURE.md §2.10);
// composite operators are sums of primitives so that every number traces back to that table.
// Two choices differ from PHAZE and are deliberate:
//  - GELU is costed as its tanh approximation, 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), in
//    PHAZE's own primitive units (35 forward, 45 backward), where PHAZE costed it as a ReLU (1).
//    A GELU is not one cycle per element on any vector unit, and a search that believes it is
//    under-sizes the vector cores of every GPT and BERT chip.
//  - Embedding lookups are a one-cycle copy (backward: a one-cycle scatter-add) instead of free:
//    they move b·s·h elements through HBM, which the estimator's bandwidth bound should see.
// Streamed tensors count full-size tensors read plus written (a 1-byte dropout mask counts as
// one); backward ops read the output gradient and what was saved, and write the input gradient.
#include <cstdint>

namespace tandem::core::model {

struct VectorOpCost {
    double forwardCyclesPerElement = 0;
    double backwardCyclesPerElement = 0;
    std::int64_t forwardStreamedTensors = 2;
    std::int64_t backwardStreamedTensors = 3;
};

namespace vector_op_costs {

// PHAZE's primitives (cycles per element per lane).
inline constexpr double kAdd = 1;  // also Sub
inline constexpr double kMul = 1;
inline constexpr double kReduction = 1;  // one pass of a row reduction (max or sum)
inline constexpr double kReluForward = 1;
inline constexpr double kReluBackward = 1;
inline constexpr double kLayerNormForward = 1;
inline constexpr double kLayerNormBackward = 1;
inline constexpr double kDropoutForward = 2;
inline constexpr double kDropoutBackward = 1;
inline constexpr double kDiv = 10;
inline constexpr double kTanhForward = 27;
inline constexpr double kTanhBackward = 2;  // uses the saved output: 1 − y²
inline constexpr double kSiluForward = 14;
inline constexpr double kSiluBackward = 15;
inline constexpr double kSoftmaxExpDiv = 10;  // the per-element part of a softmax

// Softmax: a max reduction and a sum reduction plus the per-element exponent and division.
inline constexpr double kSoftmaxForward = 2 * kReduction + kSoftmaxExpDiv;
// y·(dy − Σ dy·y): one multiply, one reduction, one subtraction, one multiply.
inline constexpr double kSoftmaxBackward = kMul + kReduction + kAdd + kMul;

// GELU, tanh approximation. Forward: x³ (2 Mul), ·0.044715, +x, ·√(2/π), tanh, +1, ·x, ·0.5.
inline constexpr double kGeluForward =
    2 * kMul + kMul + kAdd + kMul + kTanhForward + kAdd + kMul + kMul;
// Backward recomputes tanh(u) from the saved input (5 primitives + tanh), then
// dy·(0.5·(1 + T) + 0.5·x·(1 − T²)·√(2/π)·(1 + 0.134145·x²)).
inline constexpr double kGeluBackward = (kGeluForward - kAdd - 2 * kMul)  // recompute T
                                        + (kAdd + kMul)                   // 0.5·(1 + T)
                                        + (kMul + kAdd)                   // 1 − T²
                                        + (3 * kMul + kAdd)               // u'
                                        + 3 * kMul                        // 0.5·x·(1−T²)·u'
                                        + kAdd + kMul;                    // sum, ·dy

inline constexpr VectorOpCost kLayerNorm{kLayerNormForward, kLayerNormBackward, 2, 3};
// PHAZE has no RMSNorm entry; it does a subset of LayerNorm's work, so it gets LayerNorm's cost.
inline constexpr VectorOpCost kRmsNorm{kLayerNormForward, kLayerNormBackward, 2, 3};
// Residual add; its backward is where two gradient streams are accumulated.
inline constexpr VectorOpCost kResidualAdd{kAdd, kAdd, 3, 3};
// Bias of a row-parallel linear, added after the all-reduce; backward reduces dy over tokens.
inline constexpr VectorOpCost kBiasAdd{kAdd, kReduction, 2, 2};
inline constexpr VectorOpCost kDropout{kDropoutForward, kDropoutBackward, 3, 3};
inline constexpr VectorOpCost kRelu{kReluForward, kReluBackward, 2, 3};
inline constexpr VectorOpCost kGelu{kGeluForward, kGeluBackward, 2, 3};
inline constexpr VectorOpCost kTanh{kTanhForward, kTanhBackward, 2, 3};
// SwiGLU's SiLU(gate)·up: reads two tensors, writes one; backward writes both gradients.
inline constexpr VectorOpCost kSiluMul{kSiluForward + kMul, kSiluBackward + 2 * kMul, 3, 5};
// Attention: scale (Mul) and mask (Add) fused into the softmax, as Megatron does.
inline constexpr VectorOpCost kScaleMaskSoftmax{kMul + kAdd + kSoftmaxForward,
                                                kSoftmaxBackward + kMul, 2, 3};
// Loss over the logits: a softmax forward; backward (softmax − one-hot)·scale. Megatron-LM
// computes it in fp32 over the fp16 logits (vocab_parallel_cross_entropy(output.float())), in
// passes: the fp32 copy (read 2 + write 4 bytes per element), the row maxima (read 4), the
// shift (4 + 4), exp (4 + 4), the sums (4), the division (4 + 4): 38 bytes, 19 fp16-sized
// tensors; backward scales the saved softmax in place (4 + 4) and casts the gradient back to
// fp16 (4 + 2): 14 bytes, 7 tensors.
inline constexpr VectorOpCost kSoftmaxCrossEntropy{kSoftmaxForward, kAdd + kMul, 19, 7};
// Rotary position embedding: x·cos + rotate_half(x)·sin (the sign folds into the sin table).
inline constexpr VectorOpCost kRotary{2 * kMul + kAdd, 2 * kMul + kAdd, 2, 2};
inline constexpr VectorOpCost kEmbeddingLookup{1, 1, 2, 2};

// Sum of `inputs` tensors (embedding sums): inputs − 1 additions per element.
inline constexpr VectorOpCost sumOf(std::int64_t inputs) {
    const double adds = double(inputs - 1) * kAdd;
    return VectorOpCost{adds, adds, inputs + 1, inputs + 1};
}

static_assert(kGeluForward == 35 && kGeluBackward == 45);
static_assert(kSoftmaxForward == 12 && kScaleMaskSoftmax.forwardCyclesPerElement == 14);

}  // namespace vector_op_costs
}  // namespace tandem::core::model
