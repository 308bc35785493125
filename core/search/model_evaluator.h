#pragma once
// The real point evaluator of a single-model search (ARCHITECTURE.md §2.9): one SearchPoint →
// the model's graphs at the point's microbatch size → estimate and schedule every unique layer,
// forward and backward, for each tensor-parallel width t → place (PlacementSolver) → the fixed
// baseline (evaluateFixedStrategy) → EvaluatedPoint. It is placeModel() (placement/
// model_placement.h) split along what a search reuses, and returns bit for bit the same plan:
//  - graphs depend only on (mbs, t, bytes per element): all are built once, in create();
//  - schedules and the assembled PlacementProblem depend on (chip, mbs, t) but not on HBM or
//    recompute: they are kept per (chip index, mbs) in a small LRU (chip_schedule_cache.h);
//  - the estimate cache and the layer-schedule cache are shared by every chip and thread.
// Stored plans drop Plan::devices (one entry per cluster device, ~12 KB at 1,024 devices, which
// would dominate a 700,000-point result); placement::assignDevices() rebuilds it for the few
// plans a caller shows. Phases: `estimate` and `schedule` are the time this point spent filling
// its (chip, mbs) entry (0 on a hit), `placement` the solve plus the baseline. Graph building
// happens once, in create(), and is reported by statistics(). V and the ZeRO stage left to the
// placement (kInterleaveChosen, kZeroChosen), or given values the solver cannot price, are
// chosen per point by placement::chooseStrategy() exactly as placeModel() chooses them;
// sequence parallelism left to it (auto) is chosen per point too: a second evaluator prices the
// point with it and the faster plan is kept (sequence_parallel_choice.h). The
// fixed baseline is one more
// candidate: a point's plan is the solver's optimum unless the fixed strategy is faster (only
// possible when its width is not a search width), so a point is never slower than its own
// baseline. Thread-safe.
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/estimate/estimate_cache.h"
#include "core/hardware/training_config.h"
#include "core/model/model_source.h"
#include "core/placement/cost_model_kind.h"
#include "core/placement/fixed_strategy.h"
#include "core/schedule/layer_scheduler.h"
#include "core/schedule/schedule_cache.h"
#include "core/schedule/schedule_options.h"
#include "core/search/chip_schedule_cache.h"
#include "core/search/point_evaluator.h"
#include "core/search/search_objective.h"
#include "core/search/search_space.h"
#include "core/search/throughput_bound.h"

namespace tandem::core::search {

struct ModelEvaluatorOptions {
    placement::CostModelKind costModel = placement::CostModelKind::Native;
    schedule::ScheduleOptions scheduleOptions;
    std::size_t chipCacheEntries = 16;  // (chip, mbs) entries kept; ≥ 2 per worker thread
    std::shared_ptr<estimate::EstimateCache> estimateCache;  // null: a private one
    std::shared_ptr<schedule::ScheduleCache> scheduleCache;  // null: ScheduleCache::shared()
    // false: plan and baselinePlan stay null (status, throughput, objective, the baseline's
    // throughput, schedules and seconds are kept). A GPT-3 point's two plans take ~5 KB, i.e. ~3.4
    // GiB over the 704,640 points of the phaze space when every point is kept; such runs
    // re-evaluate the few points they show (a warm point costs a few ms).
    bool keepPlans = true;
    // What `objective` holds (search_objective.h); the plan is the fastest whatever it is.
    SearchObjective objective = SearchObjective::Throughput;
};

struct ModelEvaluatorStatistics {
    double graphSeconds = 0;               // building every (mbs, t) graph in create()
    std::int64_t evaluations = 0;          // evaluate() calls that returned an answer
    std::int64_t chipEntriesComputed = 0;  // (chip, mbs) entries built (cache misses)
    std::int64_t chipEntriesReused = 0;    // cache hits
    std::int64_t widthSchedules = 0;       // scheduleModel() runs, one per (chip, mbs, t)
};

class ModelEvaluator final : public PointEvaluator {
public:
    // `training` supplies the global batch, sequence length (0 = the model's), optimizer, V,
    // ZeRO stage, sequence parallelism and overlaps; each point sets the microbatch size and
    // recompute. The widths are space.widthsFor(model);
    // the cluster is space.base.cluster. Errors: no model, empty microbatch or width lists, a
    // global batch < 1, invalid schedule options. A width the model cannot be built at is not an
    // error here: the points of that microbatch size come back with status Error.
    static Expected<std::unique_ptr<ModelEvaluator>> create(model::ModelSourcePtr model,
                                                            const SearchSpace& space,
                                                            hardware::TrainingConfig training,
                                                            ModelEvaluatorOptions options = {});

