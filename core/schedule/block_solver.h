#pragma once
// Solves one block by stages, fastest first: lower bounds, list-scheduling heuristics (stop if
// they meet), the exact state-space search within its budget, then a MILP (the compact fast
// formulation warm-started from the best schedule so far, or PHAZE's reference formulation),
// whose answer is rebuilt into an exact schedule.
// When the MILP is cancelled, runs out of time or fails, the best valid schedule found so far is
// returned with the best proven bound.
#include <chrono>
#include <string>

#include "core/common/run_control.h"
#include "core/schedule/layer_schedule.h"
#include "core/schedule/list_scheduler.h"
#include "core/schedule/schedule_instance.h"
#include "core/schedule/schedule_options.h"

namespace tandem::core::schedule {

struct BlockResult {
    BlockSchedule schedule;
    double lowerBound = 0;
    ScheduleStatus status = ScheduleStatus::Optimal;
    bool byBounds = false;  // closed by bound == heuristic
    bool bySearch = false;  // closed by the state-space search
    bool usedMilp = false;
    long long searchExpansions = 0;
    double heuristicMakespan = 0;
    double combinatorialBound = 0;
    int milpSolves = 0;
    long long milpNodes = 0;
    double milpSeconds = 0;
    std::string note;
};

class BlockSolver {
public:
    static constexpr int kMaxFastMilpTasks = 400;
    static constexpr int kMaxReferenceTasks = 120;

    BlockSolver(const ScheduleInstance& instance, const ScheduleOptions& options,
                std::chrono::steady_clock::time_point deadline, const RunControl* control)
        : instance_(instance), options_(options), deadline_(deadline), control_(control) {}

    // `allowMilp` is false once an earlier block was cancelled or ran out of time.
    BlockResult solve(bool allowMilp) const;

private:
    bool stopRequested() const;
    const ScheduleInstance& instance_;
    const ScheduleOptions& options_;
    std::chrono::steady_clock::time_point deadline_;
    const RunControl* control_;
};

}  // namespace tandem::core::schedule
