#include "core/search/model_evaluator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "core/energy/energy_rates.h"
#include "core/estimate/operator_estimator.h"
#include "core/placement/cost_model.h"
#include "core/placement/model_placement.h"
#include "core/placement/placement_solver.h"
#include "core/placement/strategy_choice.h"
#include "core/placement/strategy_spec.h"
#include "core/schedule/model_schedule.h"
#include "core/search/sequence_parallel_choice.h"

namespace tandem::core::search {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

bool cancelled(const RunControl* control) {
    return control && control->cancelled();
}

void addToSummary(ScheduleSummary& summary, const schedule::LayerSchedule& s) {
    ++summary.schedules;
    switch (s.status) {
        case schedule::ScheduleStatus::Optimal:
            ++summary.optimal;
            break;
        case schedule::ScheduleStatus::Feasible:
            ++summary.feasible;
            break;
        case schedule::ScheduleStatus::TimedOut:
            ++summary.timedOut;
            break;
        case schedule::ScheduleStatus::Cancelled:
            ++summary.cancelled;
            break;
    }
    summary.maxGap = std::max(summary.maxGap, s.gap);
}

}  // namespace

Expected<std::unique_ptr<ModelEvaluator>> ModelEvaluator::create(model::ModelSourcePtr model,
                                                                 const SearchSpace& space,
                                                                 hardware::TrainingConfig training,
                                                                 ModelEvaluatorOptions options) {
    if (!model) return Error{"model evaluator: no model given"};
    if (training.globalBatch < 1)
        return Error{"training.globalBatch = " + std::to_string(training.globalBatch) +
                     " is out of range: must be ≥ 1"};
    if (auto status = options.scheduleOptions.validate(); !status)
        return Error{"schedule options: " + status.message()};
    std::vector<std::int64_t> mbs = space.microbatchSizes;
    std::sort(mbs.begin(), mbs.end());
    mbs.erase(std::unique(mbs.begin(), mbs.end()), mbs.end());
    if (mbs.empty()) return Error{"search space '" + space.name + "': microbatchSizes is empty"};
    if (mbs.front() < 1)
        return Error{"search space '" + space.name + "': microbatch size " +
                     std::to_string(mbs.front()) + " is out of range: must be ≥ 1"};
    std::vector<std::int64_t> widths = space.widthsFor(*model);
    std::sort(widths.begin(), widths.end());
    widths.erase(std::unique(widths.begin(), widths.end()), widths.end());
    if (widths.empty()) return Error{"model '" + model->name() + "' has no widths"};
    if (widths.front() < 1)
        return Error{"tensor-parallel width " + std::to_string(widths.front()) +
                     " is out of range: must be ≥ 1"};

    for (hardware::Recompute r : space.recompute) {
        hardware::TrainingConfig each = training;
        each.recompute = r;
        if (Status status = placement::supportsTraining(options.costModel, each); !status)
            return Error{status.message()};
    }
    if (Status status =
            placement::supportsPrecision(options.costModel, space.base.accelerator.precision);
        !status)
        return Error{status.message()};
    if (placement::fixedStrategyIn(training))
        return Error{
            "a search chooses the strategy of every point: set the training fields "
            "strategyPipeline, strategyTensor and strategyData to 0 (a fixed strategy "
            "P,T,D is evaluated for the current point only)"};
    // Sequence parallelism left to the search: this evaluator prices the points with the first
    // of placeModel()'s trials and, when there are two, a second one with the other.
    using hardware::SequenceParallel;
    bool bothWays = false;
    if (training.sequenceParallel == SequenceParallel::Auto) {
        const auto trials = placement::sequenceParallelTrials(training, options.costModel);
        bothWays = trials.size() == 2;
        training.sequenceParallel = trials.empty() ? SequenceParallel::Off : trials.front();
    }

    std::unique_ptr<ModelEvaluator> ev(new ModelEvaluator());
    ev->model_ = model;
    // phaze-compat prices chips as PHAZE does: ideal rates whatever the description says.
    const bool phaze = options.costModel == placement::CostModelKind::PhazeCompat;
    ev->cluster_ = phaze ? space.base.cluster.ideal() : space.base.cluster;
    ev->training_ = training;
    ev->widths_ = widths;
    ev->baseHbmCapacityBytes_ = space.base.accelerator.hbmCapacityBytes;
    ev->options_ = options;
    if (!ev->options_.estimateCache)
        ev->options_.estimateCache = std::make_shared<estimate::EstimateCache>();
    ev->scheduler_ = std::make_shared<schedule::LayerScheduler>(
        options.scheduleOptions,
        options.scheduleCache ? options.scheduleCache : schedule::ScheduleCache::shared());
    ev->chips_ = std::make_unique<ChipScheduleCache>(options.chipCacheEntries);
    const auto fixed = placement::fixedStrategyOf(*model);
    ev->hasBaseline_ = fixed.has_value();
    if (fixed) ev->baselineStrategy_ = *fixed;

    const auto start = Clock::now();
    auto build = [&](std::int64_t microbatch, std::int64_t t, bool bounded) {
        WidthGraph w;
        w.t = t;
        model::BuildOptions build;
        build.microbatch = microbatch;
        build.sequenceLength = training.sequenceLength;
        build.tensorParallel = t;
        build.bytesPerElement = space.base.accelerator.bytesPerElement;
        build.sequenceParallel = training.sequenceParallel == hardware::SequenceParallel::On;
        build.flashAttention = training.flashAttention;
        build.tpCommOverlap = training.tpCommOverlap;
        build.softmaxShapeRule = !phaze;
        auto graph = model->build(build);
        if (!graph) {
            w.error = "t = " + std::to_string(t) + ": " + graph.message();  // placeModel's text
            return w;
        }
        w.graph = std::make_shared<const model::ModelGraph>(std::move(graph).value());
        if (bounded) w.bound = std::make_shared<const ThroughputBound>(*w.graph, ev->cluster_);
        return w;
    };
    for (std::int64_t m : mbs) {
        MicrobatchGraphs& g = ev->graphs_[m];
        for (std::int64_t t : widths) {
            g.widths.push_back(build(m, t, true));
            if (g.error.empty()) g.error = g.widths.back().error;
        }
        if (ev->hasBaseline_ &&
            !std::binary_search(widths.begin(), widths.end(), fixed->tensorParallel))
            g.baseline = build(m, fixed->tensorParallel, false);
    }
    ev->graphSeconds_ = secondsSince(start);
    // The partner skips t = 1, where sequence parallelism splits nothing: its plans there are
    // this evaluator's, which wins ties.
    SearchSpace wider = space;
    wider.tensorParallelWidths.clear();
    for (std::int64_t t : widths)
        if (t > 1) wider.tensorParallelWidths.push_back(t);
    if (bothWays && !wider.tensorParallelWidths.empty()) {
        hardware::TrainingConfig with = training;
        with.sequenceParallel = SequenceParallel::On;
        // A model that cannot run it (not a decoder) is searched without it, as placeModel()
        // keeps the plan without it.
        if (auto partner = create(model, wider, with, ev->options_); partner)
            ev->withSequenceParallel_ = std::move(*partner);
    }
    return ev;
}

