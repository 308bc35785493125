#include "core/placement/pipeline_memory.h"

namespace tandem::core::placement {

ScheduleMemory scheduleMemory(const Plan& plan, const PipelineTimeline& timeline) {
    ScheduleMemory out;
    const auto S = std::min(plan.stages.size(), std::size_t(timeline.stageCount()));
    out.known = S > 0;
    for (std::size_t k = 0; k < S; ++k) {
        const StagePlan& stage = plan.stages[k];
        const MemoryBreakdown& m = stage.memory;
        if (m.stashBytesPerMicrobatch < 0) out.known = false;
        const double peak = timeline.peakInFlight(int(k));
        out.peakInFlight.push_back(peak);
        out.bytes.push_back(m.totalBytes + (peak - double(stage.inFlightMicrobatches)) *
                                               std::max(0.0, m.stashBytesPerMicrobatch));
        if (out.bytes.back() > out.bytes[std::size_t(out.fullestStage)]) out.fullestStage = int(k);
        out.capacityBytes = m.capacityBytes;
    }
    return out;
}

}  // namespace tandem::core::placement
