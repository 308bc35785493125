#pragma once
// Gives every one-core task concrete lanes once start times are fixed, so the Gantt chart shows
// which core ran what. Per core kind, tasks are taken in order of start time and each gets the
// lowest-numbered lane that is free by then; this interval colouring uses exactly as many lanes
// as tasks overlap at the busiest instant, so it never needs more cores than the schedule was
// allowed. Parallel tasks get every TC and VC; collectives the link; Nops nothing. A zero-length
// task gets the lowest lane free at its start (lane 0 if none is: it holds it for no time).
#include <vector>

#include "core/common/expected.h"
#include "core/schedule/layer_schedule.h"
#include "core/schedule/schedule_problem.h"

namespace tandem::core::schedule {

class LaneAssigner {
public:
    // `tolerance` (seconds): an end this close before a start still frees the lane, matching the
    // validator. Fails (an internal error) only if the schedule over-uses a kind.
    static Status assign(const ScheduleProblem& problem, std::vector<ScheduledTask>& tasks,
                         double tolerance);
};

}  // namespace tandem::core::schedule
