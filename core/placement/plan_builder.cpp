#include "core/placement/plan_builder.h"

#include <algorithm>
#include <limits>

#include "core/common/units.h"
#include "core/estimate/comm_overlap.h"
#include "core/placement/plan_activity.h"

namespace tandem::core::placement {
namespace {

// Microbatches (in whole-stage equivalents) the stage at `position` of S holds under interleaved
// 1F1B with V chunks: Megatron-LM's warm-up of 2(position − 1) + (V − 1)·S chunk-microbatches
// plus the one in its steady state, each holding 1/V of the stage's activations, rounded up.
std::int64_t interleavedInFlight(std::int64_t position, std::int64_t stages, std::int64_t v) {
    if (v <= 1) return position;
    const std::int64_t chunkMicrobatches = 2 * (position - 1) + (v - 1) * stages + 1;
    return (chunkMicrobatches + v - 1) / v;  // rounded up
}

// Under interleaving a device's chunks exchange activations and gradients with their
// neighbours V times per microbatch instead of once: the extra (V − 1) transfers in and out
// (the first and last devices' missing side is the size of the other).
double extraInterleavedTransfers(const StageCost& c, std::int64_t v) {
    if (v <= 1) return 0.0;
    const double in = c.transferInSeconds > 0 ? c.transferInSeconds : c.transferOutSeconds;
    const double out = c.transferOutSeconds > 0 ? c.transferOutSeconds : c.transferInSeconds;
    return double(v - 1) * (in + out);
}

// One microbatch's point-to-point transfers of a stage, split into what its passes wait for and
// what hides behind compute. Plain 1F1B (and PHAZE) waits for each: the incoming activation
// before the forward pass, the incoming gradient before the backward pass, V times each when
// interleaved. With --overlap-p2p-comm the interleaved schedule issues them asynchronously and
// each chunk's transfer runs while a neighbouring chunk computes: of the V transfers of a
// direction, what does not fit in that direction's compute stays exposed, and the hidden part
// occupies the link's kernels' share of the cores (estimate::pipelinedOverlap, bulk).
struct StageTransfers {
    double forward = 0, backward = 0, hidden = 0;  // exposed in each pass; hidden in both
    bool overlapped = false;                       // the schedule overlaps them
};

// `extra`: extraInterleavedTransfers(c, chunks).
StageTransfers stageTransfers(const CostModel& model, const StageCost& c, std::int64_t chunks,
                              double extra, double forwardCompute, double backwardCompute) {
    StageTransfers t{c.transferInSeconds + extra / 2, c.transferOutSeconds + extra / 2, 0.0, false};
    const PlacementProblem& problem = model.problem();
    if (chunks <= 1 || !problem.training.overlapP2pComm || model.kind() != CostModelKind::Native)
        return t;
    const double share = problem.collectiveComputeShare;
    const estimate::Overlap f =
        estimate::pipelinedOverlap(t.forward, forwardCompute, estimate::kConcurrent, share);
    const estimate::Overlap b =
        estimate::pipelinedOverlap(t.backward, backwardCompute, estimate::kConcurrent, share);
    return {f.exposedSeconds, b.exposedSeconds, f.hiddenSeconds + b.hiddenSeconds, true};
}

// What every stage of a plan of d replicas shares: m microbatches per pipeline, the most a
// stage holds (m when the model caps it) and the V model chunks of the schedule.
struct Rounds {
    std::int64_t m = 1, cap = kNoInFlightCap, chunks = 1;
};

Rounds roundsOf(const CostModel& model, std::int64_t d) {
    const PlacementProblem& problem = model.problem();
    Rounds r;
    r.m = (problem.microbatchesPerBatch() + d - 1) / d;
    r.cap = model.capsInFlightAtMicrobatches() ? r.m : kNoInFlightCap;
    r.chunks = std::max<std::int64_t>(1, problem.training.interleave);
    return r;
}

// The recomputation stage `position` of `stages` can afford, holding the microbatches the
// (interleaved) 1F1B schedule gives it, at most `cap`.
StageChoice choiceFor(const CostModel& model, const StageCost& cost, std::int64_t position,
                      std::int64_t stages, std::int64_t chunks, std::int64_t cap) {
    return chooseStage(cost, interleavedInFlight(position, stages, chunks), cap,
                       model.problem().training.recompute, model.lastStageRecomputes());
}

// Stage `position` of `stages` (1 is the last) made of the layers at `positions`: its devices,
// the recomputation it can afford, its loads with interleaving's extra transfers, its memory.
// `feasible` is false when it does not fit in HBM even with recomputation.
StagePlan stagePlanFor(const CostModel& model, const WidthGraph& graph,
                       const std::vector<int>& positions, const StageCost& cost,
                       std::int64_t position, std::int64_t stages, std::int64_t chunks,
                       std::int64_t cap, bool everyStageUsesWidth, bool& feasible) {
    const PlacementProblem& problem = model.problem();
    const std::int64_t t = graph.tensorParallel();
    const StageChoice choice = choiceFor(model, cost, position, stages, chunks, cap);
    StagePlan stage;
    for (int p : positions) stage.layers.push_back(graph.layerAt(p));
    stage.position = int(position);
    stage.devices = everyStageUsesWidth || !cost.oneDevice ? t : 1;
    const StageRecompute recompute =
        choice.feasible ? choice.recompute
                        : intendedRecompute(problem.training.recompute,
                                            position == 1 && !model.lastStageRecomputes());
    const double extra = extraInterleavedTransfers(cost, chunks);
    const bool full = recompute == StageRecompute::Full;
    const bool selective = recompute == StageRecompute::Selective;
    stage.recompute = full;
    stage.selectiveRecompute = selective;
    const double backward = full        ? cost.backwardRecomputeSeconds
                            : selective ? cost.backwardSelectiveSeconds
                                        : cost.backwardSeconds;
    const double load = full        ? cost.loadRecomputeSeconds
                        : selective ? cost.loadSelectiveSeconds
                                    : cost.loadSeconds;
    // The passes' compute (and exposed ZeRO traffic) without their transfers.
    const double forwardCompute = cost.forwardSeconds - cost.transferInSeconds;
    const double backwardCompute = backward - cost.transferOutSeconds;
    const StageTransfers transfers =
        stageTransfers(model, cost, chunks, extra, forwardCompute, backwardCompute);
    stage.transferSeconds = transfers.forward + transfers.backward;
    stage.transferHiddenSeconds = transfers.hidden;
    if (transfers.overlapped) {
        stage.forwardSeconds = forwardCompute + transfers.forward;
        stage.backwardSeconds = transfers.backward + backwardCompute;
        stage.loadSeconds = stage.forwardSeconds + stage.backwardSeconds;
    } else {  // every transfer waited for, as priced since PHAZE (bit for bit)
        stage.forwardSeconds = cost.forwardSeconds + extra / 2;
        stage.backwardSeconds = extra / 2 + backward;
        stage.loadSeconds = extra + load;
    }
    stage.inFlightMicrobatches = choice.inFlight;
    stage.parameterBytes = cost.parameterBytes;
    stage.memory = model.memory(cost, choice.inFlight, recompute);
    feasible = choice.feasible;
    return stage;
}

// Where the slowest stage's time goes: its m microbatches split by its layers' work,
// recomputation and collectives (the rest of its load is the transfers in and out), the bubble,
// the data-parallel synchronisation and the optimizer step.
TimeBreakdown criticalBreakdown(const CostModel& model, const WidthGraph& graph,
                                const std::vector<int>& positions, const StagePlan& critical,
                                std::int64_t m, double bubbleSeconds, double syncSeconds,
                                double optimizerSeconds) {
    double work = 0, comm = 0, forwardWork = 0, forwardComm = 0, selectiveWork = 0;
    double rerunWork = 0, rerunComm = 0, hidden = 0, forwardHidden = 0;
    for (int p : positions) {
        hidden += graph.forwardHiddenComm(p) + graph.backwardHiddenComm(p);
        if (graph.recomputeForward(p) > 0) forwardHidden += graph.forwardHiddenComm(p);
        work += graph.forward(p) + graph.backward(p);
        comm += graph.forwardComm(p) + graph.backwardComm(p);
        forwardWork += graph.forward(p);
        forwardComm += graph.forwardComm(p);
        selectiveWork += graph.selectiveForward(p);
        rerunWork += graph.recomputeForward(p);
        rerunComm += graph.recomputeComm(p);
    }
    // Selective recomputation reruns attention cores only: no collectives among them.
    // The native model reruns checkpointed layers only; PHAZE's reruns the whole stage.
    const bool native = model.kind() == CostModelKind::Native;
    const double fullWork = native ? rerunWork : forwardWork;
    const double recomputeWork = critical.recompute            ? fullWork
                                 : critical.selectiveRecompute ? selectiveWork
                                                               : 0.0;
    const double recomputeComm = critical.recompute ? (native ? rerunComm : forwardComm) : 0.0;
    // ZeRO's per-microbatch gathers and reduce-scatters are data-parallel traffic. The native
    // model knows its transfers (none for a lone stage, not a rounding residue); PHAZE's are
    // the rest of the load.
    const StageCost cost = model.evaluateStage(graph, positions);
    const double zeroComm = cost.zeroCommSeconds;
    const double transfers =
        native ? critical.transferSeconds
               : std::max(0.0, critical.loadSeconds - (work + recomputeWork) - zeroComm);
    const double mm = double(m);
    TimeBreakdown b;
    b.computeSeconds = mm * (work - comm);
    b.recomputeSeconds = mm * (recomputeWork - recomputeComm);
    b.tensorParallelCommSeconds = mm * (comm + recomputeComm);
    b.pipelineP2pSeconds = mm * transfers;
    b.pipelineP2pHiddenSeconds = mm * critical.transferHiddenSeconds;
    b.pipelineBubbleSeconds = bubbleSeconds;
    b.dataParallelSyncSeconds = zeroComm > 0 ? syncSeconds + mm * zeroComm : syncSeconds;
    b.optimizerSeconds = optimizerSeconds;
    b.tensorParallelCommHiddenSeconds = mm * (hidden + (critical.recompute ? forwardHidden : 0.0));
    b.dataParallelHiddenSeconds = mm * cost.zeroHiddenSeconds;
    return b;
}

}  // namespace

bool PlanBuilder::stageFits(const CostModel& model, const StageCost& cost, std::int64_t position,
                            std::int64_t stages, std::int64_t d) {
    const Rounds r = roundsOf(model, d);
    return choiceFor(model, cost, position, stages, r.chunks, r.cap).feasible;
}

BuiltPlan PlanBuilder::build(const CostModel& model, const WidthGraph& graph, std::int64_t d,
                             const std::vector<std::vector<int>>& stagePositions,
                             bool everyStageUsesWidth, PlanDetail detail) {
    const bool full = detail == PlanDetail::Full;
    const PlacementProblem& problem = model.problem();
    BuiltPlan built;
    Plan& plan = built.plan;
    built.fits = true;
    const std::int64_t t = graph.tensorParallel();
    const std::int64_t stages = std::int64_t(stagePositions.size());
    const auto [m, cap, chunks] = roundsOf(model, d);
    plan.costModel = model.kind();
    plan.tensorParallel = t;
    plan.dataParallel = d;
    plan.microbatchSize = problem.training.microbatch;
    plan.globalBatch = problem.training.globalBatch;
    plan.microbatchesPerPipeline = m;
    plan.recompute = problem.training.recompute;
    plan.sequenceParallel = problem.training.sequenceParallel == hardware::SequenceParallel::On;
    plan.interleave = chunks;
    plan.zero = problem.training.zero;

    double maxLoad = 0.0, largestBytes = 0.0;
    std::int64_t slowest = -1;  // the stage whose load is Lmax
    std::int64_t largest = -1;  // the stage with the most parameter bytes
    for (std::int64_t k = 0; k < stages; ++k) {
        const std::vector<int>& positions = stagePositions[std::size_t(k)];
        const StageCost cost = model.evaluateStage(graph, positions);
        const std::int64_t position = stages - k;
        bool feasible = true;
        StagePlan stage = stagePlanFor(model, graph, positions, cost, position, stages, chunks, cap,
                                       everyStageUsesWidth, feasible);
        if (!feasible && !full) {
            built.fits = false;
            return built;
        }
        if (!feasible && built.fits) {
            built.fits = false;
            built.reason =
                "stage " + std::to_string(k) + " (position " + std::to_string(position) + ", " +
                std::to_string(positions.size()) + " layers) does not fit in HBM with " +
                std::to_string(stage.inFlightMicrobatches) + " microbatches in flight: needs " +
                core::formatBytes(stage.memory.totalBytes) + ", capacity " +
                core::formatBytes(stage.memory.capacityBytes);
        }
        if (slowest < 0 || stage.loadSeconds > maxLoad) slowest = k;
        maxLoad = std::max(maxLoad, stage.loadSeconds);
        if (largest < 0 || cost.parameterBytes > largestBytes) largest = k;
        largestBytes = std::max(largestBytes, cost.parameterBytes);
        plan.devicesPerPipeline += stage.devices;
        plan.stages.push_back(std::move(stage));
    }
    const double totalLoad = stageLoadSum(plan.stages);
    const double syncBytes = model.syncRule() == SyncRule::FirstStage
                                 ? (plan.stages.empty() ? 0.0 : plan.stages.front().parameterBytes)
                                 : largestBytes;
    plan.devicesUsed = d * plan.devicesPerPipeline;
    plan.maxStageLoadSeconds = maxLoad;
    // The overlapped synchronisation hides behind the passes of the stage that sizes it.
    SyncWindow window;
    const std::int64_t sizing = model.syncRule() == SyncRule::FirstStage ? 0 : largest;
    if (sizing >= 0 && sizing < stages) {
        window.backwardSeconds = plan.stages[std::size_t(sizing)].backwardSeconds;
        window.forwardSeconds = plan.stages[std::size_t(sizing)].forwardSeconds;
    }
    // syncSeconds includes the optimizer step; the plan reports the two apart.
    const double afterBackward = model.syncSeconds(d, t, syncBytes, window);
    const double hiddenSync = model.hiddenSyncSeconds(d, t, syncBytes, window);
    plan.optimizerSeconds = model.stepSeconds(syncBytes);
    plan.syncSeconds =
        plan.optimizerSeconds > 0 ? afterBackward - plan.optimizerSeconds : afterBackward;
    plan.pipelineSeconds =
        CostModel::pipelineSeconds(model.kind(), maxLoad, totalLoad, m, stages, chunks);
    plan.timePerBatchSeconds = plan.pipelineSeconds + afterBackward;
    plan.throughputSamplesPerSecond =
        plan.timePerBatchSeconds > 0
            ? double(problem.training.globalBatch) / plan.timePerBatchSeconds
            : std::numeric_limits<double>::infinity();
    // The slowest stage idles while the pipeline fills and drains; its share of the pipeline
    // (PHAZE's in PHAZE's form, (S − 1)/V steps of m + (S − 1)/V, bit for bit).
    const double bubbleSeconds =
        CostModel::fillDrainSeconds(model.kind(), maxLoad, totalLoad, stages, chunks);
    if (model.kind() == CostModelKind::Native) {
        plan.bubbleFraction = plan.pipelineSeconds > 0 ? bubbleSeconds / plan.pipelineSeconds : 0.0;
    } else {
        const double bubbleSteps = double(stages - 1) / double(chunks);  // (S − 1)/V
        plan.bubbleFraction = stages > 0 ? bubbleSteps / (double(m) + bubbleSteps) : 0.0;
    }
    if (!full) {
        if (plan.devicesUsed > problem.cluster.devices) built.fits = false;
        return built;
    }
    if (slowest >= 0)
        plan.breakdown = criticalBreakdown(model, graph, stagePositions[std::size_t(slowest)],
                                           plan.stages[std::size_t(slowest)], m, bubbleSeconds,
                                           plan.syncSeconds, plan.optimizerSeconds);
    plan.breakdown.dataParallelHiddenSeconds += hiddenSync;
    plan.gemmRateOverPeak = problem.gemmRateOverPeak;
    const LayerCostSet* set = problem.width(t);
    if (set && set->trainingFlopsPerMicrobatch > 0) {
        plan.modelFlopsPerIteration =
            set->trainingFlopsPerMicrobatch * double(problem.microbatchesPerBatch());
        if (problem.peakFlopsPerSecond > 0 && plan.timePerBatchSeconds > 0 && plan.devicesUsed > 0)
            plan.mfu =
                plan.modelFlopsPerIteration /
                (plan.timePerBatchSeconds * double(plan.devicesUsed) * problem.peakFlopsPerSecond);
    }
    std::vector<double> stepBytes;
    for (const StagePlan& stage : plan.stages)
        stepBytes.push_back(model.stepSeconds(stage.parameterBytes) *
                            problem.memoryBandwidthBytesPerSecond);
    plan.activity = iterationActivity(plan, problem, stepBytes);
    if (problem.energyRates != energy::EnergyRates{})  // not priced (e.g. a PHAZE instance)
        plan.energy = energy::estimateEnergy(plan.activity, problem.energyRates);
    if (plan.devicesUsed > problem.cluster.devices && built.fits) {
        built.fits = false;
        built.reason = "the plan needs " + std::to_string(plan.devicesUsed) +
                       " devices (d = " + std::to_string(d) + " × " +
                       std::to_string(plan.devicesPerPipeline) +
                       " per pipeline), the cluster has " + std::to_string(problem.cluster.devices);
    }
    assignDevices(plan, problem.cluster.devices);
    return built;
}

}  // namespace tandem::core::placement
