#pragma once
// Evaluates one given Megatron-style strategy instead of searching (`tandem-cli place
// --strategy P,T,D`): P pipeline stages of ⌊L/P⌋ or ⌈L/P⌉ layers, the lighter at the ends (equal
// when P divides L; the transformer layers of a transformer model, every layer of a graph model;
// the embedding goes with the first stage, the logits and loss with the last), T-way tensor
// parallelism, D data-parallel replicas. The model is built and scheduled at width T only.
// Errors (exit 2 in the CLI) for a strategy that cannot be formed: stages that do not hold the
// layers (unevenStagesProblem), a model that cannot be split T ways, P·T·D above
// the cluster, D above the microbatches, and for interleaved 1F1B (training.interleave = V > 1)
// P = 1, V not dividing the layers per stage or microbatches per pipeline not a multiple of P;
// a strategy that is formed but does not fit in HBM is a result with fits = false and the reason.
// evaluateStrategyOn() is the same evaluation on a width already built and scheduled (for
// callers that evaluate many strategies on the same graphs, core/validation): given the
// WidthInput that buildWidthInput() returns for the request at width T on an estimator of
// pricedHardware(request), it returns bit for bit what evaluateStrategy() returns.
#include <cstdint>
#include <string>
#include <vector>

#include "core/placement/model_placement.h"
#include "core/placement/strategy_spec.h"

namespace tandem::core::placement {

struct StrategyEvaluation {
    StrategySpec strategy;
    WidthInput width;          // the model at width T, with its schedules
    PlacementProblem problem;  // that one width
    FixedStrategyResult result;
    std::vector<std::string> layerNames;
};

// Why P stages cannot hold the L layers, or "" when they can. Under the native model a P that
// does not divide L gives balanced stages (FixedStrategy::balanced: the lighter ones at the ends,
// as BLOOM-176B's 70 layers on 12 stages and Llama 3 405B's 126 on 16 were trained) unless P > L
// or the schedule interleaves (equal chunks); phaze-compat keeps PHAZE's equal stages.
std::string unevenStagesProblem(std::int64_t P, std::int64_t V, std::int64_t L,
                                CostModelKind costModel, const std::string& what);

// Why Megatron-LM's interleaved 1F1B cannot run V model chunks per device on P stages of the L
// layers with `perPipeline` microbatches per pipeline: P >= 2, V dividing L/P, perPipeline a
// multiple of P. "" when it can (and for V = 1).
std::string interleavingProblem(std::int64_t P, std::int64_t V, std::int64_t L,
                                std::int64_t perPipeline);
// interleavingProblem(...).empty(), without the text.
bool canInterleave(std::int64_t P, std::int64_t V, std::int64_t L, std::int64_t perPipeline);

Expected<StrategyEvaluation> evaluateStrategy(const ModelPlacementRequest& request,
                                              const StrategySpec& strategy,
                                              RunControl* control = nullptr);

// Errors as evaluateStrategy(), and for a width without graph or schedules, or one built for
// another width T, microbatch or bytes per element than the request's.
Expected<StrategyEvaluation> evaluateStrategyOn(const ModelPlacementRequest& request,
                                                const StrategySpec& strategy, WidthInput width);

}  // namespace tandem::core::placement
