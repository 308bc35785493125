#include "core/schedule/block_solver.h"

#include <algorithm>

#include "core/schedule/fast_formulation.h"
#include "core/schedule/heuristic_scheduler.h"
#include "core/schedule/lower_bounds.h"
#include "core/schedule/reference_formulation.h"
#include "core/schedule/schedule_rebuilder.h"
#include "core/schedule/state_space_search.h"

namespace tandem::core::schedule {

namespace {
// A makespan within this relative distance of a proven bound counts as optimal: the MILP is
// solved in scaled time with CBC's tolerances of about 1e-9…1e-7.
constexpr double kProofTolerance = 1e-7;
constexpr double kMeetTolerance = 1e-12;
}  // namespace

bool BlockSolver::stopRequested() const {
    return (control_ && control_->cancelled()) || std::chrono::steady_clock::now() >= deadline_;
}

BlockResult BlockSolver::solve(bool allowMilp) const {
    BlockResult result;
    const BoundSet bounds = LowerBounds::compute(instance_);
    const double bound = bounds.best();
    result.combinatorialBound = bound;
    const bool reference = options_.formulation == Formulation::Reference;
    result.schedule =
        HeuristicScheduler(instance_, bound).run(control_, reference ? 1 : 2, deadline_);
    result.heuristicMakespan = result.schedule.makespan;
    const double makespan = result.schedule.makespan;
    result.lowerBound = std::min(bound, makespan);

    const auto stoppedStatus = [&] {
        return control_ && control_->cancelled() ? ScheduleStatus::Cancelled
                                                 : ScheduleStatus::TimedOut;
    };
    // The reference formulation is the baseline: it always runs its ILP, as PHAZE did.
    if (!reference) {
        if (makespan <= bound * (1 + kMeetTolerance)) {
            result.lowerBound = makespan;
            result.byBounds = true;
            return result;
        }
        if (makespan - bound <= options_.relativeGap * makespan) {
            result.status = ScheduleStatus::Feasible;
            return result;
        }
    }
    if (!allowMilp || stopRequested()) {
        result.status = stoppedStatus();
        if (reference) result.lowerBound = 0;
        return result;
    }
    if (!reference && options_.searchExpansionLimit > 0) {
        const SearchOutcome search = StateSpaceSearch(instance_, result.schedule)
                                         .run(options_.searchExpansionLimit, control_, deadline_);
        result.searchExpansions = search.expansions;
        result.schedule = search.best;
        if (search.complete) {
            result.lowerBound = result.schedule.makespan;
            result.bySearch = true;
            return result;
        }
        if (search.stopped) {
            result.status = stoppedStatus();
            return result;
        }
    }

    // Beyond these sizes the models alone (O(n²) pairs; O(n³) transitivity rows) would exhaust
    // memory and time; such blocks keep the best schedule found with its gap.
    const int milpLimit = reference ? kMaxReferenceTasks : kMaxFastMilpTasks;
    if (instance_.size() > milpLimit) {
        result.status = ScheduleStatus::Feasible;
        if (reference) result.lowerBound = 0;
        result.note = "a block of " + std::to_string(instance_.size()) +
                      " tasks exceeds the MILP limit of " + std::to_string(milpLimit);
        return result;
    }
    result.usedMilp = true;
    MilpSettings settings;
    settings.deadline = deadline_;
    settings.relativeGap = options_.relativeGap;
    settings.threads = options_.cbcThreads;
    settings.nodeLimit = options_.milpNodeLimit;
    settings.control = control_;
    const MilpAnswer answer =
        reference ? ReferenceFormulation(instance_).solve(settings)
                  : FastFormulation(instance_, bounds, result.schedule).solve(settings);
    result.milpSolves = answer.solves;
    result.milpNodes = answer.nodes;
    result.milpSeconds = answer.milpSeconds;
    result.note = answer.run.note;
    if (answer.hasSolution) {
        const BlockSchedule rebuilt = ScheduleRebuilder(instance_).rebuild(
            answer.parallel, answer.before, answer.startSeconds);
        if (rebuilt.makespan < result.schedule.makespan) result.schedule = rebuilt;
    }
    const double best = result.schedule.makespan;
    const double milpBound = answer.run.bound * answer.secondsPerUnit;
    // The reference formulation is an oracle: it claims only what its own ILP proves.
    result.lowerBound = std::min(best, std::max(reference ? 0.0 : bound, milpBound));
    switch (answer.run.outcome) {
        case MilpRun::Outcome::Solved:
            if (best - result.lowerBound <= kProofTolerance * best) {
                result.lowerBound = best;
                result.status = ScheduleStatus::Optimal;
            } else {
                result.status = ScheduleStatus::Feasible;
            }
            break;
        case MilpRun::Outcome::Stopped:
            result.status = stoppedStatus();
            break;
        case MilpRun::Outcome::NodeLimit:  // a work limit, not time: the schedule has its gap
            result.status = ScheduleStatus::Feasible;
            break;
        case MilpRun::Outcome::Cancelled:
            result.status = ScheduleStatus::Cancelled;
            break;
        case MilpRun::Outcome::Failed:
            result.status = ScheduleStatus::Feasible;
            result.lowerBound = std::min(best, reference ? 0.0 : bound);
            break;
    }
    return result;
}

}  // namespace tandem::core::schedule
