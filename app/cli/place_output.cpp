#include "app/cli/place_output.h"

#include <algorithm>

#include "app/cli/text_table.h"
#include "core/common/units.h"
#include "core/placement/mfu_note.h"
#include "core/placement/plan_activity.h"

namespace tandem::cli {

namespace pl = tandem::core::placement;
namespace hw = tandem::core::hardware;
using core::formatBytes;
using core::formatSeconds;

namespace {

std::string layerRange(const pl::Plan& plan, std::size_t s, const pl::PlacementProblem& problem) {
    const auto& layers = plan.stages[s].layers;
    if (layers.empty()) return "(empty)";
    const auto& names = problem.widths.front().layers;
    const std::string first = names[std::size_t(layers.front())].name;
    if (layers.size() == 1) return first;
    return first + " … " + names[std::size_t(layers.back())].name + " (" +
           std::to_string(layers.size()) + ")";
}

// "bf16 with fp32 gradients": the GEMMs' format and, where the native model holds and reduces
// the gradients in another, that one (PlacementProblem::gradientBytesPerElement).
std::string precisionText(const pl::ModelPlacementRequest& request,
                          const pl::PlacementProblem& problem) {
    std::string text(hw::toString(request.hardware.accelerator.precision));
    if (problem.bytesPerElement != 2)
        text = std::to_string(problem.bytesPerElement) + "-byte elements, " + text + " GEMMs";
    if (request.costModel == pl::CostModelKind::Native &&
        problem.gradientBytesPerElement > problem.bytesPerElement)
        text += " with fp" + std::to_string(8 * problem.gradientBytesPerElement) + " gradients";
    return text;
}

}  // namespace

// "energy: 8.41 MJ per iteration (…), 274 W per device on average" and, with a budget, what
// training on it takes.
void printPlanEnergy(std::ostream& out, const pl::Plan& plan,
                     const core::io::BudgetContext* budget) {
    const core::energy::EnergyEstimate& e = plan.energy;
    if (e.known) {
        out << "  energy: " << core::formatEnergy(e.totalJoules()) << " per iteration ("
            << core::energy::energySharesText(e) << "), " << core::formatPower(e.averagePowerWatts)
            << " per device on average\n";
    }
    if (!budget) return;
    const auto cost = pl::planTrainingCost(plan, budget->budget, budget->tokensPerSample);
    if (!cost) {
        out << "  time to train: not known (" << cost.message() << ")\n";
        return;
    }
    out << "  to train " << core::formatCount(budget->budget.tokens)
        << " tokens: " << core::formatCount(cost->iterations) << " iterations, "
        << core::energy::trainingCostText(*cost, e.known) << "\n";
}

void printPlan(std::ostream& out, const char* title, const pl::Plan& plan,
               const pl::PlacementProblem& problem, const core::io::BudgetContext* budget) {
    const std::string lastRound = pl::lastRoundText(plan);
    out << title << ": " << core::formatThroughput(plan.throughputSamplesPerSecond) << ", "
        << formatSeconds(plan.timePerBatchSeconds) << " per batch; t = " << plan.tensorParallel
        << ", d = " << plan.dataParallel << ", "
        << core::countText(std::int64_t(plan.stages.size()), "stage", "stages") << ", "
        << core::countText(plan.microbatchesPerPipeline, "microbatch", "microbatches") << " of "
        << plan.microbatchSize << (lastRound.empty() ? "" : " (" + lastRound + ")") << ", bubble "
        << core::formatFixed(100 * plan.bubbleFraction, 1) << " %, "
        << core::countText(plan.devicesUsed, "device", "devices") << " used\n";
    TextTable table({"stage", "layers", "devices", "forward", "backward", "memory", "of HBM"},
                    {true, false, true, true, true, true, true});
    for (std::size_t s = 0; s < plan.stages.size(); ++s) {
        const auto& stage = plan.stages[s];
        table.addRow(
            {std::to_string(s), layerRange(plan, s, problem), std::to_string(stage.devices),
             formatSeconds(stage.forwardSeconds), formatSeconds(stage.backwardSeconds),
             formatBytes(stage.memory.totalBytes),
             core::formatFixed(
                 100 * stage.memory.totalBytes / std::max(1.0, stage.memory.capacityBytes), 1) +
                 " %"});
    }
    table.print(out, "  ");
    const pl::TimeBreakdown& b = plan.breakdown;
    const auto hidden = [](double seconds) {
        return seconds > 0 ? " (" + formatSeconds(seconds) + " more hidden)" : std::string();
    };
    out << "  where the time goes: compute " << formatSeconds(b.computeSeconds) << ", recompute "
        << formatSeconds(b.recomputeSeconds) << ", tensor-parallel comm "
        << formatSeconds(b.tensorParallelCommSeconds) << hidden(b.tensorParallelCommHiddenSeconds)
        << ", pipeline p2p " << formatSeconds(b.pipelineP2pSeconds)
        << hidden(b.pipelineP2pHiddenSeconds) << ", bubble "
        << formatSeconds(b.pipelineBubbleSeconds) << ", data-parallel sync "
        << formatSeconds(b.dataParallelSyncSeconds) << hidden(b.dataParallelHiddenSeconds)
        << ", optimizer " << formatSeconds(b.optimizerSeconds) << "\n";
    if (plan.mfu > 0)
        out << "  model FLOPs utilisation (MFU): " << core::formatFixed(100 * plan.mfu, 1)
            << " % of " << plan.devicesUsed << " devices' peak\n";
    if (const std::string note = pl::highMfuNote(plan); !note.empty()) out << "  " << note << "\n";
    printPlanEnergy(out, plan, budget);
}

// "V = 2, ZeRO 1, sequence parallelism on": what a resolved training runs with.
std::string choiceText(const hw::TrainingConfig& training) {
    return "V = " + std::to_string(training.interleave) + ", ZeRO " +
           std::to_string(training.zero) + ", sequence parallelism " +
           std::string(hw::toString(training.sequenceParallel));
}

void printStrategy(std::ostream& out, const core::model::ModelSource& model,
                   const pl::ModelPlacementRequest& request, const pl::StrategyEvaluation& e,
                   const core::io::BudgetContext* budget) {
    out << model.name() << " on " << request.hardware.cluster.devices << " × "
        << request.hardware.name << ", strategy P = " << e.strategy.pipeline
        << ", T = " << e.strategy.tensor << ", D = " << e.strategy.data << ", global batch "
        << request.training.globalBatch << ", recompute "
        << hw::toString(request.training.recompute)
        << (request.training.sequenceParallel == hw::SequenceParallel::On ? ", sequence parallel"
                                                                          : "")
        << (request.training.flashAttention ? ", FlashAttention" : "")
        << (request.training.interleave > 1
                ? ", interleaved 1F1B with " + std::to_string(request.training.interleave) +
                      " chunks per device"
                : std::string())
        << (request.training.zero > 0 ? ", ZeRO " + std::to_string(request.training.zero)
                                      : std::string())
        << (request.training.overlapGradReduce ? ", gradient reduce overlapped" : "")
        << (request.training.overlapParamGather ? ", parameter gather overlapped" : "")
        << (request.training.tpCommOverlap ? ", tensor-parallel comm overlapped" : "")
        << (request.training.overlapP2pComm ? ", pipeline transfers overlapped" : "") << ", "
        << precisionText(request, e.problem) << ", " << hw::toString(request.training.optimizer)
        << ", " << pl::toString(request.costModel) << " cost model\n\n";
    if (!e.result.fits || !e.result.plan) {
        out << "Does not fit: " << e.result.reason << "\n";
        return;
    }
    printPlan(out, "Strategy", *e.result.plan, e.problem, budget);
}

// The human-readable answer of `place` without --strategy: the set-up, the Tandem placement,
// the model's fixed baseline and the speed-up.
void printPlacement(std::ostream& out, const core::model::ModelSource& model,
                    const std::string& hardwareName, const pl::ModelPlacementRequest& request,
                    const pl::ModelPlacement& placement, const core::io::BudgetContext* budget) {
    const pl::ModelPlacement* placed = &placement;
    out << model.name() << " on " << request.hardware.cluster.devices << " × " << hardwareName
        << " (" << formatBytes(double(request.hardware.accelerator.hbmCapacityBytes))
        << " HBM), global batch " << request.training.globalBatch << ", recompute "
        << hw::toString(request.training.recompute) << ", "
        << precisionText(request, placement.problem) << ", "
        << hw::toString(request.training.optimizer) << ", " << pl::toString(request.costModel)
        << " cost model\n\n";
    if (!placed->result.plan) {
        out << "No placement fits: " << placed->result.infeasibleReason << "\n";
    } else {
        printPlan(out, "Tandem placement", *placed->result.plan, placed->problem, budget);
        if (placed->choice && placed->choice->strategy)
            out << "Chosen among " << placed->choice->strategiesPriced
                << " strategies of equal stages: P,T,D = "
                << pl::strategyText(*placed->choice->strategy) << ", "
                << choiceText(placed->problem.training) << " ("
                << (placed->choice->plainSecondsPerBatch > 0
                        ? "the partition search's best with V = 1 and ZeRO 0 takes " +
                              formatSeconds(placed->choice->plainSecondsPerBatch)
                        : std::string("nothing fits with V = 1 and ZeRO 0"))
                << ")\n";
        else if (placed->choice && (placed->choice->interleaveChosen || placed->choice->zeroChosen))
            out << "Chosen: V = 1, ZeRO 0 (none of " << placed->choice->strategiesPriced
                << " strategies of equal stages with other values is faster)\n";
        if (placed->choice && placed->choice->sequenceParallelChosen)
            out << "Sequence parallelism chosen: "
                << (placed->result.plan->sequenceParallel ? "on" : "off")
                << " (the model placed both ways, the faster kept)\n";
    }
    out << "\n";
    if (!placed->baseline) {
        out << "Baseline: the model names no fixed strategy\n";
    } else if (!placed->baseline->fits || !placed->baseline->plan) {
        out << "Baseline (p = " << placed->baselineStrategy.pipelineStages
            << ", d = " << placed->baselineStrategy.dataParallel
            << ", t = " << placed->baselineStrategy.tensorParallel
            << "): does not run: " << placed->baseline->reason << "\n";
    } else {
        printPlan(out, "Fixed baseline", *placed->baseline->plan, placed->problem, budget);
        if (placed->result.plan) {
            out << "\nSpeed-up over the baseline: "
                << core::formatFixed(placed->result.plan->throughputSamplesPerSecond /
                                         placed->baseline->plan->throughputSamplesPerSecond,
                                     2)
                << "×\n";
        }
    }
}

}  // namespace tandem::cli
