#pragma once
// The answer of the per-layer scheduler (ARCHITECTURE.md §2.4): for every operator of
// one layer direction its start, duration, execution mode and the lanes it holds, plus the
// makespan, the best proven lower bound and how the solver got there. Immutable once made and
// shared as shared_ptr<const LayerSchedule> (the scheduler's cache hands the same object to every
// identical layer). tasks[i] belongs to ScheduleProblem::tasks[i]: names, classes and FLOPs are
// read from the problem, so structurally identical layers with different names share one result.
#include <string>
#include <string_view>
#include <vector>

#include "core/schedule/lane.h"

namespace tandem::core::schedule {

enum class TaskMode {
    None,             // a Nop: holds nothing, lasts 0 s
    OneCore,          // one core of its class (Fused: one TC and one VC; Collective: the link)
    IntraOpParallel,  // all cores of its class, and nothing else computes meanwhile
};

enum class ScheduleStatus {
    Optimal,    // makespan proven minimal (to the solver tolerance, 1e-7 relative)
    Feasible,   // stopped at the requested relative gap; `gap` says how far from the bound
    TimedOut,   // the time limit ran out; the best schedule found and its gap
    Cancelled,  // RunControl asked to stop; a valid (possibly heuristic) schedule and its gap
};

// Which stage closed the problem (for Optimal) or was running when it stopped.
enum class ProofStage {
    Bounds,  // a lower bound met a list-scheduling heuristic in every series block
    Search,  // some block needed the exact state-space search, none the MILP
    Milp,    // at least one series block needed the CBC model
    None,    // not proven (Feasible, TimedOut, Cancelled)
};

std::string_view toString(TaskMode mode);
std::string_view toString(ScheduleStatus status);
std::string_view toString(ProofStage stage);

struct ScheduledTask {
    double startSeconds = 0;
    double durationSeconds = 0;
    TaskMode mode = TaskMode::None;
    std::vector<LaneRange> lanes;  // empty for Nops
    double endSeconds() const { return startSeconds + durationSeconds; }
};

struct SolveStats {
    double heuristicMakespanSeconds = 0;  // best list-scheduling result before any MILP
    double boundSeconds = 0;              // best combinatorial lower bound before any MILP
    int seriesBlocks = 0;            // independent pieces the DAG splits into (each solved alone)
    int blocksByBounds = 0;          // of which closed by bound == heuristic
    int blocksBySearch = 0;          // of which closed by the exact state-space search
    int blocksByMilp = 0;            // of which handed to CBC
    long long searchExpansions = 0;  // states expanded by the state-space search
    int milpSolves = 0;       // CBC runs (the reference formulation re-solves for lazy cores)
    long long milpNodes = 0;  // branch-and-bound nodes over all runs
    double milpSeconds = 0;   // wall time inside CBC
    double totalSeconds = 0;  // wall time of the whole solve (the original one on cache hits)
    ProofStage provedBy = ProofStage::None;
    std::string note;  // solver remarks (e.g. a rejected warm start); empty normally
};

struct LayerSchedule {
    std::vector<ScheduledTask> tasks;  // index-aligned with ScheduleProblem::tasks
    int numTensorCores = 1;
    int numVectorCores = 1;
    double makespanSeconds = 0;
    double lowerBoundSeconds = 0;  // ≤ makespan; equal when Optimal
    ScheduleStatus status = ScheduleStatus::Optimal;
    double gap = 0;  // (makespan − lowerBound) / makespan, 0 when Optimal
    SolveStats stats;
};

}  // namespace tandem::core::schedule
