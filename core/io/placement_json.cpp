#include "core/io/placement_json.h"

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>
#include "core/common/json_document.h"
#include "core/placement/plan_activity.h"

namespace tandem::core::io {

namespace {
using Json = nlohmann::ordered_json;

std::vector<std::string> namesOf(const placement::PlacementProblem& problem) {
    // Layer names are the same in every width; the plan may come from a separate problem.
    std::vector<std::string> names;
    if (!problem.widths.empty())
        for (const auto& layer : problem.widths.front().layers) names.push_back(layer.name);
    return names;
}

// Energy and, with a budget, what training on it takes, beside the plan's other figures.
void addEnergy(Json& root, const placement::Plan& plan, const BudgetContext* budget) {
    if (plan.energy.known) {
        const energy::EnergyEstimate& e = plan.energy;
        root["energy_j_per_iteration"] = e.totalJoules();
        root["average_power_w"] = e.averagePowerWatts;
        root["energy_breakdown"] = {{"compute_j", e.computeJoules},
                                    {"memory_j", e.memoryJoules},
                                    {"network_j", e.networkJoules},
                                    {"static_j", e.staticJoules}};
    }
    if (!budget) return;
    const auto cost = placement::planTrainingCost(plan, budget->budget, budget->tokensPerSample);
    if (!cost) return;
    root["iterations_to_train"] = cost->iterations;
    root["days_to_train"] = cost->days;
    root["device_hours"] = cost->deviceHours;
    if (plan.energy.known) root["energy_mwh"] = cost->energyMegawattHours;
    if (cost->hasCost) root["cost"] = cost->cost;
}

Json planJson(const placement::Plan& plan, std::span<const std::string> layerNames,
              const BudgetContext* budget = nullptr) {
    Json stages = Json::array();
    for (const placement::StagePlan& stage : plan.stages) {
        Json layers = Json::array();
        for (int l : stage.layers)
            layers.push_back(std::size_t(l) < layerNames.size() ? Json(layerNames[std::size_t(l)])
                                                                : Json(l));
        const auto& m = stage.memory;
        stages.push_back({{"layers", std::move(layers)},
                          {"devices", stage.devices},
                          {"forward_s", stage.forwardSeconds},
                          {"backward_s", stage.backwardSeconds},
                          {"recompute", stage.recompute},
                          {"selective_recompute", stage.selectiveRecompute},
                          {"in_flight_microbatches", stage.inFlightMicrobatches},
                          {"memory",
                           {{"weights", m.weightsBytes},
                            {"gradients", m.gradientsBytes},
                            {"optimizer", m.optimizerBytes},
                            {"activations", m.activationsBytes},
                            {"stash", m.stashBytes},
                            {"stash_per_microbatch", m.stashBytesPerMicrobatch},
                            {"total", m.totalBytes},
                            {"capacity", m.capacityBytes}}}});
    }
    Json root = {
        {"fits", true},
        {"cost_model", std::string(placement::toString(plan.costModel))},
        {"throughput_samples_per_s", plan.throughputSamplesPerSecond},
        {"time_per_batch_s", plan.timePerBatchSeconds},
        {"tensor_parallel", plan.tensorParallel},
        {"data_parallel", plan.dataParallel},
        {"pipeline_stages", plan.stages.size()},
        {"microbatch", plan.microbatchSize},
        {"global_batch", plan.globalBatch},
        {"microbatches_per_pipeline", plan.microbatchesPerPipeline},
        {"recompute", std::string(hardware::toString(plan.recompute))},
        {"sequence_parallel", plan.sequenceParallel},
        {"interleave", plan.interleave},
        {"zero", plan.zero},
        {"bubble_fraction", plan.bubbleFraction},
        {"max_stage_load_s", plan.maxStageLoadSeconds},
        {"sync_s", plan.syncSeconds},
        {"optimizer_step_s", plan.optimizerSeconds},
        {"devices_used", plan.devicesUsed},
        {"breakdown",
         {{"compute_s", plan.breakdown.computeSeconds},
          {"recompute_s", plan.breakdown.recomputeSeconds},
          {"tensor_parallel_comm_s", plan.breakdown.tensorParallelCommSeconds},
          {"pipeline_p2p_s", plan.breakdown.pipelineP2pSeconds},
          {"pipeline_bubble_s", plan.breakdown.pipelineBubbleSeconds},
          {"data_parallel_sync_s", plan.breakdown.dataParallelSyncSeconds},
          {"optimizer_s", plan.breakdown.optimizerSeconds},
          {"tensor_parallel_comm_hidden_s", plan.breakdown.tensorParallelCommHiddenSeconds},
          {"data_parallel_hidden_s", plan.breakdown.dataParallelHiddenSeconds},
          {"pipeline_p2p_hidden_s", plan.breakdown.pipelineP2pHiddenSeconds}}},
        {"model_flops_per_iteration", plan.modelFlopsPerIteration},
        {"mfu", plan.mfu},
        {"gemm_rate_over_peak", plan.gemmRateOverPeak},
        {"stages", std::move(stages)}};
    addEnergy(root, plan, budget);
    return root;
}
}  // namespace

std::string planToJson(const placement::Plan& plan, std::span<const std::string> layerNames,
                       int indent, const BudgetContext* budget) {
    return jsonText(planJson(plan, layerNames, budget), indent);
}

std::string placementToJson(const placement::ModelPlacement& p, int indent,
                            const BudgetContext* budget) {
    const std::vector<std::string> names = namesOf(p.problem);
    Json root = p.result.plan ? planJson(*p.result.plan, names, budget)
                              : Json{{"fits", false}, {"reason", p.result.infeasibleReason}};
    if (!p.baseline) {
        root["baseline"] = {{"fits", false}, {"reason", "the model names no fixed strategy"}};
    } else if (!p.baseline->fits || !p.baseline->plan) {
        root["baseline"] = {{"fits", false}, {"reason", p.baseline->reason}};
    } else {
        // The baseline's layers are named from whichever problem it was evaluated on; its width
        // is always present in one of them, and layer names are the same in every width.
        Json baseline = planJson(*p.baseline->plan, names, budget);
        baseline["pipeline_stages"] = p.baselineStrategy.pipelineStages;
        root["baseline"] = std::move(baseline);
    }
    if (p.choice) {
        // What the placement chose for V and the ZeRO stage, and against what.
        const placement::PlacementChoice& c = *p.choice;
        Json choice = {{"interleave_chosen", c.interleaveChosen},
                       {"zero_chosen", c.zeroChosen},
                       {"sequence_parallel_chosen", c.sequenceParallelChosen},
                       {"strategies_priced", c.strategiesPriced},
                       {"plain_seconds_per_batch", c.plainSecondsPerBatch}};
        choice["strategy"] = c.strategy ? Json{{"pipeline", c.strategy->pipeline},
                                               {"tensor", c.strategy->tensor},
                                               {"data", c.strategy->data}}
                                        : Json(nullptr);
        root["choice"] = std::move(choice);
    }
    root["solve_seconds"] = p.result.statistics.seconds;
    return jsonText(root, indent);
}

std::string strategyToJson(const placement::StrategyEvaluation& e, int indent,
                           const BudgetContext* budget) {
    Json root = e.result.fits && e.result.plan ? planJson(*e.result.plan, e.layerNames, budget)
                                               : Json{{"fits", false}, {"reason", e.result.reason}};
    root["strategy"] = {{"pipeline", e.strategy.pipeline},
                        {"tensor", e.strategy.tensor},
                        {"data", e.strategy.data}};
    return jsonText(root, indent);
}

}  // namespace tandem::core::io
