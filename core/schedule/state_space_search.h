#pragma once
// An exact search for one block, tried before the MILP because layer blocks are chain-like: it
// enumerates schedules by adding one (task, mode) at a time, each started at the earliest instant
// ≥ the previous start at which its predecessors have ended and its demand fits ("clamped" serial
// generation), and merges partial schedules by dominance, so that it behaves like dynamic
// programming over the DAG's order ideals.
//
// Why it is exact. (1) Completeness: take an optimal schedule that, among optimal ones with the
// same modes, minimises the sum of start times (it exists: the feasible set is closed and
// bounded); it is active. Listing its tasks by (start, index), clamped generation reproduces it:
// each task's start in it is feasible for the generator, and an earlier one would be a feasible
// left shift (in [t, s) only earlier-listed tasks run; in [s, t + p) the task itself was there).
// (2) Dominance: a state is (placed set S, last start τ, the placed tasks still running after τ
// with their ends and modes). State A dominates B when S_A = S_B, τ_A ≤ τ_B, and every task
// running in A after τ_B also runs in B at least as long with at least the same demand. Any
// completion of B, sorted by start and regenerated from A, places every task no later than in B
// (at its B start it meets only tasks that use no more than they did in B; tasks regenerated
// earlier only end earlier), so A's best completion is no worse and B can be dropped.
// (3) Bounds: a state whose lower bound (critical path from its running tasks, and per core kind
// τ plus the remaining and running work per unit) reaches the incumbent is dropped.
// The search has a budget of expanded states; if it runs out, nothing is claimed and the MILP
// takes over with the improved incumbent. Blocks of more than 64 tasks are left to the MILP.
#include <vector>

#include "core/common/run_control.h"
#include "core/schedule/list_scheduler.h"
#include "core/schedule/schedule_instance.h"

namespace tandem::core::schedule {

struct SearchOutcome {
    bool complete = false;  // the whole space was searched: `best` is optimal
    bool improved = false;  // `best` is better than the incumbent passed in
    bool stopped = false;   // cancelled or past the deadline
    BlockSchedule best;
    long long expansions = 0;
};

class StateSpaceSearch {
public:
    static constexpr int kMaxTasks = 64;

    StateSpaceSearch(const ScheduleInstance& instance, const BlockSchedule& incumbent)
        : instance_(instance), incumbent_(incumbent) {}

    SearchOutcome run(long long maxExpansions, const RunControl* control,
                      std::chrono::steady_clock::time_point deadline) const;

private:
    const ScheduleInstance& instance_;
    const BlockSchedule& incumbent_;
};

}  // namespace tandem::core::schedule
