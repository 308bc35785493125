#pragma once
// The interface the placement solver prices plans through. A cost model turns a candidate stage
// (a contiguous range of a chain-like graph, or a set of layers of a general DAG) into a
// StageCost: its loads with and without recomputation, how many microbatches it can hold in
// flight in HBM, how many devices it occupies and the bytes it synchronises across data-parallel
// replicas. The position rule (chooseStage) and the final combination (pipelineSeconds + sync)
// are shared, so the solver, the plan builder and the fixed baseline all price a stage with the
// same doubles. Two implementations: NativeCostModel (SI,
// ARCHITECTURE.md §2.6) and PhazeCostModel (PHAZE's placement DP program, bit for bit; §2.7).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "core/hardware/accelerator_config.h"
#include "core/hardware/training_config.h"
#include "core/placement/cost_model_kind.h"
#include "core/placement/placement_problem.h"
#include "core/placement/plan.h"
#include "core/placement/width_graph.h"

namespace tandem::core::placement {

// Which stage sizes the data-parallel synchronisation: the largest parameter bytes of any stage
// (native gradient all-reduce) or those of the first stage (PHAZE's weight resync).
enum class SyncRule { LargestStage, FirstStage };

struct StageCost {
    double forwardSeconds = 0;              // with the incoming transfer
    double backwardSeconds = 0;             // with the incoming gradient transfer
    double backwardRecomputeSeconds = 0;    // backward that first recomputes the forward pass
    double loadSeconds = 0;                 // forward + backward
    double loadRecomputeSeconds = 0;        // forward + backwardRecompute
    double lowerBoundSeconds = 0;           // ≤ both loads; grows with a chain stage
    std::int64_t maxInFlight = 0;           // microbatches in flight that fit, no recompute
    std::int64_t maxInFlightRecompute = 0;  // same with recompute (0: not even one fits)
    double parameterBytes = 0;              // per device; the sync size
    double activationBytes = 0;             // one microbatch's activations
    double stashBytesRecompute = 0;         // kept per in-flight microbatch under recompute
    double activationBytesRecompute = 0;    // native: one layer's activations, recomputed during
                                            // its backward (PHAZE: unused)
    // Selective recomputation (native; PHAZE has none: maxInFlightSelective = 0).
    double backwardSelectiveSeconds = 0;    // backward that first reruns the attention cores
    double loadSelectiveSeconds = 0;        // forward + backwardSelective
    std::int64_t maxInFlightSelective = 0;  // microbatches in flight that fit
    double activationBytesSelective = 0;    // what one in-flight microbatch keeps
    double transientBytesSelective = 0;     // one layer's recreated tensors during its backward
    // The point-to-point transfers in forwardSeconds and backwardSeconds (native; for the
    // interleaved schedule, which repeats them per model chunk).
    double transferInSeconds = 0;
    double transferOutSeconds = 0;
    double optimizerBytes = 0;  // optimizer state beyond weights and gradients
    double fp8WeightBytes = 0;  // fp8 copies of the weights (precision fp8)
    // Native, per device: the weights and gradients held (parameterBytes without ZeRO; with
    // it, the shards and the layers gathered or reduced at the moment), and the ZeRO
    // collectives in one microbatch's forwardSeconds + backwardSeconds.
    double weightBytesHeld = 0;
    double gradientBytesHeld = 0;
    double zeroCommSeconds = 0;
    double zeroHiddenSeconds = 0;  // of those collectives, what overlap hides (not in the times)
    bool oneDevice = false;        // no tensor-parallel layer: 1 device instead of t
};

// What the data-parallel synchronisation can hide behind with --overlap-grad-reduce and
// --overlap-param-gather: one microbatch's backward and forward pass of the stage whose
// parameters size the synchronisation (0: nothing to hide behind).
struct SyncWindow {
    double backwardSeconds = 0;
    double forwardSeconds = 0;
};

// A stage at a position: feasible or not, what it recomputes, and its effective load.
struct StageChoice {
    bool feasible = false;
    StageRecompute recompute = StageRecompute::None;
    std::int64_t inFlight = 0;
    double loadSeconds = 0;
};

// A stage that does not fit even as the last stage fits nowhere, and neither does any larger one.
inline bool fitsSomewhere(const StageCost& c) {
    return c.maxInFlight > 0 || c.maxInFlightRecompute > 0 || c.maxInFlightSelective > 0;
}

inline constexpr std::int64_t kNoInFlightCap = std::numeric_limits<std::int64_t>::max();

// The stage at `position` (stages from it to the end, inclusive) holds k = min(position, cap)
// microbatches in flight (1F1B; an interleaved schedule passes its own count as `position`).
// Off: no recompute, feasible iff k ≤ maxInFlight. On: every stage recomputes and needs
// k ≤ maxInFlightRecompute — except the last (position 1) when `lastStageRecomputes` is false
// (PHAZE's rule: its one microbatch is still resident). Selective: every stage reruns its
// attention cores and needs k ≤ maxInFlightSelective. Auto: per stage, the first that fits of
// no recompute, selective, full (each is never faster than the one before; PHAZE's stages have
// no selective option).
inline StageChoice chooseStage(const StageCost& cost, std::int64_t position,
                               std::int64_t inFlightCap, hardware::Recompute mode,
                               bool lastStageRecomputes = false) {
    using hardware::Recompute;
    const std::int64_t k = position < inFlightCap ? position : inFlightCap;
    const bool exempt = position == 1 && !lastStageRecomputes;
    const bool plain = mode == Recompute::Off || mode == Recompute::Auto || exempt;
    const bool selective = mode == Recompute::Selective || (mode == Recompute::Auto && !exempt);
    const bool full = (mode == Recompute::On || mode == Recompute::Auto) && !exempt;
    if (plain && k <= cost.maxInFlight) return {true, StageRecompute::None, k, cost.loadSeconds};
    if (selective && k <= cost.maxInFlightSelective)
        return {true, StageRecompute::Selective, k, cost.loadSelectiveSeconds};
    if (full && k <= cost.maxInFlightRecompute)
        return {true, StageRecompute::Full, k, cost.loadRecomputeSeconds};
    return {false, StageRecompute::None, k, 0.0};
}

// The recomputation a stage that does not fit is reported with: what `mode` asks of it.
inline StageRecompute intendedRecompute(hardware::Recompute mode, bool exempt) {
    if (exempt) return StageRecompute::None;
    if (mode == hardware::Recompute::On) return StageRecompute::Full;
    if (mode == hardware::Recompute::Selective) return StageRecompute::Selective;
    return StageRecompute::None;
}

class CostModel {
public:
    explicit CostModel(const PlacementProblem& problem) : problem_(problem) {}
    virtual ~CostModel() = default;
    CostModel(const CostModel&) = delete;
    CostModel& operator=(const CostModel&) = delete;

