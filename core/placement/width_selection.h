#pragma once
// What the per-width selectors share: the inputs of choosing the data-parallel degree and the
// partition at one tensor-parallel width t, and the choice they return. The device budget of a
// pipeline with s stages of which u run on one device is (s − u)·t + u; with d replicas each
// pipeline may use K_d = ⌊D/d⌋ devices, and leftover devices stay idle.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/common/run_control.h"
#include "core/hardware/training_config.h"
#include "core/placement/cost_model.h"
#include "core/placement/stage_candidates.h"

namespace tandem::core::placement {

// The most stages a pipeline of `budget` devices can have at width t when up to `maxOneDevice`
// stages run on one device (those first) and at most `maxStages` exist.
inline int maxStagesWithin(std::int64_t budget, std::int64_t t, int maxOneDevice, int maxStages) {
    const std::int64_t u = maxOneDevice;
    std::int64_t s = budget <= u ? budget : (budget + u * (t - 1)) / t;
    if (s > maxStages) s = maxStages;
    return int(s < 0 ? 0 : s);
}

// A lower bound on the time per batch of every plan at one width, for a cost model whose stage
// loads are at least the sum of their layers' forward and backward times (`work` is that sum
// over all layers; the native model's loads add transfers and reruns to it, and its sync is
// never negative): with d replicas and s stages, Lmax ≥ work / s, so TPB ≥ work · (m + s − 1) / s,
// which falls with s; s is at most the stages of D / d devices. The minimum over d.
inline double timePerBatchLowerBound(double work, std::int64_t devices, std::int64_t microbatches,
                                     std::int64_t t, int maxOneDevice, int maxStages) {
    double best = std::numeric_limits<double>::infinity();
    for (std::int64_t d = 1; d <= std::min(devices, microbatches); ++d) {
        const int s = maxStagesWithin(devices / d, t, maxOneDevice, maxStages);
        if (s == 0) break;  // budgets only shrink as d grows
        const double m = double((microbatches + d - 1) / d);
        best = std::min(best, work * (m + double(s) - 1.0) / double(s));
    }
    return best;
}

struct SelectionInput {
    const StageCandidates& candidates;
    const CostModel& model;
    std::int64_t tensorParallel = 1;
    std::int64_t devices = 1;       // D
    std::int64_t microbatches = 1;  // N, microbatches per global batch
    int maxStages = 1;              // S limit for the whole cluster (≤ layers)
    int maxOneDevice = 0;           // u limit (0: every stage uses t devices)
    hardware::Recompute recompute = hardware::Recompute::Off;
    std::int64_t maxDpStates = 20000000;
    RunControl* control = nullptr;
    // Only a plan strictly faster than this matters (a faster width, or the caller's time to
    // beat): the native selector then keeps no partition that cannot be (see its header).
    double mustBeatSeconds = std::numeric_limits<double>::infinity();

    std::int64_t devicesFor(int stages, int oneDevice) const {
        return std::int64_t(stages - oneDevice) * tensorParallel + oneDevice;
    }
    // The most stages a pipeline of `budget` devices can have (one-device stages first).
    int maxStagesWithin(std::int64_t budget) const {
        return placement::maxStagesWithin(budget, tensorParallel, maxOneDevice, maxStages);
    }
};

struct WidthChoice {
    bool found = false;
    double timePerBatch = std::numeric_limits<double>::infinity();
    std::int64_t dataParallel = 0;
    std::vector<int> stages;    // transitions of `candidates`, pipeline order
    std::int64_t dpStates = 0;  // statistics: DP states over all tables built
    int dpTables = 0;
};

}  // namespace tandem::core::placement
