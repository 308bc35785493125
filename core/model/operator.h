#pragma once
// One node of a layer's operator DAG (ARCHITECTURE.md §2.2). An operator knows its shape and
// sizes, not its latency: latencies come from the estimator for a given accelerator. GEMM
// dimensions and element counts are in elements; memory sizes are in bytes at the precision the
// graph was built for.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tandem::core::model {

enum class OpClass {
    TensorCore,  // GEMM / batched GEMM / convolution lowered to GEMM
    VectorCore,  // element-wise, softmax, norms, reductions
    Fused,       // a GEMM with a vector epilogue: holds one TC and one VC at once
    Collective,  // tensor-parallel all-reduce: occupies the device's network link
    Nop,         // views, reshapes, Megatron's identity operators: zero cost, kept for precedence
};

std::string_view toString(OpClass c);
bool parseOpClass(std::string_view text, OpClass& out);

// How the backward graph is derived from a forward operator.
enum class BackwardRule {
    None,                  // no backward work (a view): a Nop keeps precedence
    WeightGemm,            // Y = X·W: dX = dY·Wᵀ (flows back) and dW = Xᵀ·dY (a sink)
    ActivationGemm,        // C = A·B of two activations: dA and dB, both flow back
    Elementwise,           // one vector op over the same elements, backwardCyclesPerElement each
    AllReduceInBackward,   // Megatron "f": identity forward, all-reduce of the gradient backward
    NoneAfterAllReduce,    // Megatron "g": all-reduce forward, identity backward
    TransposedCollective,  // sequence parallelism's "g" and "ḡ": a forward all-gather is a
                           // reduce-scatter backward and vice versa, of the same bytes
    // FlashAttention (a Fused op: QKᵀ and PV with the softmax on chip): one fused backward
    // kernel recomputing QKᵀ and computing dV, dP, dQ and dK — 5 GEMMs of the forward's 2
    // (reduction 5/2 of the forward's), the softmax again, twice the forward's HBM traffic.
    FusedAttention,
};

std::string_view toString(BackwardRule r);
bool parseBackwardRule(std::string_view text, BackwardRule& out);

// What a Collective moves over its group (ring algorithms): an all-reduce sends 2(g−1)/g of the
// bytes in 2(g−1) steps, an all-gather or a reduce-scatter (collectiveBytes = the whole,
// gathered tensor) (g−1)/g of them in g−1 steps. A reduce-scatter followed by an all-gather is
// exactly one all-reduce.
enum class CollectiveKind { AllReduce, AllGather, ReduceScatter };

std::string_view toString(CollectiveKind k);
bool parseCollectiveKind(std::string_view text, CollectiveKind& out);
// The kind the backward pass of a TransposedCollective runs: all-gather ↔ reduce-scatter.
CollectiveKind transposed(CollectiveKind k);

struct GemmShape {
    std::int64_t batch = 1;  // independent GEMMs (heads × microbatch for attention)
    std::int64_t m = 0;      // rows of the output
    std::int64_t n = 0;      // columns of the output
    std::int64_t k = 0;      // reduction length
    double flops() const { return 2.0 * double(batch) * double(m) * double(n) * double(k); }
    bool operator==(const GemmShape&) const = default;
};

struct Operator {
    std::string name;  // unique within its graph, e.g. "attn.qkv"
    std::string kind;  // what it computes, for colours and cycle tables: "linear", "softmax", …
    OpClass opClass = OpClass::Nop;

    GemmShape gemm;                    // TensorCore and Fused
    std::int64_t elements = 0;         // VectorCore and Fused epilogue: elements processed
    double cyclesPerElement = 0;       // VectorCore and Fused epilogue, per lane
    std::int64_t streamedTensors = 2;  // vector ops: tensors read + written, for HBM traffic
    std::int64_t backwardStreamedTensors = 3;  // the same for the derived backward vector op
                                               // (reads dY and a saved tensor, writes dX)
    std::int64_t collectiveBytes = 0;          // Collective (and the backward of Megatron "f")
    // GEMMs that keep their intermediates on chip (FlashAttention): the HBM bytes the kernel
    // moves, instead of its shape's operands and output (0: from the shape).
    std::int64_t streamedBytes = 0;
    std::int64_t groupSize = 1;                             // devices taking part in the collective
    CollectiveKind collective = CollectiveKind::AllReduce;  // Collective and its backward

    std::int64_t parameterBytes = 0;      // weights owned by this operator (this shard)
    std::int64_t tiedParameterBytes = 0;  // weights shared with another layer (tied embeddings):
                                          // held in memory here, counted once in model totals
    std::int64_t outputBytes = 0;         // the activation this operator produces
    std::int64_t savedBytes = 0;          // what it keeps for its backward pass
    // Selective recomputation (Korthikanti et al. 2022): of savedBytes, what is not kept
    // (dropped after the forward pass and recreated in the backward pass), and whether this
    // operator's forward runs again in the backward pass to recreate it.
    std::int64_t discardedBytes = 0;
    bool selectiveRecompute = false;
    bool sharded = false;  // split over the tensor-parallel group (its weights
                           // and work are 1/t of the whole); else replicated

    BackwardRule backwardRule = BackwardRule::None;
    double backwardCyclesPerElement = 0;  // for BackwardRule::Elementwise

    std::vector<int> inputs;  // indices of predecessor operators in the same graph
    int forwardIndex = -1;    // backward operators: the forward operator they differentiate

    double flops() const;  // GEMM: 2·batch·m·n·k; vector: elements; else 0
    // Whether it costs time on any chip: a non-empty GEMM, or elements to compute or stream.
    // (Collectives do not count: they vanish at tensor-parallel width 1.)
    bool takesTime() const;
    bool isGemm() const { return opClass == OpClass::TensorCore || opClass == OpClass::Fused; }
    bool operator==(const Operator&) const = default;
};

}  // namespace tandem::core::model
