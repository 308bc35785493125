#pragma once
// Turns a MILP answer into an exact schedule. CBC's start times satisfy the constraints only to
// its tolerances, so they are not reported; instead every task starts at the latest end of its
// predecessors and of the tasks the MILP ordered before it (a longest-path pass), which gives
// start times that are exact sums of durations and a makespan no larger than the MILP's. If that
// schedule is cyclic or over-uses a resource (only possible through rounding of the binaries), a
// list schedule in the order of the solver's start times, with the solver's modes, is used
// instead; the better valid one wins.
#include <utility>
#include <vector>

#include "core/schedule/list_scheduler.h"
#include "core/schedule/schedule_instance.h"

namespace tandem::core::schedule {

class ScheduleRebuilder {
public:
    explicit ScheduleRebuilder(const ScheduleInstance& instance) : instance_(instance) {}

    BlockSchedule rebuild(const std::vector<char>& parallel,
                          const std::vector<std::pair<int, int>>& before,
                          const std::vector<double>& solverStarts) const;

    // Earliest starts over precedence plus the `before` arcs; `acyclic` tells whether all tasks
    // could be placed (rounded binaries can in principle close a cycle).
    BlockSchedule earliest(const std::vector<char>& parallel,
                           const std::vector<std::pair<int, int>>& before, bool& acyclic) const;

    // The most TCs, VCs and link users busy at one instant (a parallel task counts every core).
    Demand peakUsage(const BlockSchedule& schedule) const;
    // No kind over-used: this also means parallel tasks run alone among compute tasks.
    bool resourceFeasible(const BlockSchedule& schedule) const;

private:
    const ScheduleInstance& instance_;
};

}  // namespace tandem::core::schedule
