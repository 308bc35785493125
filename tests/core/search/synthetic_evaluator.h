#pragma once
// A PointEvaluator over a closed-form landscape, for testing the explorers without the
// estimate → schedule → place pipeline. Each point gets a pseudo-random u ∈ [0, 1) from a hash
// of (seed, chip, microbatch, recompute, HBM); u < infeasibleBelow makes the point infeasible,
// otherwise objective = area · (0.5 + 0.5·u), optionally rounded to a multiple of `quantum` to
// create ties. upperBound() = area (rounded up to the quantum), which is ≥ every objective and
// informative: the best point has a large area, so points of much smaller area can be skipped.
// `landscape` replaces the formula when set (the PHAZE walk tests define it by hand). Thread-safe:
// the only shared state is an atomic call counter.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <thread>

#include "core/search/point_evaluator.h"

namespace tandem::test {

using core::RunControl;
using core::search::EvaluatedPoint;
using core::search::PointStatus;
using core::search::SearchPoint;

inline std::uint64_t splitMix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

class SyntheticEvaluator final : public core::search::PointEvaluator {
public:
    std::uint64_t seed = 1;
    double infeasibleBelow = 0.1;
    double quantum = 0;                  // > 0: objectives and bounds on a grid of this step (ties)
    std::chrono::microseconds delay{0};  // per evaluation, to make cancellation observable
    enum class BoundKind { Exact, Infinite, TooLow } bound = BoundKind::Exact;
    std::function<double(const SearchPoint&)> landscape;  // objective; ≤ 0 means infeasible

    mutable std::atomic<std::int64_t> evaluations{0};

    double unit(const SearchPoint& p) const {
        std::uint64_t h = splitMix(seed);
        h = splitMix(h ^ std::uint64_t(p.chipIndex));
        h = splitMix(h ^ std::uint64_t(p.microbatchSize));
        h = splitMix(h ^ std::uint64_t(p.recompute));
        h = splitMix(h ^ std::uint64_t(p.hbmCapacityBytes()));
        return double(h >> 11) * 0x1.0p-53;
    }

    // The truth the tests compare with; evaluate() returns exactly this.
    double objectiveOf(const SearchPoint& p) const {
        if (landscape) return std::max(0.0, landscape(p));
        const double u = unit(p);
        if (u < infeasibleBelow) return 0;
        const double value = p.areaSquareMillimetres * (0.5 + 0.5 * u);
        return quantum > 0 ? std::round(value / quantum) * quantum : value;
    }

    EvaluatedPoint evaluate(const SearchPoint& p, RunControl* /*control*/) const override {
        evaluations.fetch_add(1);
        if (delay.count() > 0) std::this_thread::sleep_for(delay);
        EvaluatedPoint e;
        e.point = p;
        const double objective = objectiveOf(p);
        if (objective > 0) {
            e.status = PointStatus::Feasible;
            e.objective = objective;
            e.throughputSamplesPerSecond = objective * 10;
        } else {
            e.status = PointStatus::Infeasible;
            e.message = "does not fit, \"synthetic\"";
        }
        e.seconds.total = 1e-3;
        return e;
    }

    double upperBound(const SearchPoint& p) const override {
        switch (bound) {
            case BoundKind::Infinite:
                return std::numeric_limits<double>::infinity();
            case BoundKind::TooLow:
                return 0.5 * objectiveOf(p);
            case BoundKind::Exact:
                break;
        }
        if (landscape) return objectiveOf(p);
        const double a = p.areaSquareMillimetres;
        return quantum > 0 ? std::ceil(a / quantum) * quantum : a;
    }
};

}  // namespace tandem::test
