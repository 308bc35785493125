#pragma once
// The upper-bound stage for one block: a portfolio of list schedules (several priority rules,
// deterministic random-key perturbations, forward–backward improvement) over a few mode
// assignments, followed by a first-improvement local search that flips one task's mode at a
// time. It stops as soon as a schedule meets the lower bound. The result is the fast path's
// answer when it meets the bound, the MILP's warm start otherwise, and the fallback whenever the
// MILP is cancelled or times out.
#include <chrono>
#include <vector>

#include "core/common/run_control.h"
#include "core/schedule/list_scheduler.h"
#include "core/schedule/lower_bounds.h"
#include "core/schedule/schedule_instance.h"

namespace tandem::core::schedule {

class HeuristicScheduler {
public:
    HeuristicScheduler(const ScheduleInstance& instance, double lowerBound);

    // `effort` ≥ 1 scales the number of perturbations and local-search passes; the local search
    // stops at the deadline or on cancellation (the portfolio before it is quick).
    BlockSchedule run(const RunControl* control, int effort,
                      std::chrono::steady_clock::time_point deadline) const;

    // The best schedule for fixed modes that the portfolio of priority rules finds.
    BlockSchedule evaluate(const std::vector<char>& parallel, int perturbations) const;

private:
    bool meetsBound(const BlockSchedule& s) const;
    // Repeats backward and forward passes while the makespan improves.
    BlockSchedule improve(BlockSchedule s) const;
    std::vector<double> tailKeys(const std::vector<char>& parallel) const;
    std::vector<double> headKeys(const std::vector<char>& parallel) const;

    const ScheduleInstance& instance_;
    ListScheduler lists_;
    double lowerBound_;
};

}  // namespace tandem::core::schedule
