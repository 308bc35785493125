#pragma once
// The JSON form of a placement, as `tandem-cli place --json` prints it:
// {throughput_samples_per_s, time_per_batch_s, tensor_parallel, data_parallel, microbatch,
//  recompute, bubble_fraction, breakdown: {compute_s, recompute_s, tensor_parallel_comm_s,
//  pipeline_p2p_s, pipeline_bubble_s, data_parallel_sync_s, optimizer_s} (summing to
//  time_per_batch_s), model_flops_per_iteration, mfu,
//  stages: [{layers, devices, forward_s, backward_s, memory: {weights,
//  gradients, optimizer, activations, stash, total, capacity}}], energy_j_per_iteration,
//  average_power_w, energy_breakdown: {compute_j, memory_j, network_j, static_j} (when the
//  energy is known), and with a token budget days_to_train, device_hours, energy_mwh,
//  iterations_to_train (and cost with a price per device-hour), baseline: {same keys, or
//  {fits: false, reason}}}. Memory sizes are bytes per device; times seconds.
#include <span>
#include <string>

#include "core/energy/training_cost.h"
#include "core/placement/model_placement.h"
#include "core/placement/strategy_evaluation.h"

namespace tandem::core::io {

// A token budget to price each plan against (--tokens, --price-per-device-hour) and the tokens
// of one sample (the sequence length).
struct BudgetContext {
    energy::TrainingBudget budget;
    double tokensPerSample = 0;
};

// One plan in the same form (the "fits": true object above, without "baseline"); a layer index
// past `layerNames` is written as the index.
std::string planToJson(const placement::Plan& plan, std::span<const std::string> layerNames,
                       int indent = -1, const BudgetContext* budget = nullptr);

// With "baseline" (the model's fixed strategy) and, when the training left V or the ZeRO stage to
// the placement, "choice": {interleave_chosen, zero_chosen, sequence_parallel_chosen,
// strategies_priced,
// plain_seconds_per_batch, strategy: {pipeline, tensor, data} or null}.
std::string placementToJson(const placement::ModelPlacement& placement, int indent = 2,
                            const BudgetContext* budget = nullptr);

// `place --strategy P,T,D`: the plan at top level (as planToJson, with "strategy": {pipeline,
// tensor, data}), or {"fits": false, "reason", "strategy"} when it does not fit.
std::string strategyToJson(const placement::StrategyEvaluation& evaluation, int indent = 2,
                           const BudgetContext* budget = nullptr);

}  // namespace tandem::core::io
