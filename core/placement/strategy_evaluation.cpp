#include "core/placement/strategy_evaluation.h"

#include "core/placement/cost_model.h"

namespace tandem::core::placement {

namespace {

// What can be refused before any graph is built.
Status checkStrategy(const ModelPlacementRequest& request, const StrategySpec& strategy) {
    if (!request.model) return Error{"no model given"};
    const std::int64_t P = strategy.pipeline, T = strategy.tensor, D = strategy.data;
    if (P < 1 || T < 1 || D < 1)
        return Error{"strategy P,T,D = " + strategyText(strategy) +
                     ": each must be an integer >= 1"};
    if (Status status = supportsTraining(request.costModel, request.training); !status)
        return status;
    if (Status status =
            supportsPrecision(request.costModel, request.hardware.accelerator.precision);
        !status)
        return status;
    if (request.training.sequenceParallel == hardware::SequenceParallel::Auto ||
        request.training.interleave == hardware::kInterleaveChosen ||
        request.training.zero == hardware::kZeroChosen)
        return Error{
            "one strategy is evaluated with its sequence parallelism, V and ZeRO stage "
            "given; placeModel() chooses those left to it (auto)"};
    // Before building: only the pipeline rule can fail with these layers and microbatches.
    const std::int64_t V = request.training.interleave;
    if (std::string problem = interleavingProblem(P, V, P * V, P); !problem.empty())
        return Error{problem};
    const std::int64_t devices = pricedHardware(request).cluster.devices;
    if (P * T > devices || P * T * D > devices)
        return Error{"strategy P·T·D = " + std::to_string(P) + "·" + std::to_string(T) + "·" +
                     std::to_string(D) + " = " + std::to_string(P * T * D) +
                     " devices, but the cluster has " + std::to_string(devices) +
                     "; lower P, T or D, or raise --devices"};
    return Status::success();
}

}  // namespace

std::string unevenStagesProblem(std::int64_t P, std::int64_t V, std::int64_t L,
                                CostModelKind costModel, const std::string& what) {
    const bool phaze = costModel == CostModelKind::PhazeCompat;
    // fixed_strategy.h (balanced): ⌊L/P⌋ or ⌈L/P⌉ layers per stage, none empty while P ≤ L.
    const bool balanced = !phaze && V <= 1;
    if (L % P == 0 || (balanced && P <= L)) return {};
    const std::string layers = std::to_string(L) + " " + what;
    if (balanced)
        return "strategy P = " + std::to_string(P) + " stages for the model's " + layers + ": " +
               std::to_string(P - L) + " would hold none; choose P ≤ " + std::to_string(L);
    return "strategy P = " + std::to_string(P) + " does not divide the model's " + layers +
           (phaze ? ": PHAZE's stages hold equal numbers of layers"
                  : ": interleaving needs stages of equal layer counts") +
           "; choose a divisor of " + std::to_string(L) + (phaze ? "" : " or --interleave 1");
}

bool canInterleave(std::int64_t P, std::int64_t V, std::int64_t L, std::int64_t perPipeline) {
    return V <= 1 || (P >= 2 && L % (P * V) == 0 && perPipeline % P == 0);
}

std::string interleavingProblem(std::int64_t P, std::int64_t V, std::int64_t L,
                                std::int64_t perPipeline) {
    if (canInterleave(P, V, L, perPipeline)) return {};
    if (P < 2)
        return "--interleave " + std::to_string(V) +
               " needs a pipeline: with P = 1 there are no stages to interleave; use P >= 2 or "
               "--interleave 1";
    if (L % (P * V) != 0)
        return "--interleave " + std::to_string(V) + ": each of the P = " + std::to_string(P) +
               " stages holds " + std::to_string(L / P) + " layers, which do not split into " +
               std::to_string(V) + " equal model chunks" +
               (V > L / P ? " (V is larger than the layers per stage)" : "") +
               "; choose V dividing " + std::to_string(L / P);
    if (perPipeline % P != 0)
        return "--interleave " + std::to_string(V) + ": interleaved 1F1B needs the " +
               std::to_string(perPipeline) +
               " microbatches per pipeline to be a multiple of P = " + std::to_string(P) +
               " (Megatron-LM's schedule); change --global-batch, --mbs or D";
    return {};
}

Expected<StrategyEvaluation> evaluateStrategy(const ModelPlacementRequest& request,
                                              const StrategySpec& strategy, RunControl* control) {
    if (Status status = checkStrategy(request, strategy); !status) return Error{status.message()};
    const hardware::HardwarePoint priced = pricedHardware(request);
    auto estimator = estimate::OperatorEstimator::create(priced.accelerator, priced.cluster);
    if (!estimator) return estimator.error();
    const schedule::LayerScheduler scheduler(request.scheduleOptions);
    auto width = buildWidthInput(request, strategy.tensor, *estimator, scheduler, control);
    if (!width) return width.error();
    return evaluateStrategyOn(request, strategy, std::move(width).value());
}

Expected<StrategyEvaluation> evaluateStrategyOn(const ModelPlacementRequest& request,
                                                const StrategySpec& strategy, WidthInput width) {
    if (Status status = checkStrategy(request, strategy); !status) return Error{status.message()};
    const std::int64_t P = strategy.pipeline, T = strategy.tensor, D = strategy.data;
    const std::int64_t V = request.training.interleave;
    if (!width.graph || !width.schedules) return Error{"strategy evaluation without a graph"};
    const hardware::HardwarePoint priced = pricedHardware(request);
    const model::BuildOptions& built = width.graph->options();
    if (built.tensorParallel != T || built.microbatch != request.training.microbatch ||
        built.bytesPerElement != priced.accelerator.bytesPerElement ||
        built.flashAttention != request.training.flashAttention ||
        built.tpCommOverlap != request.training.tpCommOverlap)
        return Error{
            "strategy evaluation on a graph built for another width, microbatch, "
            "precision or attention kernel (t = " +
            std::to_string(built.tensorParallel) + ", b = " + std::to_string(built.microbatch) +
            ", e = " + std::to_string(built.bytesPerElement) +
            (built.flashAttention ? ", FlashAttention)" : ")")};

    const auto layers = std::int64_t(width.graph->layers().size());
    const std::int64_t transformers = request.model->transformerLayers();
    const std::int64_t L = transformers > 0 ? transformers : layers;
    if (std::string problem = unevenStagesProblem(
            P, V, L, request.costModel, transformers > 0 ? "transformer layers" : "layers");
        !problem.empty())
        return Error{problem};
    auto problem =
        makePlacementProblem({width}, priced.cluster, request.training, priced.accelerator);
    if (!problem) return problem.error();
    const std::int64_t microbatches = problem->microbatchesPerBatch();
    if (D > microbatches)
        return Error{"strategy D = " + std::to_string(D) + " replicas, but the global batch has " +
                     "only " + std::to_string(microbatches) +
                     " microbatches to share among them; lower D or --mbs, or raise "
                     "--global-batch"};
    if (std::string problem = interleavingProblem(P, V, L, (microbatches + D - 1) / D);
        !problem.empty())
        return Error{problem};
    auto result =
        evaluateFixedStrategy(*problem, FixedStrategy{P, T, D, L, {}, true}, request.costModel);
    if (!result) return result.error();

    StrategyEvaluation out;
    out.strategy = strategy;
    out.width = std::move(width);
    out.problem = std::move(problem).value();
    out.result = std::move(result).value();
    for (const auto& layer : out.problem.widths.front().layers)
        out.layerNames.push_back(layer.name);
    return out;
}

}  // namespace tandem::core::placement
