#include "core/placement/plan_activity.h"

namespace tandem::core::placement {

namespace {

void addWork(energy::IterationActivity& a, const estimate::PassWork& w, double times) {
    a.flops += w.flops * times;
    a.gemmFlops += w.gemmFlops * times;
    a.hbmBytes += w.hbmBytes * times;
}

void addLinkBytes(energy::IterationActivity& a, double bytes, bool acrossNodes) {
    (acrossNodes ? a.interNodeLinkBytes : a.intraNodeLinkBytes) += bytes;
}

}  // namespace

energy::IterationActivity iterationActivity(const Plan& plan, const PlacementProblem& problem,
                                            const std::vector<double>& optimizerStepBytes) {
    energy::IterationActivity a;
    a.devices = plan.devicesUsed;
    a.seconds = plan.timePerBatchSeconds;
    const LayerCostSet* set = problem.width(plan.tensorParallel);
    if (!set) return a;
    const double n = double(problem.microbatchesPerBatch());
    const double d = double(plan.dataParallel);
    const std::int64_t t = plan.tensorParallel;
    const std::int64_t perNode = problem.cluster.devicesPerNode;
    const double tensorBandwidth = problem.cluster.effectiveGroupBandwidth(t);
    // Data-parallel rounds of each stage's parameter bytes: ZeRO 0 and 1 reduce the gradients
    // (fp32 ones for bf16 training) and gather or keep the parameters; ZeRO 2 and 3 move both
    // in the parameters' format.
    const double gradients = problem.gradientBytesFactor(plan.zero);
    const double rounds = plan.zero >= 3 ? 3.0 : plan.zero == 0 ? 2.0 * gradients : 1.0 + gradients;
    std::vector<int> stageOf(set->layers.size(), -1);
    for (std::size_t k = 0; k < plan.stages.size(); ++k) {
        const StagePlan& stage = plan.stages[k];
        const double devices = double(stage.devices);
        for (int l : stage.layers) {
            if (l < 0 || std::size_t(l) >= set->layers.size()) continue;
            stageOf[std::size_t(l)] = int(k);
            const LayerCost& layer = set->layers[std::size_t(l)];
            const double passes = n * devices;
            addWork(a, layer.forwardWork, passes);
            addWork(a, layer.backwardWork, passes);
            double commSeconds = layer.forwardCommSeconds + layer.backwardCommSeconds +
                                 layer.forwardHiddenCommSeconds + layer.backwardHiddenCommSeconds;
            if (stage.recompute) {
                addWork(a, layer.forwardWork, passes);
                commSeconds += layer.forwardCommSeconds + layer.forwardHiddenCommSeconds;
            } else if (stage.selectiveRecompute) {
                addWork(a, layer.selectiveWork, passes);
            }
            if (layer.tensorParallel && t > 1)
                addLinkBytes(a, commSeconds * tensorBandwidth * passes, t > perNode);
        }
        // Optimizer step and gradient all-reduce, once per iteration on each device.
        const double stageDevices = devices * d;
        if (k < optimizerStepBytes.size()) a.hbmBytes += optimizerStepBytes[k] * stageDevices;
        if (plan.dataParallel > 1) {
            addLinkBytes(a, rounds * (d - 1.0) / d * stage.parameterBytes * stageDevices,
                         plan.dataParallel * t > perNode);
        }
    }
    // Activations forward and their gradients back across each stage boundary.
    for (const LayerEdgeCost& e : set->edges) {
        if (e.from < 0 || e.to < 0 || std::size_t(e.from) >= stageOf.size() ||
            std::size_t(e.to) >= stageOf.size())
            continue;
        const int from = stageOf[std::size_t(e.from)];
        const int to = stageOf[std::size_t(e.to)];
        if (from < 0 || to < 0 || from == to) continue;
        const double span = d * double(plan.stages[std::size_t(from)].devices);
        addLinkBytes(a, 2.0 * e.bytes * n, span >= double(perNode));
    }
    return a;
}

Expected<energy::TrainingCost> planTrainingCost(const Plan& plan,
                                                const energy::TrainingBudget& budget,
                                                double tokensPerSample) {
    if (plan.globalBatch <= 0) return Error{"the plan does not record its global batch"};
    return energy::trainingCost(budget, double(plan.globalBatch) * tokensPerSample,
                                plan.timePerBatchSeconds, plan.devicesUsed,
                                plan.energy.known ? plan.energy.totalJoules() : 0.0);
}

}  // namespace tandem::core::placement
