#include "core/placement/model_placement.h"

#include <algorithm>

#include "core/placement/cost_model.h"
#include "core/placement/strategy_choice.h"
#include "core/placement/strategy_evaluation.h"

namespace tandem::core::placement {

namespace {

// The share of a layer schedule taken by the operators `counts` picks: their durations, at most
// the makespan.
template <typename Pick>
double shareOf(const std::vector<model::Operator>& ops, const schedule::LayerSchedule& s,
               Pick counts) {
    double total = 0;
    for (std::size_t i = 0; i < ops.size() && i < s.tasks.size(); ++i)
        if (counts(ops[i])) total += s.tasks[i].durationSeconds;
    return std::min(total, s.makespanSeconds);
}

// What rerunning the attention cores (the operators marked selectiveRecompute) adds to the
// backward pass: their device time, unless the host, issuing them and the backward in one
// stream, is the slower (model_schedule.h).
double selectiveRerunSeconds(const model::LayerGraph& graph,
                             const schedule::UniqueLayerSchedule& unique, double hostPerOperator) {
    const auto marked = [](const model::Operator& op) { return op.selectiveRecompute; };
    const double device = shareOf(graph.forward(), *unique.forward, marked);
    double issued = 0;
    for (const model::Operator& op : graph.forward())
        if (marked(op) && op.opClass != model::OpClass::Nop) ++issued;
    const double both = std::max(device + unique.backwardDeviceSeconds(),
                                 issued * hostPerOperator + unique.backwardHostSeconds);
    return std::max(0.0, both - unique.backwardSeconds());
}

bool isCollective(const model::Operator& op) {
    return op.opClass == model::OpClass::Collective;
}

// 3 × the whole model's forward GEMM FLOPs for one microbatch (sharded operators hold 1/t).
double trainingFlops(const model::ModelGraph& g) {
    const double t = double(g.options().tensorParallel);
    double forward = 0;
    for (const model::Layer& layer : g.layers())
        for (const model::Operator& op : layer.graph->forward())
            if (op.isGemm()) forward += op.gemm.flops() * (op.sharded ? t : 1.0);
    return 3.0 * forward;
}

}  // namespace

Expected<PlacementProblem> makePlacementProblem(const std::vector<WidthInput>& widths,
                                                const hardware::ClusterConfig& cluster,
                                                const hardware::TrainingConfig& training,
                                                const hardware::AcceleratorConfig& accelerator) {
    PlacementProblem problem;
    problem.fp8WeightCopies = accelerator.precision == hardware::Precision::Fp8;
    problem.peakFlopsPerSecond = accelerator.peakFlopsPerSecond();
    problem.gemmRateOverPeak = accelerator.gemmRateOverPeak();
    problem.memoryBandwidthBytesPerSecond = accelerator.achievableHbmBandwidth();
    problem.collectiveComputeShare = accelerator.collectiveComputeShare;
    problem.energyRates = energy::EnergyRates::of(accelerator, cluster);
    problem.cluster = cluster;
    problem.training = training;
    problem.hbmCapacityBytes = double(accelerator.hbmCapacityBytes);
    problem.bytesPerElement = accelerator.bytesPerElement;
    // Megatron accumulates and reduces bf16 training's gradients in fp32 unless told
    // --grad-reduce-in-bf16 (megatron/training/arguments.py: accumulate_allreduce_grads_in_fp32;
    // its distributed-optimizer guide: "bf16 parameters, fp32 gradients", 6 + 12/d bytes per
    // parameter). fp8 keeps bf16 weights and gradients. fp16 keeps fp16 gradients.
    const bool fp32Gradients = accelerator.precision != hardware::Precision::Fp16 &&
                               accelerator.bytesPerElement < 4 && !training.gradReduceInBf16;
    problem.gradientBytesPerElement = fp32Gradients ? 4 : accelerator.bytesPerElement;
    for (const WidthInput& w : widths) {
        if (!w.graph || !w.schedules) return Error{"placement input without graph or schedules"};
        const model::ModelGraph& g = *w.graph;
        LayerCostSet set;
        set.tensorParallel = g.options().tensorParallel;
        set.trainingFlopsPerMicrobatch = trainingFlops(g);
        std::vector<double> incoming(g.layers().size(), 0.0);
        for (const model::LayerEdge& e : g.edges()) {
            set.edges.push_back({e.from, e.to, double(e.bytes)});
            incoming[std::size_t(e.to)] += double(e.bytes);
        }
        for (std::size_t l = 0; l < g.layers().size(); ++l) {
            const model::Layer& layer = g.layers()[l];
            LayerCost cost;
            cost.name = layer.name;
            cost.forwardSeconds = w.schedules->forwardSeconds(l);
            cost.backwardSeconds = w.schedules->backwardSeconds(l);
            cost.parameterBytes =
                double(layer.graph->parameterBytes() + layer.graph->tiedParameterBytes());
            cost.tiedParameterBytes = double(layer.graph->tiedParameterBytes());
            cost.activationBytes = double(layer.graph->savedBytes());
            cost.activationBytesSelective = double(layer.graph->selectiveSavedBytes());
            cost.stashBytesRecompute = incoming[l];
            cost.tensorParallel = layer.tensorParallel && set.tensorParallel > 1;
            cost.checkpointed = layer.checkpointed;
            cost.recomputeSeconds = w.schedules->recomputeSeconds(l);
            const auto& unique = w.schedules->layer(l);
            const model::LayerGraph& graph = *unique.graph;
            cost.forwardCommSeconds = shareOf(graph.forward(), *unique.forward, isCollective);
            cost.backwardCommSeconds = shareOf(graph.backward(), *unique.backward, isCollective);
            cost.forwardHiddenCommSeconds = unique.forwardHiddenCommSeconds;
            cost.backwardHiddenCommSeconds = unique.backwardHiddenCommSeconds;
            cost.selectiveRecomputeSeconds =
                selectiveRerunSeconds(graph, unique, w.schedules->hostOverheadSeconds);
            cost.forwardWork = unique.forwardWork;
            cost.backwardWork = unique.backwardWork;
            cost.selectiveWork = unique.selectiveWork;
            set.layers.push_back(std::move(cost));
        }
        problem.widths.push_back(std::move(set));
    }
    if (auto status = problem.validate(); !status) return Error{status.message()};
    return problem;
}

std::optional<FixedStrategy> fixedStrategyOf(const model::ModelSource& model) {
    const model::ParallelStrategy fixed = model.baselineStrategy();
    if (!fixed.given()) return std::nullopt;
    return FixedStrategy{fixed.pipeline, fixed.tensor, fixed.data, model.transformerLayers(), {}};
}

std::int64_t trainedSequenceLength(const hardware::TrainingConfig& training,
                                   const model::ModelSource* model) {
    if (training.sequenceLength > 0) return training.sequenceLength;
    return model ? model->defaultSequenceLength() : 0;
}

hardware::HardwarePoint pricedHardware(const ModelPlacementRequest& request) {
    hardware::HardwarePoint priced = request.hardware;
    if (request.costModel == CostModelKind::PhazeCompat) {
        priced.accelerator = priced.accelerator.ideal();
        priced.cluster = priced.cluster.ideal();
    }
    return priced;
}

Expected<WidthInput> buildWidthInput(const ModelPlacementRequest& request, std::int64_t t,
                                     const estimate::OperatorEstimator& estimator,
                                     const schedule::LayerScheduler& scheduler,
                                     RunControl* control) {
    model::BuildOptions options;
    options.microbatch = request.training.microbatch;
    options.sequenceLength = request.training.sequenceLength;
    options.tensorParallel = t;
    options.bytesPerElement = estimator.accelerator().bytesPerElement;
    options.sequenceParallel = request.training.sequenceParallel == hardware::SequenceParallel::On;
    options.flashAttention = request.training.flashAttention;
    options.tpCommOverlap = request.training.tpCommOverlap;
    options.softmaxShapeRule = request.costModel != CostModelKind::PhazeCompat;
    auto graph = request.model->build(options);
    if (!graph) return Error{"t = " + std::to_string(t) + ": " + graph.message()};
    auto shared = std::make_shared<const model::ModelGraph>(std::move(graph).value());
    auto schedules = schedule::scheduleModel(*shared, estimator, scheduler, control);
    if (!schedules) return schedules.error();
    if (control && control->cancelled()) return Error{"cancelled"};
    return WidthInput{
        shared, std::make_shared<const schedule::ModelSchedule>(std::move(schedules).value())};
}

namespace {

// Replaces out's plan by the fastest Megatron-style strategy (strategy_choice.h) when that is
// faster than it, or when there is none; out.choice says what was chosen.
Status chooseAmongStrategies(const ModelPlacementRequest& request,
                             const std::optional<StrategySpec>& fixed, ModelPlacement& out,
                             RunControl* control) {
    const std::optional<Plan>& current = out.result.plan;
    auto chosen = chooseAgainst(out.problem, request.costModel, request.training,
                                request.model->transformerLayers(), fixed, current, control);
    if (!chosen) return Status(chosen.error());
    PlacementChoice choice;
    choice.interleaveChosen = request.training.interleave == hardware::kInterleaveChosen;
    choice.zeroChosen = request.training.zero == hardware::kZeroChosen;
    choice.plainSecondsPerBatch = current ? current->timePerBatchSeconds : 0;
    choice.strategiesPriced = chosen->strategiesPriced + chosen->strategiesBounded;
    if (chosen->found) {
        choice.strategy = chosen->strategy;
        out.problem.training.interleave = chosen->interleave;
        out.problem.training.zero = chosen->zero;
        out.result.plan = std::move(chosen->plan);
        out.result.infeasibleReason.clear();
    } else if (!current && out.result.infeasibleReason.empty()) {
        out.result.infeasibleReason = noStrategyFitsReason();
    }
    out.choice = choice;
    return Status::success();
}

// placeModel() with sequence parallelism given (off or on).
Expected<ModelPlacement> placeWithSequenceParallelism(const ModelPlacementRequest& request,
                                                      RunControl* control) {
    if (!request.model) return Error{"no model given"};
    if (Status status = supportsTraining(request.costModel, request.training); !status)
        return Error{status.message()};
    if (Status status =
            supportsPrecision(request.costModel, request.hardware.accelerator.precision);
        !status)
        return Error{status.message()};
    std::vector<std::int64_t> widths =
        request.widths.empty() ? request.model->tensorParallelWidths() : request.widths;
    std::sort(widths.begin(), widths.end());
    widths.erase(std::unique(widths.begin(), widths.end()), widths.end());
    if (widths.empty()) return Error{"model '" + request.model->name() + "' has no widths"};

    const hardware::HardwarePoint priced = pricedHardware(request);
    const hardware::AcceleratorConfig& acc = priced.accelerator;
    const hardware::ClusterConfig& cluster = priced.cluster;
    auto estimator = estimate::OperatorEstimator::create(acc, cluster);
    if (!estimator) return estimator.error();
    const schedule::LayerScheduler scheduler(request.scheduleOptions);
    auto buildWidth = [&](std::int64_t t) {
        return buildWidthInput(request, t, *estimator, scheduler, control);
    };

    ModelPlacement out;
    const std::optional<StrategySpec> strategy = fixedStrategyIn(request.training);
    if (strategy) {
        // A fixed strategy replaces the search: its one width, evaluated as given (V and the
        // ZeRO stage left to the placement: 1 and 0 here, the others tried below).
        out.fixedStrategy = strategy;
        ModelPlacementRequest given = request;
        given.training = givenOrPlain(request.training);
        auto evaluated = evaluateStrategy(given, *strategy, control);  // refuses before building
        if (!evaluated) return evaluated.error();
        out.widths.push_back(std::move(evaluated->width));
        out.problem = std::move(evaluated->problem);
        if (evaluated->result.fits)
            out.result.plan = std::move(evaluated->result.plan);
        else
            out.result.infeasibleReason = "the fixed strategy P,T,D = " + strategyText(*strategy) +
                                          " does not run: " + evaluated->result.reason;
    } else {
        for (std::int64_t t : widths) {
            auto width = buildWidth(t);
            if (!width) return width.error();
            out.widths.push_back(std::move(width).value());
        }
        // The solver prices V = 1 and ZeRO 0 only: it runs when those are given or left to
        // the placement (then givenOrPlain is what it prices).
        auto problem =
            makePlacementProblem(out.widths, cluster, givenOrPlain(request.training), acc);
        if (!problem) return problem.error();
        out.problem = std::move(problem).value();
        if (solverCanPrice(request.training)) {
            SolverOptions solverOptions;
            solverOptions.costModel = request.costModel;
            auto solved = PlacementSolver(solverOptions).solve(out.problem, control);
            if (!solved) return solved.error();
            out.result = std::move(solved).value();
        }
    }
    if (const auto fixed = fixedStrategyOf(*request.model)) {
        // The model's own strategy with the training's given V and ZeRO stage (plain where
        // they are left to the placement), on out.problem before a choice changes its V.
        out.baselineStrategy = *fixed;
        // The baseline runs on its own width even when the search was limited to others.
        const PlacementProblem* baselineProblem = &out.problem;
        PlacementProblem single;
        std::optional<std::string> unbuilt;
        if (!out.problem.width(fixed->tensorParallel)) {
            auto width = buildWidth(fixed->tensorParallel);
            if (width) {
                auto problem =
                    makePlacementProblem({*width}, cluster, givenOrPlain(request.training), acc);
                if (!problem) return problem.error();
                single = std::move(problem).value();
                baselineProblem = &single;
            } else {
                unbuilt = width.message();
            }
        }
        if (unbuilt) {
            out.baseline = FixedStrategyResult{false, *unbuilt, std::nullopt};
        } else {
            auto baseline =
                evaluateFixedStrategy(*baselineProblem, out.baselineStrategy, request.costModel);
            if (!baseline) return baseline.error();
            out.baseline = std::move(baseline).value();
        }
    }
    if (choosesInterleaveOrZero(request.training) || !solverCanPrice(request.training)) {
        if (Status status = chooseAmongStrategies(request, strategy, out, control); !status)
            return Error{status.message()};
    }
    return out;
}

}  // namespace

std::vector<hardware::SequenceParallel> sequenceParallelTrials(
    const hardware::TrainingConfig& training, CostModelKind costModel) {
    std::vector<hardware::SequenceParallel> trials;
    if (!training.tpCommOverlap) trials.push_back(hardware::SequenceParallel::Off);
    if (costModel != CostModelKind::PhazeCompat) trials.push_back(hardware::SequenceParallel::On);
    return trials;
}

Expected<ModelPlacement> placeModel(const ModelPlacementRequest& request, RunControl* control) {
    using hardware::SequenceParallel;
    if (request.training.sequenceParallel != SequenceParallel::Auto)
        return placeWithSequenceParallelism(request, control);
    // Left to the placement: the model placed without and with it, the faster plan kept (without
    // on ties).
    std::optional<ModelPlacement> best;
    for (const SequenceParallel sp : sequenceParallelTrials(request.training, request.costModel)) {
        ModelPlacementRequest each = request;
        each.training.sequenceParallel = sp;
        auto placed = placeWithSequenceParallelism(each, control);
        if (!placed) {
            // A model that cannot run it (not a decoder) keeps the plan without it.
            if (best && !(control && control->cancelled())) continue;
            return placed.error();
        }
        const bool faster =
            !best || (placed->result.plan &&
                      (!best->result.plan || placed->result.plan->timePerBatchSeconds <
                                                 best->result.plan->timePerBatchSeconds));
        if (faster) best = std::move(placed).value();
    }
    PlacementChoice choice = best->choice.value_or(PlacementChoice{});
    choice.sequenceParallelChosen = true;
    best->choice = choice;
    return std::move(best).value();
}

}  // namespace tandem::core::placement
