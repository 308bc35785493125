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
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/hardware/training_config.h"
#include "core/model/model_source.h"
#include "core/placement/cost_model_kind.h"
#include "core/schedule/schedule_options.h"
#include "core/search/explorer.h"
#include "core/search/search_baselines.h"
#include "core/search/search_results.h"
#include "core/search/search_space.h"

namespace tandem::core::search {

struct SearchRequest {
    std::vector<model::ModelSourcePtr> models;  // one, or several for a multi-model search
    SearchSpace space = SearchSpace::phaze();
    hardware::TrainingConfig training;  // global batch, sequence length, optimizer
    ExplorerKind explorer = ExplorerKind::Exhaustive;
    int threads = 0;  // ≤ 0: all cores
    placement::CostModelKind costModel = placement::CostModelKind::Native;
    schedule::ScheduleOptions scheduleOptions;
};

struct ModelSearchReport {
    std::string name;
    std::vector<std::string> layerNames;
    SearchBaselines baselines;
    double normaliserSamplesPerSecond = 0;  // multi-model: the reference-chip throughput used
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
    std::vector<ModelSearchReport> models;  // request order
    SearchTimings timings;
    std::int64_t chips = 0;
};

// Errors: no model, an invalid space, an explorer kind outside the enum, a model that cannot be
// evaluated, a multi-model search where some model fits on the reference chip at no option (it
// cannot be normalised).
Expected<SearchOutcome> runSearch(const SearchRequest& request, RunControl* control = nullptr,
                                  const PointCallback& onPoint = {});

}  // namespace tandem::core::search
