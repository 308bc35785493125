#pragma once
// LayerScheduler finds a minimum-makespan schedule of one layer's forward or backward operator
// DAG on one chip (ARCHITECTURE.md §2.4), proven optimal in the normal case, and says
// which lanes every operator holds so the UI can draw a Gantt chart. Semantics, exactly:
//  - Resources: numTensorCores TCs, numVectorCores VCs and one network link.
//  - A TensorCore task either holds 1 TC for oneCoreSeconds (one-core mode) or runs
//    intra-operator parallel for allCoresSeconds, holding ALL TCs and ALL VCs: nothing else
//    computes on the chip meanwhile. A VectorCore task likewise with one VC. A Fused task holds
//    one TC and one VC at once (any TC, any VC), or everything in parallel mode.
//  - A Collective holds the link for oneCoreSeconds (allCoresSeconds is ignored: no parallel
//    mode) and may overlap any computation, including a parallel task.
//  - A Nop lasts 0 s and holds nothing; it only passes precedence on. It appears in the output
//    (mode None) starting when its last predecessor ends. Any other task whose chosen mode lasts
//    0 s is treated the same way but keeps its mode and lanes.
//  - Every task may take whichever mode gives the smallest makespan; a task starts only after
//    all its predecessors have ended; at no instant are more cores (or links) busy than exist.
// Method (Formulation::Fast): the DAG is cut into series blocks (solved independently, makespans
// add up); per block, lower bounds, then list-scheduling heuristics, stopping when they meet;
// else an exact dominance-pruned state-space search (state_space_search.h) within a budget;
// else a compact CBC model warm-started from the best schedule. Formulation::Reference runs
// PHAZE's ILP on the whole layer instead (the oracle and benchmark baseline). Either way the
// reported start times are exact sums of durations, rebuilt from the solver's modes and orders.
// Results are cached (ScheduleCache) and solve() is safe to call from several threads at once;
// it stops within 200 ms of RunControl::cancel() and returns the best valid schedule so far.
#include <memory>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/schedule/layer_schedule.h"
#include "core/schedule/schedule_cache.h"
#include "core/schedule/schedule_options.h"
#include "core/schedule/schedule_problem.h"

namespace tandem::core::schedule {

class LayerScheduler {
public:
    explicit LayerScheduler(ScheduleOptions options = {},
                            std::shared_ptr<ScheduleCache> cache = ScheduleCache::shared());

    // An error (naming the field, value and allowed range) for invalid options or problems;
    // otherwise a schedule whose status says whether it is optimal.
    Expected<std::shared_ptr<const LayerSchedule>> solve(const ScheduleProblem& problem,
                                                         const RunControl* control = nullptr) const;

    const ScheduleOptions& options() const { return options_; }
    const std::shared_ptr<ScheduleCache>& cache() const { return cache_; }

private:
    ScheduleOptions options_;
    std::shared_ptr<ScheduleCache> cache_;
};

}  // namespace tandem::core::schedule
