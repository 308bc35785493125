#pragma once
// The exact placement DP over StageCandidates. State (node, s, u): the layers not yet placed
// when `node` is, split into exactly s stages (the first of them at position s), u of which run
// on one device (a stage with no tensor-parallel layer at width t > 1; all others use t). The
// value is a Pareto front of (Lmax, Q): the largest effective stage load and, when the data-
// parallel synchronisation is sized by the largest stage, the largest stage parameter bytes.
// Both are maxima, so the front is exact for any final objective that is non-decreasing in
// both, which TPB = Lmax·(m+S−1) + sync(Q) is; without that second criterion (PHAZE sizes its
// resync by the first stage, which the caller handles) every front has one point and this is
// the plain min–max DP. Device budgets are (s − u)·t + u, so no per-device dimension is needed,
// and when every stage uses t devices u is always 0. The number of microbatches in flight is
// min(position, inFlightCap), the only way m enters; callers keep one table per distinct cap.
// Each point also carries ΣL, the sum of its partition's stage loads, for the native pipeline
// time m·Lmax + ΣL − Lmax (CostModel::pipelineSeconds). ΣL is not a criterion of the fronts
// (that would cost the early stop that keeps the DP affordable), so a point's ΣL is that of
// one partition reaching its (Lmax, Q); with preferSmallerTotal, the smallest ΣL among the
// candidates reaching exactly the same (Lmax, Q) (PHAZE keeps the first, as before).
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/hardware/training_config.h"
#include "core/placement/stage_candidates.h"

namespace tandem::core::placement {

class PartitionDp {
public:
    struct Point {
        double load = 0;      // Lmax over the stages of this suffix
        double sync = 0;      // Q: largest stage parameter bytes (0 when not tracked)
        int transition = -1;  // the suffix's first stage (−1 for the empty suffix)
        int child = -1;       // point index of the rest of the suffix
        double total = 0;     // ΣL: this suffix's stage loads, summed from its last stage
    };
    struct Settings {
        int maxStages = 1;     // S limit (≤ layers)
        int maxOneDevice = 0;  // u limit; 0 when every stage uses t devices
        std::int64_t inFlightCap = std::numeric_limits<std::int64_t>::max();
        hardware::Recompute recompute = hardware::Recompute::Off;
        bool lastStageRecomputes = false;  // CostModel::lastStageRecomputes()
        bool trackSync = false;            // keep Q (largest stage parameter bytes) in the front
        bool preferSmallerTotal = false;   // of points with equal (Lmax, Q), keep the smaller ΣL
        std::int64_t maxStates = 20000000;
        // Per (s, u), at index s·(maxOneDevice + 1) + u (slot(0, s, u)): a state's points whose
        // Lmax exceeds it are not kept (empty: no limit). A caller that needs only plans faster
        // than a known time gives each state the largest Lmax such a plan can have
        // (NativeSelector); the points at or below the limits are exactly those of the unlimited
        // table.
        std::vector<double> maxLoad;
    };

    static Expected<PartitionDp> solve(const StageCandidates& candidates, const Settings& settings,
                                       RunControl* control = nullptr);

    const Settings& settings() const { return settings_; }
    int maxStages() const { return settings_.maxStages; }
    std::span<const Point> front(int node, int stages, int oneDevice) const;
    int frontOffset(int node, int stages, int oneDevice) const;
    // The smallest Lmax of the state, +∞ when it has no partition.
    double best(int node, int stages, int oneDevice) const;
    const Point& point(int index) const { return points_[std::size_t(index)]; }
    // The stages (transitions) of the partition that ends in point `index`, in pipeline order.
    std::vector<int> stagesOf(int index) const;
    std::int64_t stateCount() const { return std::int64_t(offset_.size()); }

private:
    std::size_t slot(int node, int stages, int oneDevice) const {
        return (std::size_t(node) * std::size_t(settings_.maxStages + 1) + std::size_t(stages)) *
                   std::size_t(settings_.maxOneDevice + 1) +
               std::size_t(oneDevice);
    }

    Settings settings_;
    std::vector<Point> points_;
    std::vector<int> offset_;
    std::vector<int> count_;
};

}  // namespace tandem::core::placement
