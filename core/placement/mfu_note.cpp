#include "core/placement/mfu_note.h"

#include <cmath>

#include "core/common/units.h"

namespace tandem::core::placement {

namespace {

// Why a compute-bound plan's MFU (against the peak its GEMMs run at) is high.
std::string computeBoundReason(const Plan& plan) {
    const TimeBreakdown& b = plan.breakdown;
    const double work = (b.computeSeconds + b.recomputeSeconds) / plan.timePerBatchSeconds;
    return "this plan is compute-bound: its layers' work is " + formatFixed(100 * work, 1) +
           " % of the time per batch, and launch floors, collectives, the pipeline bubble and "
           "the synchronisation barely count beside GEMMs this long. A chip with little "
           "tensor-core peak gets there; it is slow, and throughput ranks it.";
}

}  // namespace

std::string highMfuNote(const Plan& plan) {
    if (!(plan.mfu > kHighMfu) || !(plan.timePerBatchSeconds > 0)) return {};
    const std::string mfu = "MFU " + formatFixed(100 * plan.mfu, 1) + " %";
    if (plan.gemmRateOverPeak > 1) {
        // fp8: the figure is against the fp16/bf16 peak, as published fp8 MFU figures are.
        const double ofGemmPeak = plan.mfu / plan.gemmRateOverPeak;
        std::string note =
            mfu +
            " is counted against the dense fp16/bf16 peak, as published fp8 MFU "
            "figures are, while this plan's GEMMs run in fp8 at " +
            formatFixed(plan.gemmRateOverPeak,
                        plan.gemmRateOverPeak == std::floor(plan.gemmRateOverPeak) ? 0 : 2) +
            "× that rate: " + formatFixed(100 * ofGemmPeak, 1) + " % of the fp8 peak.";
        if (ofGemmPeak > kHighMfu) note += " Even so, " + computeBoundReason(plan);
        return note;
    }
    return mfu + " is above the 46–58 % that published large-scale runs reach because " +
           computeBoundReason(plan);
}

}  // namespace tandem::core::placement
