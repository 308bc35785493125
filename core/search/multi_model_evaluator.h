#pragma once
// The evaluator of a multi-model search (ARCHITECTURE.md §2.9): one chip for several
// models. Each model is evaluated at the point by its own ModelEvaluator; the objective is the
// geometric mean over the models of objective_i / normaliser_i, where objective_i is model i's
// value of the search objective (search_objective.h; the throughput by default) and normaliser_i
// the same on the reference chip (its reference-chip baseline). PHAZE averaged raw
// throughputs, so the smallest model dominated the ranking; normalising makes a chip that is
// 2× better for GPT-3 count as much as one that is 2× better for BERT. A point is feasible only
// if every model fits; its per-model throughputs go to modelThroughputsSamplesPerSecond and
// throughputSamplesPerSecond stays 0 (there is no single-model number to show). The upper bound
// is the same geometric mean over the models' own bounds, which is a bound because the mean is
// monotone in every term. Thread-safe: the model evaluators are.
#include <memory>
#include <vector>

#include "core/common/expected.h"
#include "core/search/model_evaluator.h"

namespace tandem::core::search {

class MultiModelEvaluator final : public PointEvaluator {
public:
    // One evaluator per model and its normaliser (in the objective's unit, > 0). Errors: no models,
    // sizes that differ, a normaliser that is not a positive finite number.
    static Expected<std::unique_ptr<MultiModelEvaluator>> create(
        std::vector<const ModelEvaluator*> models, std::vector<double> normalisers);

    EvaluatedPoint evaluate(const SearchPoint& point, RunControl* control) const override;
    double upperBound(const SearchPoint& point) const override;

    const std::vector<double>& normalisers() const { return normalisers_; }

private:
    MultiModelEvaluator() = default;
    std::vector<const ModelEvaluator*> models_;
    std::vector<double> normalisers_;
};

}  // namespace tandem::core::search