std::shared_ptr<const ChipSchedules> ModelEvaluator::computeChip(const SearchPoint& point,
                                                                 const MicrobatchGraphs& graphs,
                                                                 RunControl* control) const {
    auto entry = std::make_shared<ChipSchedules>();
    entry->accelerator = options_.costModel == placement::CostModelKind::PhazeCompat
                             ? point.accelerator.ideal()
                             : point.accelerator;
    entry->accelerator.hbmCapacityBytes = baseHbmCapacityBytes_;
    entry->microbatchSize = point.microbatchSize;
    if (!graphs.error.empty()) {
        entry->error = graphs.error;
        return entry;
    }
    if (Status status =
            placement::supportsPrecision(options_.costModel, point.accelerator.precision);
        !status) {
        entry->error = status.message();
        return entry;
    }
    auto estimator =
        estimate::OperatorEstimator::create(entry->accelerator, cluster_, options_.estimateCache);
    if (!estimator) {
        entry->error = estimator.message();
        return entry;
    }
    auto scheduleWidth = [&](const WidthGraph& w) -> Expected<placement::WidthInput> {
        // Estimating first (into the shared cache) lets the phases be timed apart; the
        // scheduler's own estimates are then cache hits.
        auto start = Clock::now();
        for (const auto& unique : w.graph->uniqueGraphs()) {
            estimator->estimateAll(unique->forward());
            estimator->estimateAll(unique->backward());
        }
        entry->estimateSeconds += secondsSince(start);
        start = Clock::now();
        RunControl inner(RunControl::SilentChildOf{control});
        auto schedules = schedule::scheduleModel(*w.graph, *estimator, *scheduler_, &inner);
        entry->scheduleSeconds += secondsSince(start);
        ++widthSchedules_;
        if (!schedules) return schedules.error();
        if (cancelled(control)) return Error{"cancelled"};
        for (const auto& u : schedules->unique) {
            addToSummary(entry->summary, *u.forward);
            addToSummary(entry->summary, *u.backward);
        }
        return placement::WidthInput{
            w.graph, std::make_shared<const schedule::ModelSchedule>(std::move(schedules).value())};
    };

    // The solver prices V = 1 and ZeRO 0 where they are left to the placement (fillPlacement
    // chooses them afterwards).
    hardware::TrainingConfig training = placement::givenOrPlain(training_);
    training.microbatch = point.microbatchSize;
    for (const WidthGraph& w : graphs.widths) {
        auto width = scheduleWidth(w);
        if (cancelled(control)) return nullptr;
        if (!width) {
            entry->error = width.message();
            return entry;
        }
        entry->widths.push_back(std::move(width).value());
    }
    auto problem =
        placement::makePlacementProblem(entry->widths, cluster_, training, entry->accelerator);
    if (!problem) {
        entry->error = problem.message();
        return entry;
    }
    entry->problem = std::move(problem).value();
    if (graphs.baseline) {
        const WidthGraph& w = *graphs.baseline;
        if (!w.graph) {
            entry->baselineError = w.error;
        } else {
            auto width = scheduleWidth(w);
            if (cancelled(control)) return nullptr;
            if (!width) {
                entry->baselineError = width.message();
            } else {
                auto single = placement::makePlacementProblem({*width}, cluster_, training,
                                                              entry->accelerator);
                if (!single) {
                    entry->error = single.message();
                    return entry;
                }
                entry->baselineProblem = std::move(single).value();
            }
        }
    }
    return entry;
}