    virtual CostModelKind kind() const = 0;
    virtual SyncRule syncRule() const = 0;
    // Native: a stage holds min(position, m) microbatches; PHAZE: always `position`.
    virtual bool capsInFlightAtMicrobatches() const = 0;
    // Native: recompute "on" applies to every stage (Megatron); PHAZE: never to the last one.
    virtual bool lastStageRecomputes() const = 0;
    // Native: a stage of every layer holds each tied weight once (LayerCost::tiedParameterBytes);
    // PHAZE: every copy counts.
    virtual bool holdsTiedWeightsOnce() const = 0;

    // Chain-like graphs: the stages first..j for j = first, first + 1, …, last, appended to
    // `out` in that order; with untilUnfit, only up to the first that fits nowhere (every longer
    // range fits nowhere either), which is appended too. Each cost is the same whatever last and
    // untilUnfit are.
    virtual void evaluateRanges(const WidthGraph& graph, int first, int last, bool untilUnfit,
                                std::vector<StageCost>& out) const = 0;
    // The range first..last alone: evaluateRanges(first, last)'s last cost, bit for bit (a
    // model may compute it without the shorter ranges).
    virtual StageCost evaluateRange(const WidthGraph& graph, int first, int last) const {
        std::vector<StageCost> ranges;
        evaluateRanges(graph, first, last, false, ranges);
        return ranges.back();
    }
    // General DAGs: the stage made of `members` (ascending positions, non-empty); inStage[p]
    // is non-zero exactly for the members.
    virtual StageCost evaluateSet(const WidthGraph& graph, std::span<const int> members,
                                  const std::vector<char>& inStage) const = 0;
    // Memory of one device of the stage holding `inFlight` microbatches.
    virtual MemoryBreakdown memory(const StageCost& cost, std::int64_t inFlight,
                                   StageRecompute recompute) const = 0;
    // What follows the last backward pass, for d replicas of a width-t pipeline sized by
    // syncBytes: the exposed data-parallel synchronisation, then (native) the optimizer step
    // of the stage holding the most parameter bytes — stepSeconds(syncBytes) of it.
    // With a window, the overlap the training asks for hides part of it (native).
    virtual double syncSeconds(std::int64_t d, std::int64_t t, double syncBytes,
                               SyncWindow window = {}) const = 0;
    // Of the synchronisation, what the overlap hid behind `window` (0 without overlap).
    virtual double hiddenSyncSeconds(std::int64_t, std::int64_t, double, SyncWindow) const {
        return 0;
    }
    // The optimizer step of a device holding `parameterBytes` (PHAZE: not modelled, 0).
    virtual double stepSeconds(double parameterBytes) const = 0;
    // True when a stage whose members hold `parameterBytes` in all (summed in position order,
    // as the stage costs sum them), at most `largestLayerParameterBytes` in one, cannot hold a
    // single microbatch whatever it recomputes because its weights, gradients and optimizer
    // state alone exceed HBM. Then every maxInFlight of that stage is 0 (not conversely: the
    // activations may be what does not fit), so a strategy choice may skip the strategy
    // unpriced. PHAZE: never (a cheap test of its memory is not worth having).
    virtual bool stateExceedsCapacity(double /*parameterBytes*/,
                                      double /*largestLayerParameterBytes*/) const {
        return false;
    }

