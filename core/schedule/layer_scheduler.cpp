#include "core/schedule/layer_scheduler.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/schedule/block_solver.h"
#include "core/schedule/lane_assigner.h"
#include "core/schedule/problem_analysis.h"
#include "core/schedule/schedule_instance.h"
#include "core/schedule/schedule_validator.h"

namespace tandem::core::schedule {

namespace {

using Clock = std::chrono::steady_clock;

// Tolerance (relative to the makespan) for lanes and validation: starts in later series blocks
// are offset sums and may differ from the exact end of an earlier task by an ulp.
constexpr double kTimeTolerance = 1e-9;

int severity(ScheduleStatus s) {
    switch (s) {
        case ScheduleStatus::Optimal:
            return 0;
        case ScheduleStatus::Feasible:
            return 1;
        case ScheduleStatus::TimedOut:
            return 2;
        case ScheduleStatus::Cancelled:
            return 3;
    }
    return 3;
}

Expected<std::shared_ptr<const LayerSchedule>> compute(const ScheduleProblem& problem,
                                                       const ProblemAnalysis& analysis,
                                                       const ScheduleOptions& options,
                                                       const RunControl* control) {
    const auto started = Clock::now();
    const auto deadline = started + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(options.timeLimitSeconds));
    const int n = static_cast<int>(problem.tasks.size());
    auto out = std::make_shared<LayerSchedule>();
    out->numTensorCores = problem.numTensorCores;
    out->numVectorCores = problem.numVectorCores;
    out->tasks.resize(n);
    SolveStats& stats = out->stats;