EvaluatedPoint ModelEvaluator::evaluate(const SearchPoint& point, RunControl* control) const {
    return evaluate(point, control, options_.keepPlans);
}

EvaluatedPoint ModelEvaluator::evaluate(const SearchPoint& point, RunControl* control,
                                        bool keepPlans) const {
    EvaluatedPoint out = evaluateAsGiven(point, control, keepPlans);
    if (!withSequenceParallel_ || out.status == PointStatus::Cancelled) return out;
    // With sequence parallelism only a strictly faster plan replaces this one: the partner
    // skips the strategies that cannot be (the choice is the same as pricing them all).
    const double mustBeat = out.feasible() ? out.planShape.timePerBatchSeconds
                                           : std::numeric_limits<double>::infinity();
    return fasterOfSequenceParallel(std::move(out), withSequenceParallel_->evaluateAsGiven(
                                                        point, control, keepPlans, mustBeat));
}

EvaluatedPoint ModelEvaluator::evaluateAsGiven(const SearchPoint& point, RunControl* control,
                                               bool keepPlans, double mustBeatSeconds) const {
    const auto start = Clock::now();
    EvaluatedPoint out;
    out.point = point;
    auto finish = [&](EvaluatedPoint& result) -> EvaluatedPoint {
        result.seconds.total = secondsSince(start);
        if (result.status != PointStatus::Cancelled) ++evaluations_;
        return std::move(result);
    };
    if (cancelled(control)) {
        out.status = PointStatus::Cancelled;
        return finish(out);
    }
    auto graphs = graphs_.find(point.microbatchSize);
    if (graphs == graphs_.end()) {
        out.status = PointStatus::Error;
        out.message = "microbatch size " + std::to_string(point.microbatchSize) +
                      " is not one of the search space's microbatch sizes";
        return finish(out);
    }
    if (training_.globalBatch % point.microbatchSize != 0) {
        // Not a configuration Megatron runs (nor one whose last microbatch Tandem would price
        // at its own size): a valid answer, like a plan that does not fit.
        out.status = PointStatus::Infeasible;
        out.message = "the global batch of " + std::to_string(training_.globalBatch) +
                      " samples does not split into microbatches of " +
                      std::to_string(point.microbatchSize);
        return finish(out);
    }
    hardware::AcceleratorConfig normalised = point.accelerator;
    normalised.hbmCapacityBytes = baseHbmCapacityBytes_;
    bool computed = false;
    auto compute = [&] { return computeChip(point, graphs->second, control); };
    auto chip = chips_->getOrCompute({point.chipIndex, point.microbatchSize}, compute, computed);
    if (chip && !(chip->accelerator == normalised)) {
        // A caller's chip index that does not match the chip seen before: compute uncached.
        chip = compute();
        computed = true;
    }
    if (!chip) {
        out.status = PointStatus::Cancelled;
        return finish(out);
    }
    ++(computed ? computed_ : reused_);
    if (computed) {
        out.seconds.estimate = chip->estimateSeconds;
        out.seconds.schedule = chip->scheduleSeconds;
    }
    out.schedules = chip->summary;
    if (!chip->error.empty()) {
        out.status = PointStatus::Error;
        out.message = chip->error;
        return finish(out);
    }
    const auto placeStart = Clock::now();
    fillPlacement(out, *chip, point, control, keepPlans, mustBeatSeconds);
    out.seconds.placement = secondsSince(placeStart);
    return finish(out);
}