    // PHAZE's TPB = Lmax · (m + S − 1) + sync, the product formed first (pipelineSeconds).
    static double timePerBatch(double maxLoad, std::int64_t microbatches, std::int64_t stages,
                               double sync) {
        return maxLoad * double(microbatches + stages - 1) + sync;
    }
    // Interleaved 1F1B with V chunks per device: TPB = Lmax · (m + (S − 1)/V) + sync (V = 1
    // is the plain formula above, bit for bit).
    static double timePerBatch(double maxLoad, std::int64_t microbatches, std::int64_t stages,
                               double sync, std::int64_t chunks) {
        if (chunks <= 1) return timePerBatch(maxLoad, microbatches, stages, sync);
        return maxLoad * (double(microbatches) + double(stages - 1) / double(chunks)) + sync;
    }

    // The 1F1B pipeline of S stages with loads L_k (Lmax the largest, ΣL their sum, summed from
    // the last stage to the first as the placement DP does), m microbatches, V chunks per stage:
    //  - native: m·Lmax + (ΣL − Lmax)/V. The slowest stage runs its m loads back to back; before
    //    its first forward and after its last backward the pipeline fills and drains through the
    //    other stages once, at their own loads (in V-th parts when interleaved). DAPPLE (Fan et
    //    al., PPoPP 2021) and Alpa (Zheng et al., OSDI 2022) price 1F1B so; the schedule's
    //    simulation (pipeline_timeline.h) takes exactly this when the last stage is the slowest
    //    (Megatron's LM head puts the most work there), and at most this otherwise while no
    //    stage's backward is shorter than its forward. Equal loads give L·(m + (S − 1)/V).
    //  - phaze-compat: Lmax · (m + (S − 1)/V), every fill and drain step at the slowest stage's
    //    load (PHAZE's TPB), bit for bit timePerBatch(…, 0, V).
    // Non-decreasing in Lmax and in ΣL, so lower bounds of both give a lower bound of the time.
    static double pipelineSeconds(CostModelKind kind, double maxLoad, double totalLoad,
                                  std::int64_t microbatches, std::int64_t stages,
                                  std::int64_t chunks = 1) {
        if (kind == CostModelKind::PhazeCompat)
            return timePerBatch(maxLoad, microbatches, stages, 0.0, chunks);
        return double(microbatches) * maxLoad +
               fillDrainSeconds(kind, maxLoad, totalLoad, stages, chunks);
    }
    // The fill and drain in pipelineSeconds, which the slowest stage idles through (the bubble):
    // native (ΣL − Lmax)/V, phaze-compat (S − 1)/V · Lmax.
    static double fillDrainSeconds(CostModelKind kind, double maxLoad, double totalLoad,
                                   std::int64_t stages, std::int64_t chunks = 1) {
        const double v = double(std::max<std::int64_t>(1, chunks));
        if (kind == CostModelKind::PhazeCompat) return double(stages - 1) / v * maxLoad;
        return std::max(0.0, totalLoad - maxLoad) / v;
    }

    // Any stage given by its ascending positions: a range of a chain-like graph is priced by
    // evaluateRanges (so plans repeat the solver's doubles), other sets by evaluateSet; an empty
    // stage (a fixed baseline can make one) costs nothing and always fits.
    StageCost evaluateStage(const WidthGraph& graph, std::span<const int> members) const;

    const PlacementProblem& problem() const { return problem_; }

protected:
    const PlacementProblem& problem_;
};

// `dataParallel`: the replicas a ZeRO stage (training.zero) shards over — known for a given
// strategy only; searches keep zero = 0 and the default.
std::unique_ptr<CostModel> makeCostModel(CostModelKind kind, const PlacementProblem& problem,
                                         std::int64_t dataParallel = 1);

// phaze-compat prices only what PHAZE has: refuses selective recomputation, sequence
// parallelism and interleaving with a message that says so; success for native.
Status supportsTraining(CostModelKind kind, const hardware::TrainingConfig& training);
// phaze-compat prices 2-byte GEMMs only (PHAZE has no fp8): refuses precision fp8.
Status supportsPrecision(CostModelKind kind, hardware::Precision precision);

}  // namespace tandem::core::placement
