#pragma once
// Turns a chosen (width, d, stages) into a Plan: prices each stage at its position with the
// cost model (the same doubles the solver used), picks recompute per stage, fills the memory
// breakdown, Lmax, the synchronisation term, time per batch, throughput, bubble and the device
// map. Also used by the fixed baseline, whose stages may not fit: the result then says which
// stage fails and why instead of producing a plan.
#include <cstdint>
#include <string>
#include <vector>

#include "core/placement/cost_model.h"
#include "core/placement/plan.h"
#include "core/placement/width_graph.h"

namespace tandem::core::placement {

// How much of the plan to build. Full: everything. TimeOnly: whether it fits and the time per
// batch (the same doubles as Full), for callers that compare many plans and build the winner
// in full: it stops at the first stage that does not fit (reason left empty) and leaves out the
// breakdown, MFU and device map.
enum class PlanDetail { Full, TimeOnly };

struct BuiltPlan {
    Plan plan;
    bool fits = false;
    std::string reason;  // why not, when !fits
};

class PlanBuilder {
public:
    // Whether the stage at `position` of `stages` (1 is the last), priced as `cost`, can hold the
    // microbatches the schedule gives it with some recomputation the training allows, among
    // plans of `d` replicas: exactly what build() decides for that stage, without building it.
    static bool stageFits(const CostModel& model, const StageCost& cost, std::int64_t position,
                          std::int64_t stages, std::int64_t d);
    // `stagePositions`: each stage's layer positions (ascending) in pipeline order. With
    // `everyStageUsesWidth` all stages take t devices (Megatron-style baselines); otherwise a
    // stage without tensor-parallel layers takes one.
    static BuiltPlan build(const CostModel& model, const WidthGraph& graph, std::int64_t d,
                           const std::vector<std::vector<int>>& stagePositions,
                           bool everyStageUsesWidth = false, PlanDetail detail = PlanDetail::Full);
};

}  // namespace tandem::core::placement
