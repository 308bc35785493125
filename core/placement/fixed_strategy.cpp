#include "core/placement/fixed_strategy.h"

#include <algorithm>
#include <numeric>

#include "core/placement/cost_model.h"
#include "core/placement/plan_builder.h"
#include "core/placement/width_graph.h"

namespace tandem::core::placement {
namespace {

FixedStrategyResult notFitting(std::string reason) {
    FixedStrategyResult r;
    r.reason = std::move(reason);
    return r;
}

std::string listWidths(const PlacementProblem& problem) {
    std::vector<std::int64_t> ts;
    for (const LayerCostSet& set : problem.widths) ts.push_back(set.tensorParallel);
    std::sort(ts.begin(), ts.end());
    std::string text;
    for (std::int64_t t : ts) text += (text.empty() ? "" : ", ") + std::to_string(t);
    return "{" + text + "}";
}

}  // namespace

std::vector<int> fixedStrategyStageStarts(int n, std::int64_t p, std::int64_t L,
                                          CostModelKind costModel, bool balanced) {
    // Native: the layer before the transformers (lead) goes with stage 0, transformer i with
    // stage min(⌊i/q⌋, p − 1), everything after them with the last. PHAZE: position k < L with
    // stage min(⌊k/q⌋, p − 1), the rest with the last. Either way stage s ≥ 1 begins at
    // lead + min(s·q, L) (lead = 0 for PHAZE), and a stage past the layers is empty.
    const std::int64_t q = (L + p - 1) / p;
    const std::int64_t lead = costModel == CostModelKind::Native && n > L ? 1 : 0;
    std::vector<int> starts(static_cast<std::size_t>(p) + 1, n);
    starts[0] = 0;
    if (balanced && costModel == CostModelKind::Native && p > 0 && L % p != 0) {
        // ⌊L/p⌋ each, and the L mod p extra layers to stages 1, 2, …, p − 2, then 0, then p − 1:
        // stage s's rank in that order is s − 1, stage 0's p − 2 (p ≥ 2 here, as p ∤ L).
        const std::int64_t base = L / p, extra = L % p;
        std::int64_t end = lead;
        for (std::int64_t s = 0; s + 1 < p; ++s) {  // the last stage ends at n
            const std::int64_t rank = s == 0 ? p - 2 : s - 1;
            end += base + (rank < extra ? 1 : 0);
            starts[std::size_t(s + 1)] = int(std::min<std::int64_t>(end, n));
        }
        return starts;
    }
    for (std::int64_t s = 1; s < p; ++s)
        starts[std::size_t(s)] = int(std::min<std::int64_t>(lead + std::min(s * q, L), n));
    return starts;
}

std::vector<std::vector<int>> fixedStrategyStages(int n, std::int64_t p, std::int64_t L,
                                                  CostModelKind costModel, bool balanced) {
    const std::vector<int> starts = fixedStrategyStageStarts(n, p, L, costModel, balanced);
    std::vector<std::vector<int>> stages(static_cast<std::size_t>(p));
    for (std::size_t s = 0; s < stages.size(); ++s) {
        stages[s].resize(std::size_t(starts[s + 1] - starts[s]));
        std::iota(stages[s].begin(), stages[s].end(), starts[s]);
    }
    return stages;
}

Expected<FixedStrategyResult> evaluateFixedStrategy(const PlacementProblem& problem,
                                                    const FixedStrategy& fixed,
                                                    CostModelKind costModel) {
    if (Status status = problem.validate(); !status) return Error{status.message()};
    const LayerCostSet* set = problem.width(fixed.tensorParallel);
    if (!set) {
        if (Status status = supportsTraining(costModel, problem.training); !status)
            return Error{status.message()};
        return notFitting(
            "fixed tensor-parallel width t = " + std::to_string(fixed.tensorParallel) +
            " is not one of the problem's widths " + listWidths(problem));
    }
    const WidthGraph graph(*set, WidthGraph::topologicalOrder(problem.widths.front()));
    return evaluateFixedStrategyOn(problem, graph, fixed, costModel);
}

Expected<FixedStrategyResult> evaluateFixedStrategyOn(const PlacementProblem& problem,
                                                      const WidthGraph& graph,
                                                      const FixedStrategy& fixed,
                                                      CostModelKind costModel, PlanDetail detail) {
    if (Status status = supportsTraining(costModel, problem.training); !status)
        return Error{status.message()};
    const std::int64_t p = fixed.pipelineStages, t = fixed.tensorParallel, d = fixed.dataParallel,
                       L = fixed.transformerLayers;
    const LayerCostSet* set = problem.width(t);
    if (!set || graph.tensorParallel() != t)
        return notFitting("fixed tensor-parallel width t = " + std::to_string(t) +
                          " is not one of the problem's widths " + listWidths(problem));
    if (p < 1)
        return notFitting("fixed pipeline stages p = " + std::to_string(p) + " must be >= 1");
    if (L < 1)
        return notFitting("fixed strategy: transformer layers L = " + std::to_string(L) +
                          " must be >= 1");
    if (d < 1)
        return notFitting("fixed data-parallel degree d = " + std::to_string(d) + " must be >= 1");
    // Too many devices first: a strategy sized for a larger cluster says so (p > D or d > D
    // make the right side smaller than p·t ≥ 1 too).
    if (p * t > problem.cluster.devices / d)
        return notFitting("the fixed strategy needs p·t·d = " + std::to_string(p) + "·" +
                          std::to_string(t) + "·" + std::to_string(d) + " = " +
                          std::to_string(p * t * d) + " devices, the cluster has " +
                          std::to_string(problem.cluster.devices));
    if (d > problem.microbatchesPerBatch())
        return notFitting("fixed data-parallel degree d = " + std::to_string(d) +
                          " is more than the " + std::to_string(problem.microbatchesPerBatch()) +
                          " microbatches of a batch: each replica needs at least one");

    const int n = graph.size();
    if (costModel == CostModelKind::Native && (n > L ? 1 : 0) + L > n)
        return notFitting("the fixed strategy expects " + std::to_string(L) +
                          " transformer layers, the model has only " + std::to_string(n) +
                          " layers");
    const std::vector<std::vector<int>> stages =
        fixedStrategyStages(n, p, L, costModel, fixed.balanced);
    if (costModel == CostModelKind::PhazeCompat) {
        // PHAZE lists the last stage's positions >= L in file order and rejects them unordered.
        int previous = -1;
        for (int layer : fixed.sourceOrder) {
            if (layer < 0 || layer >= n) continue;
            const int position = graph.positionOf(layer);
            if (position < L) continue;
            if (position < previous)
                return notFitting(
                    "PHAZE fails on this fixed strategy: 'branching in the layer "
                    "graph' (its last stage lists layer " +
                    set->layers[std::size_t(layer)].name +
                    " after a later one; the head comes before the last transformer)");
            previous = position;
        }
    }
    const auto model = makeCostModel(costModel, problem, d);
    BuiltPlan built = PlanBuilder::build(*model, graph, d, stages, true, detail);
    if (!built.fits) return notFitting("the fixed strategy does not fit: " + built.reason);
    FixedStrategyResult result;
    result.fits = true;
    result.plan = std::move(built.plan);
    return result;
}

}  // namespace tandem::core::placement
