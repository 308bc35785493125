#pragma once
// A bounded, derivative-free minimiser for calibration: Nelder and Mead's simplex on parameters
// normalised to the unit box [0, 1]^n. The first simplex is the start plus one vertex per
// coordinate at `initialStep` from it (towards the inside of the box); reflection (1),
// expansion (2), contraction (½) and shrink (½) follow the textbook rules, with every trial
// point moved onto the box where it would leave it. A round ends when the simplex fits in a
// cube of edge `minStep`; a new round starts from the best point as long as the last one found
// something better (a collapsed simplex can stall on the kinks of a mean of absolute errors),
// until the evaluation budget is spent. Sequential and deterministic (ties keep the earlier
// vertex): the same objective gives the same path. The objective may fail: an Error stops the
// search and is returned, except "cancelled" (or `control` cancelled), which ends it with the
// best point so far marked cancelled.
#include <functional>
#include <span>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"

namespace tandem::core::calibration {

struct SimplexSearchOptions {
    int maxEvaluations = 200;  // objective calls, the start included
    double initialStep = 0.25;
    double minStep = 1.0 / 256;
};

struct SimplexSearchResult {
    std::vector<double> x;  // best point, in [0, 1]^n (empty only if cancelled before any)
    double value = 0;       // objective there
    int evaluations = 0;
    bool cancelled = false;
    bool converged = false;  // stopped because a round found nothing better
};

using Objective = std::function<Expected<double>(std::span<const double> x)>;

// `start` must lie in [0, 1]^n; the budget must be at least 1 and the steps positive with
// minStep ≤ initialStep ≤ 1.
Expected<SimplexSearchResult> simplexSearch(const Objective& objective, std::vector<double> start,
                                            const SimplexSearchOptions& options,
                                            const RunControl* control = nullptr);

}  // namespace tandem::core::calibration
