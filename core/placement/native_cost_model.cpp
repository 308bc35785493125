#include "core/placement/native_cost_model.h"

#include <algorithm>
#include <cmath>

namespace tandem::core::placement {

NativeCostModel::NativeCostModel(const PlacementProblem& problem, std::int64_t dataParallel)
    : CostModel(problem),
      pointToPointBandwidth_((problem.cluster.devices <= problem.cluster.devicesPerNode
                                  ? problem.cluster.intraNodeBandwidthBytesPerSecond
                                  : problem.cluster.interNodeBandwidthBytesPerSecond) *
                             problem.cluster.collectiveEfficiency),
      latency_(problem.cluster.hopLatencySeconds),
      capacity_(problem.hbmCapacityBytes),
      devices_(problem.cluster.devices),
      adamFactor_(problem.training.optimizer == hardware::Optimizer::Adam
                      ? 16.0 / double(problem.bytesPerElement) - 2.0
                      : 0.0),
      stepTraffic_(problem.training.optimizer == hardware::Optimizer::Adam
                       ? 32.0 / double(problem.bytesPerElement) + 2.0
                       : 5.0),
      fp8CopyFactor_(problem.fp8WeightCopies ? 2.0 / double(problem.bytesPerElement) : 0.0),
      gatherBandwidth_(problem.cluster.intraNodeBandwidthBytesPerSecond *
                       problem.cluster.collectiveEfficiency),
      scatterGather_(problem.training.sequenceParallel != hardware::SequenceParallel::On),
      zero_(dataParallel > 1 ? problem.training.zero : 0),
      shards_(dataParallel > 1 ? dataParallel : 1),
      gradientFactor_(problem.gradientBytesFactor(zero_)) {}

double NativeCostModel::transfer(double bytes, std::int64_t t) const {
    if (!(bytes > 0)) return 0.0;
    if (t <= 1 || !scatterGather_) return bytes / pointToPointBandwidth_ + latency_;
    // Megatron's scatter/gather: each of the t ranks sends its 1/t of the (replicated)
    // activation on its own link, and the receiving ranks all-gather it inside their node.
    const double tt = double(t);
    const double send = (bytes / tt) / pointToPointBandwidth_ + latency_;
    const double gather = (tt - 1.0) / tt * bytes / gatherBandwidth_ + (tt - 1.0) * latency_ +
                          problem_.cluster.collectiveLatencySeconds;
    return send + gather;
}

// Largest k in [1, devices] with base + (k − offset)·perMicrobatch ≤ capacity, or 0 when k = 1
// does not fit. The closed form is only a starting guess: the final answer is decided by the
// same expression memory() reports, so feasibility and the breakdown never disagree.
std::int64_t NativeCostModel::largestFit(double base, double perMicrobatch,
                                         std::int64_t offset) const {
    const auto total = [&](std::int64_t k) { return base + double(k - offset) * perMicrobatch; };
    if (!(total(1) <= capacity_)) return 0;
    if (!(perMicrobatch > 0) || total(devices_) <= capacity_) return devices_;
    const double guess = std::floor((capacity_ - base) / perMicrobatch) + double(offset);
    std::int64_t k = guess < 1 ? 1 : guess > double(devices_) ? devices_ : std::int64_t(guess);
    while (k > 1 && !(total(k) <= capacity_)) --k;
    while (k < devices_ && total(k + 1) <= capacity_) ++k;
    return k;
}

void NativeCostModel::addSelective(Sums& s, const WidthGraph& g, int p) {
    s.selective += g.selectiveActivations(p);
    s.selectiveForward += g.selectiveForward(p);
    s.largestDiscarded = std::max(s.largestDiscarded, g.activations(p) - g.selectiveActivations(p));
}

StageCost NativeCostModel::finish(const Sums& s, std::int64_t t) const {
    StageCost c;
    // A stage without tensor-parallel layers runs on one device and sends whole activations.
    const std::int64_t shards = s.tensorParallel ? t : 1;
    const double x = transfer(s.inBytes, shards);
    const double y = transfer(s.outBytes, shards);
    // ZeRO 2 and 3: one reduce-scatter or all-gather of the stage's parameters, per pass,
    // hidden behind that pass as far as the overlap the training asks for allows.
    const double gather = zero_ >= 2 ? (1.0 - problem_.cluster.dataParallelOverlap) *
                                           ((double(shards_ - 1) / double(shards_)) * s.parameters /
                                                problem_.cluster.dataParallelBandwidth(shards_, t) +
                                            double(shards_ - 1) * latency_)
                                     : 0.0;
    const hardware::TrainingConfig& training = problem_.training;
    const estimate::Overlap forwardGather =
        overlapped(zero_ >= 3 ? gather : 0.0, s.forward, s.parameters, training.overlapParamGather);
    const estimate::Overlap reduce =
        overlapped(gather, s.backward, s.parameters, training.overlapGradReduce);
    const estimate::Overlap backwardGather = overlapped(zero_ >= 3 ? gather : 0.0, s.backward,
                                                        s.parameters, training.overlapParamGather);
    const double backwardZero = reduce.exposedSeconds + backwardGather.exposedSeconds;
    c.zeroCommSeconds = forwardGather.exposedSeconds + backwardZero;
    c.zeroHiddenSeconds =
        forwardGather.hiddenSeconds + reduce.hiddenSeconds + backwardGather.hiddenSeconds;
    c.forwardSeconds = zero_ >= 3 ? (x + s.forward) + forwardGather.exposedSeconds : x + s.forward;
    c.backwardSeconds = zero_ >= 2 ? (y + s.backward) + backwardZero : y + s.backward;
    c.backwardRecomputeSeconds = c.backwardSeconds + s.recompute;
    c.backwardSelectiveSeconds = c.backwardSeconds + s.selectiveForward;
    c.loadSelectiveSeconds = c.forwardSeconds + c.backwardSelectiveSeconds;
    c.transferInSeconds = x;
    c.transferOutSeconds = y;
    c.loadSeconds = c.forwardSeconds + c.backwardSeconds;
    c.loadRecomputeSeconds = c.forwardSeconds + c.backwardRecomputeSeconds;
    c.lowerBoundSeconds = s.forward + s.backward;
    c.parameterBytes = s.parameters;
    c.activationBytes = s.activations;
    c.stashBytesRecompute = s.stash;
    c.activationBytesRecompute = s.largestActivations;
    const State held = stateOf(s.parameters, s.largestParameters);
    c.optimizerBytes = held.optimizerBytes;
    c.gradientBytesHeld = held.gradientBytesHeld;
    c.weightBytesHeld = held.weightBytesHeld;
    c.fp8WeightBytes = held.fp8WeightBytes;
    const double state = held.total;
    c.maxInFlight = largestFit(state + s.activations, s.activations, 1);
    c.maxInFlightRecompute = largestFit(state + s.largestActivations, s.stash, 0);
    c.activationBytesSelective = s.selective;
    c.transientBytesSelective = s.largestDiscarded;
    c.maxInFlightSelective = largestFit(state + s.largestDiscarded + s.selective, s.selective, 1);
    c.oneDevice = t > 1 && !s.tensorParallel;
    return c;
}

NativeCostModel::State NativeCostModel::stateOf(double parameters, double largest) const {
    State h;
    const double d = double(shards_);
    h.optimizerBytes = zero_ >= 1 ? parameters * adamFactor_ / d : parameters * adamFactor_;
    h.gradientBytesHeld =
        zero_ >= 2 ? std::min(parameters, parameters / d + largest) : parameters * gradientFactor_;
    h.weightBytesHeld =
        zero_ >= 3 ? std::min(parameters, parameters / d + 2.0 * largest) : parameters;
    h.fp8WeightBytes = h.weightBytesHeld * fp8CopyFactor_;
    h.total = ((h.weightBytesHeld + h.gradientBytesHeld) + h.optimizerBytes) + h.fp8WeightBytes;
    return h;
}

// Every largestFit of finish() first asks total(1) ≤ capacity, and total(1) adds non-negative
// bytes to the state: a state above capacity leaves every maxInFlight at 0.
bool NativeCostModel::stateExceedsCapacity(double parameters, double largest) const {
    return !(stateOf(parameters, largest).total <= capacity_);
}

// Adds member v's own sums (everything but the bytes crossing the stage's boundary).
void NativeCostModel::addMember(Sums& s, const WidthGraph& g, int v) {
    s.forward += g.forward(v);
    s.recompute += g.recomputeForward(v);
    s.backward += g.backward(v);
    s.parameters += g.parameters(v);
    s.activations += g.activations(v);
    s.largestActivations = std::max(s.largestActivations, g.activations(v));
    s.largestParameters = std::max(s.largestParameters, g.parameters(v));
    addSelective(s, g, v);
    s.tensorParallel = s.tensorParallel || g.tensorParallelLayer(v);
    s.stash += g.recomputeStash(v);
}

// finish() for a stage; one of every layer holds each tied weight once, its owner's copy (the
// stage costs and the strategy floors both subtract the tied copies from the sum in position
// order).
StageCost NativeCostModel::finishStage(Sums s, const WidthGraph& g, bool everyLayer) const {
    if (everyLayer) s.parameters -= g.tiedParameters();
    return finish(s, g.tensorParallel());
}

// Adds layer j to the sums of the range first..j − 1 (all but the outgoing bytes).
void NativeCostModel::extend(Sums& s, const WidthGraph& g, int first, int j) {
    addMember(s, g, j);
    for (int e : g.inEdges(j)) {
        const WidthGraph::Edge& edge = g.edges()[std::size_t(e)];
        if (edge.from < first) s.inBytes += edge.bytes;
    }
}

// The bytes the range first..last sends to later layers, in the same summation order as
// evaluateSet: members ascending, edges in problem order.
double NativeCostModel::outgoingBytes(const WidthGraph& g, int first, int last) {
    double bytes = 0.0;
    if (g.pureChain()) {
        if (last + 1 < g.size()) bytes += g.pathBytes(last + 1);
        return bytes;
    }
    for (int v = first; v <= last; ++v)
        for (int e : g.outEdges(v)) {
            const WidthGraph::Edge& edge = g.edges()[std::size_t(e)];
            if (edge.to > last) bytes += edge.bytes;
        }
    return bytes;
}

void NativeCostModel::evaluateRanges(const WidthGraph& g, int first, int lastLayer, bool untilUnfit,
                                     std::vector<StageCost>& out) const {
    Sums s;
    for (int j = first; j <= lastLayer; ++j) {
        extend(s, g, first, j);
        s.outBytes = outgoingBytes(g, first, j);
        out.push_back(finishStage(s, g, first == 0 && j + 1 == g.size()));
        if (untilUnfit && !fitsSomewhere(out.back())) return;
    }
}

StageCost NativeCostModel::evaluateRange(const WidthGraph& g, int first, int last) const {
    Sums s;
    for (int j = first; j <= last; ++j) extend(s, g, first, j);
    s.outBytes = outgoingBytes(g, first, last);
    return finishStage(s, g, first == 0 && last + 1 == g.size());
}

StageCost NativeCostModel::evaluateSet(const WidthGraph& g, std::span<const int> members,
                                       const std::vector<char>& inStage) const {
    Sums s;
    for (int v : members) {
        addMember(s, g, v);
        for (int e : g.inEdges(v)) {
            const WidthGraph::Edge& edge = g.edges()[std::size_t(e)];
            if (!inStage[std::size_t(edge.from)]) s.inBytes += edge.bytes;
        }
    }
    for (int v : members)
        for (int e : g.outEdges(v)) {
            const WidthGraph::Edge& edge = g.edges()[std::size_t(e)];
            if (!inStage[std::size_t(edge.to)]) s.outBytes += edge.bytes;
        }
    return finishStage(s, g, members.size() == std::size_t(g.size()));
}

MemoryBreakdown NativeCostModel::memory(const StageCost& c, std::int64_t inFlight,
                                        StageRecompute recompute) const {
    MemoryBreakdown m;
    m.weightsBytes = c.weightBytesHeld + c.fp8WeightBytes;  // with fp8: the fp8 copies too
    m.gradientsBytes = c.gradientBytesHeld;
    m.optimizerBytes = c.optimizerBytes;
    switch (recompute) {
        case StageRecompute::Full:
            m.activationsBytes = c.activationBytesRecompute;
            m.stashBytesPerMicrobatch = c.stashBytesRecompute;
            m.stashBytes = double(inFlight) * c.stashBytesRecompute;
            break;
        case StageRecompute::Selective:
            m.activationsBytes = c.transientBytesSelective + c.activationBytesSelective;
            m.stashBytesPerMicrobatch = c.activationBytesSelective;
            m.stashBytes = double(inFlight - 1) * c.activationBytesSelective;
            break;
        case StageRecompute::None:
            m.activationsBytes = c.activationBytes;
            m.stashBytesPerMicrobatch = c.activationBytes;
            m.stashBytes = double(inFlight - 1) * c.activationBytes;
            break;
    }
    m.totalBytes = (((m.weightsBytes + m.gradientsBytes) + m.optimizerBytes) + m.activationsBytes) +
                   m.stashBytes;
    m.capacityBytes = capacity_;
    m.freeBytes = capacity_ - m.totalBytes;
    return m;
}

double NativeCostModel::stepSeconds(double parameterBytes) const {
    const double bandwidth = problem_.memoryBandwidthBytesPerSecond;
    if (!(bandwidth > 0)) return 0.0;
    // ZeRO ≥ 1: each replica steps its 1/d of the parameters.
    return zero_ >= 1 ? parameterBytes / double(shards_) * stepTraffic_ / bandwidth
                      : parameterBytes * stepTraffic_ / bandwidth;
}

std::int64_t NativeCostModel::buckets(double parameterBytes) const {
    // Megatron-Core's default bucket: max(40 M, 1 M × d) parameters.
    const double bucket = std::max(4.0e7, 1.0e6 * double(shards_));
    const double parameters = parameterBytes / double(problem_.bytesPerElement);
    return std::max<std::int64_t>(1, std::int64_t(std::ceil(parameters / bucket)));
}

estimate::Overlap NativeCostModel::overlapped(double comm, double window, double parameterBytes,
                                              bool overlap) const {
    if (!overlap) return {comm, 0.0};
    return estimate::pipelinedOverlap(comm, window, buckets(parameterBytes),
                                      problem_.collectiveComputeShare);
}

// ZeRO 0: one all-reduce of the gradients. ZeRO 1: a reduce-scatter of the gradients and an
// all-gather of the parameters (with fp32 gradients of bf16 training, 1.5 × the bf16 volume).
// ZeRO 2: the gradients were reduce-scattered every microbatch, the updated shards are
// all-gathered. ZeRO 3: nothing (the next forward gathers its layers). The reduction hides
// behind the backward pass (--overlap-grad-reduce), the gather behind the next forward pass
// (--overlap-param-gather).
estimate::Overlap NativeCostModel::syncParts(std::int64_t d, std::int64_t t, double syncBytes,
                                             SyncWindow window) const {
    if (d <= 1 || zero_ >= 3) return {};
    const double bandwidth = problem_.cluster.dataParallelBandwidth(d, t);
    const double kept = 1.0 - problem_.cluster.dataParallelOverlap;
    // One reduce-scatter or all-gather of `bytes`; the gradients' are gradientFactor_ times the
    // parameters' (fp32 gradients of bf16 training), the gathered parameters' are not.
    const auto half = [&](double bytes) {
        return kept * ((double(d - 1) / double(d)) * bytes / bandwidth + double(d - 1) * latency_);
    };
    const double gradientBytes = syncBytes * gradientFactor_;
    const hardware::TrainingConfig& training = problem_.training;
    if (zero_ == 0) {
        const double allReduce =
            kept * (((2.0 * double(d - 1)) / double(d)) * gradientBytes / bandwidth +
                    (2.0 * double(d - 1)) * latency_);
        return overlapped(allReduce, window.backwardSeconds, syncBytes, training.overlapGradReduce);
    }
    const estimate::Overlap reduce = zero_ == 1
                                         ? overlapped(half(gradientBytes), window.backwardSeconds,
                                                      syncBytes, training.overlapGradReduce)
                                         : estimate::Overlap{};
    const estimate::Overlap gather =
        overlapped(half(syncBytes), window.forwardSeconds, syncBytes, training.overlapParamGather);
    return {reduce.exposedSeconds + gather.exposedSeconds,
            reduce.hiddenSeconds + gather.hiddenSeconds};
}

double NativeCostModel::syncSeconds(std::int64_t d, std::int64_t t, double syncBytes,
                                    SyncWindow window) const {
    return syncParts(d, t, syncBytes, window).exposedSeconds + stepSeconds(syncBytes);
}

double NativeCostModel::hiddenSyncSeconds(std::int64_t d, std::int64_t t, double syncBytes,
                                          SyncWindow window) const {
    return syncParts(d, t, syncBytes, window).hiddenSeconds;
}

}  // namespace tandem::core::placement