    EvaluatedPoint evaluate(const SearchPoint& point, RunControl* control) const override;
    // As evaluate(), keeping (or not) the plans whatever the options say: a search that keeps
    // no plans re-evaluates the few points it shows with keepPlans = true (a warm point costs
    // milliseconds: its schedules are cached).
    EvaluatedPoint evaluate(const SearchPoint& point, RunControl* control, bool keepPlans) const;
    // max over t of ThroughputBound::throughputUpperBound; +∞ for a microbatch size the space
    // does not list or a width that did not build (evaluate() then reports the error).
    double upperBound(const SearchPoint& point) const override;

    const model::ModelSourcePtr& model() const { return model_; }
    const std::vector<std::int64_t>& widths() const { return widths_; }
    const hardware::TrainingConfig& training() const { return training_; }
    ModelEvaluatorStatistics statistics() const;
    // The model's layer names (the same at every width), for naming a plan's stages.
    std::vector<std::string> layerNames() const;

private:
    struct WidthGraph {
        std::int64_t t = 1;
        std::shared_ptr<const model::ModelGraph> graph;  // null when the build failed
        std::string error;
        std::shared_ptr<const ThroughputBound> bound;  // search widths only
    };
    struct MicrobatchGraphs {
        std::vector<WidthGraph> widths;      // search widths ascending
        std::optional<WidthGraph> baseline;  // the baseline's width when not a search width
        std::string error;                   // first search width that failed to build
    };

    ModelEvaluator() = default;
    std::shared_ptr<const ChipSchedules> computeChip(const SearchPoint& point,
                                                     const MicrobatchGraphs& graphs,
                                                     RunControl* control) const;
    // evaluate() with the training's sequence parallelism as this evaluator holds it.
    // `mustBeatSeconds`: the time the caller already has (the plan without sequence
    // parallelism); strategies that cannot beat it are not priced, so the point's plan is only
    // the best one when it is faster than that.
    EvaluatedPoint evaluateAsGiven(
        const SearchPoint& point, RunControl* control, bool keepPlans,
        double mustBeatSeconds = std::numeric_limits<double>::infinity()) const;
    void fillPlacement(EvaluatedPoint& out, const ChipSchedules& chip, const SearchPoint& point,
                       RunControl* control, bool keepPlans, double mustBeatSeconds) const;

    model::ModelSourcePtr model_;
    hardware::ClusterConfig cluster_;
    hardware::TrainingConfig training_;
    std::vector<std::int64_t> widths_;
    std::int64_t baseHbmCapacityBytes_ = 0;
    ModelEvaluatorOptions options_;
    placement::FixedStrategy baselineStrategy_;
    bool hasBaseline_ = false;
    std::map<std::int64_t, MicrobatchGraphs> graphs_;  // by microbatch size; read-only after create
    double graphSeconds_ = 0;
    std::shared_ptr<schedule::LayerScheduler> scheduler_;
    std::unique_ptr<ChipScheduleCache> chips_;
    std::unique_ptr<ModelEvaluator> withSequenceParallel_;  // sequence parallelism auto
    mutable std::atomic<std::int64_t> evaluations_{0}, computed_{0}, reused_{0}, widthSchedules_{0};
};

}  // namespace tandem::core::search
