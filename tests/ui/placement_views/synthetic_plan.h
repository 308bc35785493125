#pragma once
// A synthetic placement plan for the pipeline and placement views' tests and bench_views: S
// stages of t devices each, d replicas, m microbatches; stage loads vary so the timeline has
// real bubbles, and memory falls from the first stage to the last.
#include <cstdint>

#include "core/placement/plan.h"

namespace tandem::test {

inline core::placement::Plan syntheticPlan(int S, std::int64_t m, std::int64_t t, std::int64_t d) {
    constexpr double kGiB = double(std::int64_t(1) << 30);
    core::placement::Plan plan;
    plan.tensorParallel = t;
    plan.dataParallel = d;
    plan.microbatchesPerPipeline = m;
    for (int k = 0; k < S; ++k) {
        core::placement::StagePlan stage;
        stage.layers = {k};
        stage.devices = t;
        stage.forwardSeconds = 1e-3 * (1 + k % 3);
        stage.backwardSeconds = 2e-3 * (1 + k % 2);
        stage.loadSeconds = stage.forwardSeconds + stage.backwardSeconds;
        stage.memory.weightsBytes = 1e9;
        stage.memory.gradientsBytes = 1e9;
        stage.memory.activationsBytes = 2e8 * (S - k);
        stage.memory.totalBytes = 2e9 + 2e8 * (S - k);
        stage.memory.capacityBytes = 32 * kGiB;
        plan.stages.push_back(stage);
    }
    plan.devicesPerPipeline = S * t;
    plan.devicesUsed = d * S * t;
    return plan;
}

}  // namespace tandem::test
