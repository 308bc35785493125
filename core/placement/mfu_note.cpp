#include "core/placement/mfu_note.h"

#include "core/common/units.h"

namespace tandem::core::placement {

std::string highMfuNote(const Plan& plan) {
    if (!(plan.mfu > kHighMfu) || !(plan.timePerBatchSeconds > 0)) return {};
    const TimeBreakdown& b = plan.breakdown;
    const double work = (b.computeSeconds + b.recomputeSeconds) / plan.timePerBatchSeconds;
    return "MFU " + formatFixed(100 * plan.mfu, 1) +
           " % is above the 46–58 % that published large-scale runs reach because this plan is "
           "compute-bound: its layers' work is " +
           formatFixed(100 * work, 1) +
           " % of the time per batch, and launch floors, collectives, the pipeline bubble and the "
           "synchronisation barely count beside GEMMs this long. A chip with little tensor-core "
           "peak gets there; it is slow, and throughput ranks it.";
}

}  // namespace tandem::core::placement
