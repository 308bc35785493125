#pragma once
// The exact device-placement solver (ARCHITECTURE.md §2.5): over every tensor-parallel width
// t of the problem, every data-parallel degree d ≤ min(D, N) and every partition of the layer
// DAG into contiguous pipeline stages that fit in HBM within ⌊D/d⌋ devices per pipeline, it
// finds the minimum time per batch under the chosen cost model and returns the plan. Stage costs
// are computed once per width (StageCandidates) and shared by all d; chain-like graphs use
// position ranges, other DAGs the downsets of the layer graph (PartitionDp explains the DP).
// Widths are tried in ascending t and a later one wins only when strictly faster (PHAZE's tie
// rule). "No feasible plan" is a normal result with a reason; errors are bad input, a graph
// beyond the configured limits, or cancellation through RunControl (polled between DP nodes).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/placement/cost_model_kind.h"
#include "core/placement/placement_problem.h"
#include "core/placement/plan.h"
#include "core/placement/stage_candidate_cache.h"

namespace tandem::core::placement {

struct SolverOptions {
    CostModelKind costModel = CostModelKind::Native;
    std::int64_t maxDownsets = 1000000;  // states of the DAG path
    // Candidate stages per width: about 110 B each, so at most ~220 MB per placement (a search
    // runs one per thread). A 10,000-layer GPT-2 XL needs between 1 and 2 million; a chain of 2,000
    // tiny layers that all fit in one stage reaches the limit.
    std::int64_t maxStageCandidates = 2000000;
    std::int64_t maxDpStates = 20000000;  // DP table entries per table
    bool forceDownsets = false;           // use the DAG path even on chain-like graphs
    // Native: skip a width whose time-per-batch lower bound (timePerBatchLowerBound) is above
    // the time to beat (the best plan of the widths before it, or mustBeatSeconds), and keep no
    // partition whose Lmax alone rules that out (NativeSelector). Exact: neither can win.
    bool pruneByBound = true;
    // Chain candidates shared with problems that differ from this one only in recomputation
    // (stage_candidate_cache.h states the contract); null prices every width afresh.
    StageCandidateCache* candidateCache = nullptr;
    // Native: only a plan strictly faster than this is wanted (a search's time to beat). The
    // solver returns no plan when nothing is faster (infeasibleReason says so); a plan it
    // returns is the one it returns without the limit. With pruneByBound, what cannot be faster
    // is skipped unpriced.
    double mustBeatSeconds = std::numeric_limits<double>::infinity();
};

struct SolverStatistics {
    bool chainFastPath = false;
    std::int64_t downsets = 0;         // DP nodes of one width
    std::int64_t stageCandidates = 0;  // over all widths
    std::int64_t dpStates = 0;         // over all tables
    int dpTables = 0;
    int widthsPruned = 0;     // widths skipped by their lower bound (SolverOptions::pruneByBound)
    int candidateReuses = 0;  // widths whose candidates came from SolverOptions::candidateCache
    double seconds = 0;
};

struct PlacementResult {
    std::optional<Plan> plan;      // empty when nothing fits
    std::string infeasibleReason;  // set when plan is empty
    SolverStatistics statistics;
};

class PlacementSolver {
public:
    explicit PlacementSolver(SolverOptions options = {}) : options_(options) {}

    Expected<PlacementResult> solve(const PlacementProblem& problem,
                                    RunControl* control = nullptr) const;

    const SolverOptions& options() const { return options_; }

private:
    SolverOptions options_;
};

}  // namespace tandem::core::placement
