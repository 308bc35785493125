#include "core/schedule/layer_schedule.h"

namespace tandem::core::schedule {

std::string_view toString(TaskMode mode) {
    switch (mode) {
        case TaskMode::None:
            return "none";
        case TaskMode::OneCore:
            return "one-core";
        case TaskMode::IntraOpParallel:
            return "intra-op-parallel";
    }
    return "?";
}

std::string_view toString(ScheduleStatus status) {
    switch (status) {
        case ScheduleStatus::Optimal:
            return "optimal";
        case ScheduleStatus::Feasible:
            return "feasible";
        case ScheduleStatus::TimedOut:
            return "timed-out";
        case ScheduleStatus::Cancelled:
            return "cancelled";
    }
    return "?";
}

std::string_view toString(ProofStage stage) {
    switch (stage) {
        case ProofStage::Bounds:
            return "bounds";
        case ProofStage::Search:
            return "search";
        case ProofStage::Milp:
            return "milp";
        case ProofStage::None:
            return "none";
    }
    return "?";
}

}  // namespace tandem::core::schedule
