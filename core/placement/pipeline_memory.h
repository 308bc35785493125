#pragma once
// The memory a pipeline schedule needs on each stage's devices: the plan's own (1F1B, holding
// StagePlan::inFlightMicrobatches) adjusted by what each further or fewer microbatch in flight
// stashes, for the most the schedule holds at once (PipelineTimeline::peakInFlight). For
// GPipe's m microbatches against 1F1B's S − k this is the lesson of PipeDream-Flush: the same
// bubble, far less activation memory.
#include <vector>

#include "core/placement/pipeline_timeline.h"
#include "core/placement/plan.h"

namespace tandem::core::placement {

struct ScheduleMemory {
    bool known = false;  // false when the plan does not record the stash per microbatch
    std::vector<double> peakInFlight;  // per stage
    std::vector<double> bytes;         // per device of the stage, at its peak
    double capacityBytes = 0;
    int fullestStage = 0;  // the stage with the most bytes
    double fullestBytes() const { return bytes.empty() ? 0 : bytes[std::size_t(fullestStage)]; }
    bool fits() const { return fullestBytes() <= capacityBytes; }
};

// `timeline` must be built from `plan` (same stages).
ScheduleMemory scheduleMemory(const Plan& plan, const PipelineTimeline& timeline);

}  // namespace tandem::core::placement
