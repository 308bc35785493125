#include "core/search/evaluated_point.h"

#include <algorithm>

namespace tandem::core::search {

std::string_view toString(PointStatus status) {
    switch (status) {
        case PointStatus::Feasible:
            return "feasible";
        case PointStatus::Infeasible:
            return "infeasible";
        case PointStatus::Error:
            return "error";
        case PointStatus::Cancelled:
            return "cancelled";
    }
    return "unknown";
}

void addEvaluationCosts(EvaluatedPoint& into, const EvaluatedPoint& other) {
    ScheduleSummary& s = into.schedules;
    const ScheduleSummary& o = other.schedules;
    s.schedules += o.schedules;
    s.optimal += o.optimal;
    s.feasible += o.feasible;
    s.timedOut += o.timedOut;
    s.cancelled += o.cancelled;
    s.maxGap = std::max(s.maxGap, o.maxGap);
    into.seconds.estimate += other.seconds.estimate;
    into.seconds.schedule += other.seconds.schedule;
    into.seconds.placement += other.seconds.placement;
    into.seconds.total += other.seconds.total;
}

}  // namespace tandem::core::search