    if (problem.serial) {
        // One operator at a time, in topological order: the schedule is fixed and optimal.
        double clock = 0;
        for (int i : analysis.topologicalOrder()) {
            ScheduledTask& task = out->tasks[i];
            task.startSeconds = clock;
            if (problem.tasks[i].opClass == model::OpClass::Nop) {
                task.mode = TaskMode::None;
                continue;
            }
            const bool parallel = analysis.canParallel(i);
            task.mode = parallel ? TaskMode::IntraOpParallel : TaskMode::OneCore;
            task.durationSeconds =
                parallel ? problem.tasks[i].allCoresSeconds : problem.tasks[i].oneCoreSeconds;
            clock += task.durationSeconds;
        }
        out->makespanSeconds = clock;
        out->lowerBoundSeconds = clock;
        stats.seriesBlocks = 1;
        stats.heuristicMakespanSeconds = clock;
        stats.boundSeconds = clock;
        stats.blocksByBounds = 1;
        stats.provedBy = ProofStage::Bounds;
        stats.note = "serial operator execution";
        if (Status st = LaneAssigner::assign(problem, out->tasks, kTimeTolerance * clock); !st)
            return Error{st.message()};
        if (Status st = ScheduleValidator(kTimeTolerance).validate(problem, *out); !st)
            return Error{"internal: the serial schedule is invalid: " + st.message()};
        stats.totalSeconds = std::chrono::duration<double>(Clock::now() - started).count();
        return std::shared_ptr<const LayerSchedule>(std::move(out));
    }
    std::vector<std::vector<int>> blocks = analysis.blocks();
    if (options.formulation == Formulation::Reference && blocks.size() > 1) {
        // PHAZE solves the whole layer as one ILP.
        std::vector<int> all;
        for (const auto& block : blocks) all.insert(all.end(), block.begin(), block.end());
        blocks = {all};
    }
    stats.seriesBlocks = static_cast<int>(blocks.size());
    ScheduleStatus status = ScheduleStatus::Optimal;
    double offset = 0, lowerBound = 0;
    bool allowMilp = true;
    std::vector<std::string> notes;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const ScheduleInstance instance(problem, analysis, blocks[b]);
        const BlockResult r = BlockSolver(instance, options, deadline, control).solve(allowMilp);
        for (int i = 0; i < instance.size(); ++i) {
            const bool parallel = r.schedule.parallel[i] != 0;
            ScheduledTask& task = out->tasks[instance.task(i).task];
            task.startSeconds = offset + r.schedule.start[i];
            task.durationSeconds = instance.duration(i, parallel);
            task.mode = parallel ? TaskMode::IntraOpParallel : TaskMode::OneCore;
        }
        offset += r.schedule.makespan;
        lowerBound += r.lowerBound;
        stats.heuristicMakespanSeconds += r.heuristicMakespan;
        stats.boundSeconds += r.combinatorialBound;
        stats.blocksByBounds += r.byBounds ? 1 : 0;
        stats.blocksBySearch += r.bySearch ? 1 : 0;
        stats.searchExpansions += r.searchExpansions;
        stats.blocksByMilp += r.usedMilp ? 1 : 0;
        stats.milpSolves += r.milpSolves;
        stats.milpNodes += r.milpNodes;
        stats.milpSeconds += r.milpSeconds;
        if (!r.note.empty()) notes.push_back("block " + std::to_string(b) + ": " + r.note);
        if (severity(r.status) > severity(status)) status = r.status;
        // After a stop, the remaining blocks get bounds and heuristics only.
        if (r.status == ScheduleStatus::Cancelled || r.status == ScheduleStatus::TimedOut)
            allowMilp = false;
        if (control) control->report(double(b + 1), double(blocks.size()), "scheduling layer");
    }
    // Zero-length tasks start when their last predecessor ends (topological order makes
    // predecessors ready first).
    for (int i : analysis.topologicalOrder()) {
        if (!analysis.zeroLength(i)) continue;
        ScheduledTask& task = out->tasks[i];
        task.startSeconds = 0;
        for (int p : problem.tasks[i].predecessors)
            task.startSeconds = std::max(task.startSeconds, out->tasks[p].endSeconds());
        const model::OpClass c = problem.tasks[i].opClass;
        task.mode = c == model::OpClass::Nop  ? TaskMode::None
                    : analysis.canParallel(i) ? TaskMode::IntraOpParallel
                                              : TaskMode::OneCore;
        task.durationSeconds = 0;
    }
    double makespan = 0;
    for (const ScheduledTask& t : out->tasks) makespan = std::max(makespan, t.endSeconds());
    out->makespanSeconds = makespan;
    out->status = status;
    out->lowerBoundSeconds =
        status == ScheduleStatus::Optimal ? makespan : std::min(lowerBound, makespan);
    out->gap = makespan > 0 ? (makespan - out->lowerBoundSeconds) / makespan : 0.0;
    stats.provedBy = status != ScheduleStatus::Optimal ? ProofStage::None
                     : stats.blocksByMilp > 0          ? ProofStage::Milp
                     : stats.blocksBySearch > 0        ? ProofStage::Search
                                                       : ProofStage::Bounds;
    for (const std::string& note : notes) stats.note += (stats.note.empty() ? "" : "; ") + note;

    if (Status s = LaneAssigner::assign(problem, out->tasks, kTimeTolerance * makespan); !s)
        return Error{s.message()};
    if (Status s = ScheduleValidator(kTimeTolerance).validate(problem, *out); !s)
        return Error{"internal: the scheduler produced an invalid " + s.message()};
    stats.totalSeconds = std::chrono::duration<double>(Clock::now() - started).count();
    return std::shared_ptr<const LayerSchedule>(std::move(out));
}

}  // namespace

LayerScheduler::LayerScheduler(ScheduleOptions options, std::shared_ptr<ScheduleCache> cache)
    : options_(options), cache_(std::move(cache)) {}

Expected<std::shared_ptr<const LayerSchedule>> LayerScheduler::solve(
    const ScheduleProblem& problem, const RunControl* control) const {
    if (Status s = options_.validate(); !s) return Error{s.message()};
    Expected<ProblemAnalysis> analysis = ProblemAnalysis::analyse(problem);
    if (!analysis) return analysis.error();
    const auto run = [&] { return compute(problem, *analysis, options_, control); };
    if (!options_.useCache || !cache_) return run();
    return cache_->getOrCompute(ScheduleCache::key(problem, options_), run, control);
}

}  // namespace tandem::core::schedule
