#pragma once
// A whole architecture search as `tandem-cli search` and the GUI run it, so both share one piece
// of code: build the grid and one ModelEvaluator per model (plans not kept: 704,640 GPT-3
// points would need ~3.4 GiB), evaluate the reference chip on its own one-chip grid (the
// reference baselines, and the normalisers of a multi-model search), run the explorer over the
// space, then re-evaluate the few points a report shows — the Pareto front and the best point —
// with their full plans, and derive the four baselines. The explorer polls `control`; a cancel
// keeps the points that finished (none, when it came before the search began) and still reports
// on them, baselines and plans included. The reference chip's few points always run.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/hardware/training_config.h"
#include "core/model/model_source.h"
#include "core/placement/cost_model_kind.h"
#include "core/schedule/schedule_options.h"
#include "core/search/chunk_queue.h"
#include "core/search/explorer.h"
#include "core/search/progress_meter.h"
#include "core/search/search_baselines.h"
#include "core/search/search_grid.h"
#include "core/search/search_objective.h"
#include "core/search/search_results.h"
#include "core/search/search_space.h"
#include "core/search/thread_pool.h"

namespace tandem::core::search {

struct SearchRequest {
    std::vector<model::ModelSourcePtr> models;  // one, or several for a multi-model search
    SearchSpace space = SearchSpace::phaze();
    hardware::TrainingConfig training;  // global batch, sequence length, optimizer
    ExplorerKind explorer = ExplorerKind::Exhaustive;
    int threads = 0;  // ≤ 0: all cores
    placement::CostModelKind costModel = placement::CostModelKind::Native;
    schedule::ScheduleOptions scheduleOptions;
    SearchObjective objective = SearchObjective::Throughput;  // what the points are ranked by
};

struct ModelSearchReport {
    std::string name;
    std::vector<std::string> layerNames;
    SearchBaselines baselines;
    // Multi-model: the reference chip's objective each point's objective is divided by.
    double normaliser = 0;
    // Full plans by position in results->points(): the Pareto points (by area) and the best.
    std::map<std::size_t, std::shared_ptr<const placement::Plan>> plans;
};

// Wall time of each stage of the run and the evaluators' per-phase sums, seconds.
struct SearchTimings {
    double graphs = 0;     // building every model at every (mbs, t)
    double reference = 0;  // the reference chip's grid
    double search = 0;     // the explorer, wall time
    double reports = 0;    // re-evaluating the shown points with plans, baselines
    double total = 0;
    // Sums over the searched points (CPU time across threads, not wall time).
    double estimateCpu = 0;
    double scheduleCpu = 0;
    double placementCpu = 0;
};

struct SearchOutcome {
    std::shared_ptr<const SearchResults> results;
    SearchObjective objective = SearchObjective::Throughput;  // what results ranks by
    std::vector<ModelSearchReport> models;                    // request order
    SearchTimings timings;
    std::int64_t chips = 0;
};

// Errors: no model, an invalid space, a space whose points need more memory than this machine
// has available (search_footprint.h; checked before any work), an explorer kind outside the
// enum, a model that cannot be evaluated, a multi-model search where some model fits on the
// reference chip at no option (it cannot be normalised).
Expected<SearchOutcome> runSearch(const SearchRequest& request, RunControl* control = nullptr,
                                  const PointCallback& onPoint = {});

class ModelEvaluator;
class MultiModelEvaluator;

// runSearch's three stages, for a search split between processes or runs (ARCHITECTURE.md §4.6):
// prepare() builds the grid, the evaluators and the reference chip's results (every process of a
// split search does this itself; it is deterministic), explore() evaluates all or part of the
// grid, and report() derives plans and baselines from the points of every part. A shard, a
// resumed checkpoint and the ranks of an MPI run each explore a part; whoever holds all points
// calls report(). The evaluations are pure functions of the point, so any split gives the same
// outcome as runSearch, bit for bit, apart from timings.
class SearchRun {
public:
    // `grid`: the request's space already enumerated (a caller that sized the run first, with
    // search_footprint.h); enumerated here when not given.
    static Expected<std::unique_ptr<SearchRun>> prepare(const SearchRequest& request,
                                                        std::optional<SearchGrid> grid = {});
    ~SearchRun();

    const SearchRequest& request() const { return request_; }
    const SearchGrid& grid() const { return *grid_; }
    int threads() const;

    // The request's explorer over the whole grid when `work` is null; otherwise the exhaustive
    // walk over the chunks `work` hands out, with `done` (points finished earlier) added
    // (ExhaustiveExplorer::exploreQueue). May be called once.
    SearchResults explore(RunControl* control = nullptr, const PointCallback& onPoint = {},
                          ChunkQueue* work = nullptr, std::vector<EvaluatedPoint> done = {},
                          ProgressMeter* progress = nullptr);
    // Full plans for the points a report shows (the Pareto front and the best) and the
    // baselines, over `results`; not cancellable (milliseconds per point).
    SearchOutcome report(std::shared_ptr<const SearchResults> results);
    // Evaluates the points of `results` at `positions` again (on the pool, plans not kept) and
    // returns, for each whose stored answer differs, its position and storedPointDifference
    // (ascending) — how merge refuses an edited shard. Not cancellable.
    std::vector<std::pair<std::size_t, std::string>> rederive(
        const SearchResults& results, const std::vector<std::size_t>& positions);

private:
    SearchRun() = default;

    SearchRequest request_;
    std::unique_ptr<SearchGrid> grid_;
    std::unique_ptr<ThreadPool> pool_;
    std::vector<std::unique_ptr<ModelEvaluator>> evaluators_;
    std::unique_ptr<MultiModelEvaluator> multi_;
    std::vector<std::shared_ptr<const SearchResults>> refResults_;
    std::vector<ModelSearchReport> models_;
    SearchTimings timings_;
    double prepareSeconds_ = 0;
};

}  // namespace tandem::core::search