std::vector<std::string> ModelEvaluator::layerNames() const {
    std::vector<std::string> names;
    for (const auto& [mbs, graphs] : graphs_)
        for (const WidthGraph& w : graphs.widths)
            if (w.graph) {
                for (const model::Layer& layer : w.graph->layers()) names.push_back(layer.name);
                return names;
            }
    return names;
}

double ModelEvaluator::upperBound(const SearchPoint& point) const {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    auto graphs = graphs_.find(point.microbatchSize);
    if (graphs == graphs_.end()) return kInf;
    double best = 0;
    for (const WidthGraph& w : graphs->second.widths) {
        if (!w.bound) return kInf;
        const double b = w.bound->throughputUpperBound(point.accelerator, cluster_.devices,
                                                       training_.globalBatch, point.microbatchSize);
        if (!(b >= 0)) return kInf;  // NaN from a chip the estimator would reject
        best = std::max(best, b);
    }
    // The bound is globalBatch·D/(N·W) for D devices in use (throughput_bound.h), so the
    // throughput per device in use is at most best / D whatever D the plan uses; and a device in
    // use draws at least its static power, so samples per joule are at most that over it.
    if (options_.objective != SearchObjective::Throughput && std::isfinite(best)) {
        best /= double(cluster_.devices);
        if (options_.objective == SearchObjective::ThroughputPerWatt) {
            const double staticWatts =
                energy::EnergyRates::of(point.accelerator, cluster_).staticWattsPerDevice;
            best = staticWatts > 0 ? best / staticWatts : kInf;
        }
    }
    return withSequenceParallel_ ? std::max(best, withSequenceParallel_->upperBound(point)) : best;
}

ModelEvaluatorStatistics ModelEvaluator::statistics() const {
    ModelEvaluatorStatistics s;
    s.graphSeconds = graphSeconds_;
    s.evaluations = evaluations_.load();
    s.chipEntriesComputed = computed_.load();
    s.chipEntriesReused = reused_.load();
    s.widthSchedules = widthSchedules_.load();
    if (withSequenceParallel_) {  // its evaluations are this one's points, counted once
        const ModelEvaluatorStatistics w = withSequenceParallel_->statistics();
        s.graphSeconds += w.graphSeconds;
        s.chipEntriesComputed += w.chipEntriesComputed;
        s.chipEntriesReused += w.chipEntriesReused;
        s.widthSchedules += w.widthSchedules;
    }
    return s;
}

}  // namespace tandem::core::search
