#pragma once
// The fixed Megatron-style placement PHAZE compares against (the PHAZE paper): p pipeline
// stages of ⌈L/p⌉ transformer layers, every stage on t devices, d data-parallel replicas. It is
// a baseline evaluator, not a search: it reports whether the strategy fits and, if so, its plan.
// Under `native` the intended assignment is used: the layer before the transformers (the
// embedding, when the model has more than L layers) goes with the first stage, transformer i
// with stage ⌊i/q⌋, q = ⌈L/p⌉, everything after the transformers (the head) with the last stage.
// Under `phaze-compat` PHAZE's actual assignment is reproduced (its DP program's fixed baseline):
// topological position k < L goes to stage ⌊k/q⌋, positions ≥ L (the last transformer and the
// head) to the last stage; stages may be empty. Every failure PHAZE turns into an abort or an
// empty output (width not in the file, d out of range, p·t·d > D, a stage that does not fit,
// the head listed before the last transformer) is reported as fits = false with a reason.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/placement/cost_model_kind.h"
#include "core/placement/placement_problem.h"
#include "core/placement/plan.h"
#include "core/placement/plan_builder.h"
#include "core/placement/width_graph.h"

namespace tandem::core::placement {

struct FixedStrategy {
    std::int64_t pipelineStages = 1;     // p
    std::int64_t tensorParallel = 1;     // t
    std::int64_t dataParallel = 1;       // d
    std::int64_t transformerLayers = 0;  // L
    // phaze-compat only: layer indices in the order the PHAZE file listed them at width t
    // (empty: index order). PHAZE fails when the last stage's layers come out of order.
    std::vector<int> sourceOrder;
    // Native, when p does not divide L: false keeps the baseline's ⌈L/p⌉ layers per stage with
    // the remainder in the last; true balances them, ⌊L/p⌋ or ⌈L/p⌉ each with the extra layers
    // in the middle stages first, so the stages that also hold the embedding and the head are
    // the lighter ones — the layouts BLOOM-176B (70 layers: 5, 6 × 10, 5) and Llama 3 405B
    // (126: 7, 8 × 14, 7) were trained with. `place --strategy` uses it.
    bool balanced = false;
};

struct FixedStrategyResult {
    bool fits = false;
    std::string reason;        // why not, when !fits
    std::optional<Plan> plan;  // when fits
};

// The positions (in the width graph's topological order, n of them) of each of the p stages, by
// the rule above for `costModel` (native: at least L + 1 positions when n > L).
std::vector<std::vector<int>> fixedStrategyStages(int n, std::int64_t p, std::int64_t L,
                                                  CostModelKind costModel, bool balanced = false);
// The same as ranges: stage s holds positions starts[s] … starts[s + 1] − 1 (p + 1 entries,
// the last n; an empty stage begins where the next does).
std::vector<int> fixedStrategyStageStarts(int n, std::int64_t p, std::int64_t L,
                                          CostModelKind costModel, bool balanced = false);

// Errors only for an invalid problem; a strategy that cannot run is a result with fits = false.
Expected<FixedStrategyResult> evaluateFixedStrategy(const PlacementProblem& problem,
                                                    const FixedStrategy& strategy,
                                                    CostModelKind costModel);
// The same on a valid problem (validate() has passed) and `graph`, its width t's WidthGraph in
// the order of topologicalOrder(problem.widths.front()): for callers that price many strategies
// on one problem (strategy_choice.h). The result is evaluateFixedStrategy()'s, bit for bit; with
// PlanDetail::TimeOnly only fits and the plan's time per batch are (no reason, plan_builder.h).
Expected<FixedStrategyResult> evaluateFixedStrategyOn(const PlacementProblem& problem,
                                                      const WidthGraph& graph,
                                                      const FixedStrategy& strategy,
                                                      CostModelKind costModel,
                                                      PlanDetail detail = PlanDetail::Full);

}  // namespace tandem::core::placement
