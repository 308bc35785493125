#pragma once
// The operator DAG of one layer: the forward graph as built, and the backward graph derived from
// it (a GEMM's backward is an input-gradient GEMM and a weight-gradient GEMM; PHAZE omitted the
// latter). Immutable once made; shared between identical layers (all transformer blocks of a
// model share one LayerGraph), which is what makes per-unique-layer scheduling cheap.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/model/operator.h"

namespace tandem::core::model {

class LayerGraph {
public:
    // Validates the forward DAG (unique names, inputs in range, acyclic, shapes non-negative)
    // and derives the backward graph. Operators must be listed in topological order (every
    // input index below the operator's own), each class with a backward rule that fits it
    // (GEMM rules on TensorCore/Fused, Elementwise on VectorCore/Fused epilogues, the Megatron
    // f on a Nop, g on a Collective, a transposed collective on an all-gather or reduce-scatter),
    // and the totals must fit in 64 bits.
    static Expected<std::shared_ptr<const LayerGraph>> create(std::string kind,
                                                              std::vector<Operator> forward);

    const std::string& kind() const { return kind_; }  // "transformer", "embedding", "head", …
    const std::vector<Operator>& forward() const { return forward_; }
    const std::vector<Operator>& backward() const { return backward_; }

    std::int64_t parameterBytes() const;      // owned weights (excludes tied copies)
    std::int64_t tiedParameterBytes() const;  // weights held here but owned elsewhere
    std::int64_t savedBytes() const;          // activations stashed for backward, one microbatch
    // What one microbatch keeps under selective recomputation: savedBytes less every
    // operator's discardedBytes.
    std::int64_t selectiveSavedBytes() const;
    double forwardFlops() const;
    double backwardFlops() const;
    double forwardGemmFlops() const;
    double backwardGemmFlops() const;

    // A string that is equal for two graphs exactly when their structure and shapes are equal;
    // used as a cache key by the estimator and the scheduler.
    const std::string& signature() const { return signature_; }

private:
    LayerGraph() = default;
    std::string kind_;
    std::vector<Operator> forward_;
    std::vector<Operator> backward_;
    std::string signature_;
    std::int64_t parameterBytes_ = 0;
    std::int64_t tiedParameterBytes_ = 0;
    std::int64_t savedBytes_ = 0;
    std::int64_t discardedBytes_ = 0;
    double forwardFlops_ = 0;
    double backwardFlops_ = 0;
    double forwardGemmFlops_ = 0;
    double backwardGemmFlops_ = 0;
};

// Derives the backward operator DAG from a valid, topologically ordered forward DAG (see
// BackwardRule). Forward operators are walked in reverse; each yields its backward operators
// ("bwd.<name>", "bwd.<name>.dX"/".dW" for a WeightGemm, ".dA"/".dB" for an ActivationGemm,
// ".epilogue" first for a Fused op) with forwardIndex set. If the forward graph has u → v,
// every backward op of v that produces the gradient of v's inputs (dX, dA, dB, the vector op,
// the collective or Nop) precedes every backward op of u that consumes u's output gradient
// (both GEMMs, or the epilogue). Weight gradients (dW) are sinks. Memory fields (outputBytes,
// savedBytes, parameterBytes) of backward ops are zero: memory is accounted on forward ops.
std::vector<Operator> deriveBackward(const std::vector<Operator>& forward);

// Topological order check: returns an empty string when `ops` is a DAG with valid input indices,
// else a message naming the offending operator.
std::string validateOperatorDag(const std::vector<Operator>& ops);

}  // namespace tandem::core::model
