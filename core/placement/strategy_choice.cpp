#include "core/placement/strategy_choice.h"

#include <algorithm>

#include "core/placement/fixed_strategy.h"
#include "core/placement/strategy_evaluation.h"

namespace tandem::core::placement {

using hardware::kInterleaveChosen;
using hardware::kZeroChosen;

bool choosesInterleaveOrZero(const hardware::TrainingConfig& training) {
    return training.interleave == kInterleaveChosen || training.zero == kZeroChosen;
}

bool leavesChoicesToPlacement(const hardware::TrainingConfig& training) {
    return choosesInterleaveOrZero(training) ||
           training.sequenceParallel == hardware::SequenceParallel::Auto;
}

bool solverCanPrice(const hardware::TrainingConfig& training) {
    return (training.interleave == 1 || training.interleave == kInterleaveChosen) &&
           (training.zero == 0 || training.zero == kZeroChosen) && !training.overlapParamGather;
}

namespace {

std::vector<std::int64_t> divisorsOf(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t k = 1; k * k <= n; ++k)
        if (n % k == 0) {
            out.push_back(k);
            if (k != n / k) out.push_back(n / k);
        }
    std::sort(out.begin(), out.end());
    return out;
}

// The ZeRO stages to try: the given one, or (left to the placement) every stage the cost model
// prices that the training's other settings allow (a parameter gather needs a sharded optimizer).
std::vector<std::int64_t> zeroStages(const ModelPlacementRequest& request) {
    const hardware::TrainingConfig& training = request.training;
    if (training.zero != kZeroChosen) return {training.zero};
    if (request.costModel == CostModelKind::PhazeCompat) return {0};
    if (training.overlapParamGather) return {1, 2, 3};
    return {0, 1, 2, 3};
}

// The interleavings to try: the given V, or every divisor of the layer count (V must divide the
// layers of each of the P stages; checked per P).
std::vector<std::int64_t> interleavings(const ModelPlacementRequest& request, std::int64_t L) {
    const std::int64_t V = request.training.interleave;
    if (V != kInterleaveChosen) return {V};
    if (request.costModel == CostModelKind::PhazeCompat) return {1};
    return divisorsOf(L);
}

// The replica counts to try for P·T devices per pipeline: the given D, or every D that divides
// the batch's microbatches evenly (no replica idles in the last round) and the most that fit
// the cluster.
std::vector<std::int64_t> replicaCounts(const std::optional<StrategySpec>& fixed,
                                        std::int64_t maxReplicas, std::int64_t microbatches) {
    if (fixed) return {fixed->data};
    std::vector<std::int64_t> out;
    for (std::int64_t D : divisorsOf(microbatches))
        if (D <= maxReplicas) out.push_back(D);
    const std::int64_t most = std::min(maxReplicas, microbatches);
    if (most >= 1 && (out.empty() || out.back() != most)) out.push_back(most);
    return out;
}

}  // namespace

Expected<StrategyChoice> chooseStrategy(const ModelPlacementRequest& request,
                                        const std::vector<WidthInput>& widths,
                                        const std::optional<StrategySpec>& fixed,
                                        RunControl* control) {
    if (!request.model) return Error{"no model given"};
    const hardware::HardwarePoint priced = pricedHardware(request);
    const std::int64_t devices = priced.cluster.devices;
    const std::int64_t transformers = request.model->transformerLayers();
    // A chosen ZeRO stage shards nothing over one replica: only ZeRO 0 is tried there.
    const bool chosenZero = request.training.zero == kZeroChosen;
    StrategyChoice best;
    for (const WidthInput& width : widths) {
        if (!width.graph || !width.schedules) return Error{"strategy choice without a graph"};
        const std::int64_t T = width.graph->options().tensorParallel;
        if ((fixed && T != fixed->tensor) || T > devices) continue;
        const auto layers = std::int64_t(width.graph->layers().size());
        const std::int64_t L = transformers > 0 ? transformers : layers;
        for (const std::int64_t V : interleavings(request, L)) {
            for (const std::int64_t Z : zeroStages(request)) {
                hardware::TrainingConfig training = request.training;
                training.interleave = V;
                training.zero = Z;
                auto problem =
                    makePlacementProblem({width}, priced.cluster, training, priced.accelerator);
                if (!problem) return problem.error();
                const std::int64_t microbatches = problem->microbatchesPerBatch();
                for (const std::int64_t P : divisorsOf(L)) {
                    if ((fixed && P != fixed->pipeline) || P * T > devices) continue;
                    for (const std::int64_t D :
                         replicaCounts(fixed, devices / (P * T), microbatches)) {
                        if (D > microbatches || (chosenZero && Z > 0 && D < 2)) continue;
                        if (!interleavingProblem(P, V, L, (microbatches + D - 1) / D).empty())
                            continue;
                        if (control && control->cancelled()) return Error{"placement cancelled"};
                        auto result = evaluateFixedStrategy(*problem, FixedStrategy{P, T, D, L, {}},
                                                            request.costModel);
                        if (!result) return result.error();
                        ++best.strategiesPriced;
                        if (!result->fits || !result->plan) continue;
                        if (best.found &&
                            result->plan->timePerBatchSeconds >= best.plan.timePerBatchSeconds)
                            continue;
                        best.found = true;
                        best.strategy = StrategySpec{P, T, D};
                        best.interleave = V;
                        best.zero = Z;
                        best.plan = std::move(*result->plan);
                    }
                }
            }
        }
    }
    return best;
}

}  // namespace tandem::core::placement
