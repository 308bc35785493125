#pragma once
// The seam between the explorers and the estimate → schedule → place pipeline: explorers only
// ask an evaluator for one point's result and for an upper bound on its objective. The real
// evaluator (estimator, scheduler and placement with caches shared across points) implements it;
// the tests implement it with closed-form landscapes.
//
// Both methods are called concurrently from the explorer's worker threads, for different points
// and sometimes the same chip, so implementations must be thread-safe. `control` is for polling
// cancellation only (progress belongs to the explorer; pass the evaluator's inner solvers a
// RunControl of their own if they report): a point interrupted by it comes back with status
// Cancelled and is dropped. An evaluator must not submit work to the explorer's ThreadPool and
// wait for it (every worker may be inside evaluate()).
#include "core/common/run_control.h"
#include "core/search/evaluated_point.h"
#include "core/search/search_point.h"

namespace tandem::core::search {

class PointEvaluator {
public:
    virtual ~PointEvaluator() = default;

    virtual EvaluatedPoint evaluate(const SearchPoint& point, RunControl* control) const = 0;

    // An upper bound on evaluate(point).objective, much cheaper than evaluate (e.g. from compute
    // and memory roofline bounds). It must hold for every point: the pruned explorer returns
    // the exhaustive optimum only if it does, and counts the points where it did not.
    virtual double upperBound(const SearchPoint& point) const = 0;
};

}  // namespace tandem::core::search
