#include "core/search/sequence_parallel_choice.h"

#include <algorithm>
#include <utility>

namespace tandem::core::search {

EvaluatedPoint fasterOfSequenceParallel(EvaluatedPoint without, EvaluatedPoint with) {
    if (without.status == PointStatus::Cancelled) return without;
    if (with.status == PointStatus::Cancelled) return with;
    const bool withWins =
        with.feasible() &&
        (!without.feasible() ||
         with.planShape.timePerBatchSeconds < without.planShape.timePerBatchSeconds);
    EvaluatedPoint out = withWins ? std::move(with) : std::move(without);
    const EvaluatedPoint& other = withWins ? without : with;
    out.seconds.estimate += other.seconds.estimate;
    out.seconds.schedule += other.seconds.schedule;
    out.seconds.placement += other.seconds.placement;
    out.seconds.total += other.seconds.total;
    ScheduleSummary& s = out.schedules;
    const ScheduleSummary& o = other.schedules;
    s.schedules += o.schedules;
    s.optimal += o.optimal;
    s.feasible += o.feasible;
    s.timedOut += o.timedOut;
    s.cancelled += o.cancelled;
    s.maxGap = std::max(s.maxGap, o.maxGap);
    return out;
}

}  // namespace tandem::core::search
