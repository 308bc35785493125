#pragma once
// Checks a LayerSchedule against its ScheduleProblem and the semantics of layer_scheduler.h:
// every task's mode is allowed for its class and its duration matches the mode; its lanes are
// exactly what the mode holds (one TC; one VC; one TC and one VC for Fused; the link for a
// collective; every TC and VC in parallel mode; nothing for a Nop) and exist on the chip;
// precedence holds; no lane runs two tasks at once; a parallel task overlaps no other compute
// task; the makespan is the latest end; the bound, gap and status agree. Used by every test and
// by the app before it draws a schedule. Times are compared with a tolerance relative to the
// makespan, because start times of later series blocks are offset sums.
#include "core/common/expected.h"
#include "core/schedule/layer_schedule.h"
#include "core/schedule/schedule_problem.h"

namespace tandem::core::schedule {

class ScheduleValidator {
public:
    explicit ScheduleValidator(double relativeTolerance = 1e-9)
        : relativeTolerance_(relativeTolerance) {}

    // Success, or the first violation found, naming the task(s), times and lanes involved.
    Status validate(const ScheduleProblem& problem, const LayerSchedule& schedule) const;

private:
    Status checkTask(const ScheduleProblem& problem, const LayerSchedule& schedule, int i,
                     double tolerance) const;
    double relativeTolerance_;
};

}  // namespace tandem::core::schedule
