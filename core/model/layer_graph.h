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
    // and derives the backward graph.
    static Expected<std::shared_ptr<const LayerGraph>> create(std::string kind,
                                                              std::vector<Operator> forward);

    const std::string& kind() const { return kind_; }  // "transformer", "embedding", "head", …
    const std::vector<Operator>& forward() const { return forward_; }
    const std::vector<Operator>& backward() const { return backward_; }

    std::int64_t parameterBytes() const;       // owned weights (excludes tied copies)
    std::int64_t tiedParameterBytes() const;   // weights held here but owned elsewhere
    std::int64_t savedBytes() const;           // activations stashed for backward, one microbatch
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
};

// Derives the backward operator DAG from a valid forward DAG (see BackwardRule).
std::vector<Operator> deriveBackward(const std::vector<Operator>& forward);

// Topological order check: returns an empty string when `ops` is a DAG with valid input indices,
// else a message naming the offending operator.
std::string validateOperatorDag(const std::vector<Operator>& ops);

}  // namespace tandem::core::model
