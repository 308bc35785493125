#include "core/placement/phaze_cost_model.h"

#include <algorithm>
#include <cmath>

namespace tandem::core::placement {

PhazeCostModel::PhazeCostModel(const PlacementProblem& problem, int exactOrderLayers)
    : CostModel(problem),
      exactOrderLayers_(exactOrderLayers),
      bandwidth_(problem.cluster.interNodeBandwidthBytesPerSecond),
      capacity_(problem.hbmCapacityBytes),
      devices_(problem.cluster.devices),
      adam_(problem.training.optimizer == hardware::Optimizer::Adam) {}

std::int64_t PhazeCostModel::maxPosition(double c, double sigma) const {
    if (c + double(devices_ - 1) * sigma <= capacity_) return devices_;
    if (c > capacity_) return 0;
    return 1 + std::int64_t(std::floor((capacity_ - c) / sigma));
}

StageCost PhazeCostModel::finish(const Parts& p, std::int64_t t) const {
    StageCost c;
    c.forwardSeconds = p.fw;
    c.backwardSeconds = p.bw;
    c.backwardRecomputeSeconds = p.rb;
    c.loadSeconds = p.fw + p.bw;
    c.loadRecomputeSeconds = p.fw + p.rb;
    c.lowerBoundSeconds = p.fwp + p.bwp;
    c.parameterBytes = p.parameters;
    c.activationBytes = p.activations;
    c.stashBytesRecompute = p.stash;
    c.optimizerBytes = adam_ ? p.parameters : 0.0;
    const double fixed = (2.0 * p.parameters + c.optimizerBytes) + p.activations;
    c.maxInFlight = maxPosition(fixed, p.activations);
    c.maxInFlightRecompute = maxPosition(fixed, p.stash);
    c.oneDevice = t > 1 && !p.tensorParallel;
    return c;
}

void PhazeCostModel::evaluateRanges(const WidthGraph& g, int first, int lastLayer, bool untilUnfit,
                                    std::vector<StageCost>& out) const {
    const int n = g.size();
    Parts p;
    p.fw = first >= 1 ? g.pathBytes(first) / bandwidth_ : 0.0;
    p.stash = first >= 1 ? g.pathBytes(first) : 0.0;
    // PHAZE sums a stage's backward latencies from its last layer down, restarting for every
    // stage end: cubic in the chain's length. Up to kExactOrderLayers layers (PHAZE's own
    // instances have a few hundred) Tandem does the same, so that its results equal PHAZE's bit
    // for bit; longer chains keep a running sum (quadratic; equal up to rounding).
    const bool exactOrder = n <= exactOrderLayers_;
    double backward = 0.0;
    for (int j = first; j <= lastLayer; ++j) {
        p.fw += g.forward(j);
        p.fwp = j == first ? g.forward(j) : p.fwp + g.forward(j);
        p.parameters += g.parameters(j);
        p.activations += g.activations(j);
        p.tensorParallel = p.tensorParallel || g.tensorParallelLayer(j);
        const bool last = j == n - 1;
        const double y0 = last ? 0.0 : g.pathBytes(j + 1) / bandwidth_;
        p.bw = y0;
        p.rb = last ? p.fwp : std::max(p.fwp, y0);
        p.bwp = 0.0;
        if (exactOrder) {
            for (int v = j; v >= first; --v) {
                p.bw += g.backward(v);
                p.rb += g.backward(v);
                p.bwp += g.backward(v);
            }
        } else {
            backward += g.backward(j);
            p.bw += backward;
            p.rb += backward;
            p.bwp = backward;
        }
        out.push_back(finish(p, g.tensorParallel()));
        if (untilUnfit && !fitsSomewhere(out.back())) return;
    }
}

StageCost PhazeCostModel::evaluateSet(const WidthGraph& g, std::span<const int> members,
                                      const std::vector<char>& inStage) const {
    if (g.chainLike()) {
        // Downsets of a chain-like graph are prefixes, so members form a range: price it the
        // way PHAZE does (path edges only) rather than by the branching generalisation.
        std::vector<StageCost> ranges;
        evaluateRanges(g, members.front(), members.back(), false, ranges);
        return ranges.back();
    }
    double inBytes = 0.0, outBytes = 0.0;
    bool leaves = false;
    for (int v : members) {
        for (int e : g.inEdges(v)) {
            const WidthGraph::Edge& edge = g.edges()[std::size_t(e)];
            if (!inStage[std::size_t(edge.from)]) inBytes += edge.bytes;
        }
    }
    for (int v : members)
        for (int e : g.outEdges(v)) {
            const WidthGraph::Edge& edge = g.edges()[std::size_t(e)];
            if (!inStage[std::size_t(edge.to)]) {
                outBytes += edge.bytes;
                leaves = true;
            }
        }
    Parts p;
    p.fw = inBytes / bandwidth_;
    p.stash = inBytes;
    bool firstMember = true;
    for (int v : members) {
        p.fw += g.forward(v);
        p.fwp = firstMember ? g.forward(v) : p.fwp + g.forward(v);
        firstMember = false;
        p.parameters += g.parameters(v);
        p.activations += g.activations(v);
        p.tensorParallel = p.tensorParallel || g.tensorParallelLayer(v);
    }
    const double y0 = leaves ? outBytes / bandwidth_ : 0.0;
    p.bw = y0;
    p.rb = leaves ? std::max(p.fwp, y0) : p.fwp;
    for (auto it = members.rbegin(); it != members.rend(); ++it) {
        p.bw += g.backward(*it);
        p.rb += g.backward(*it);
        p.bwp += g.backward(*it);
    }
    return finish(p, g.tensorParallel());
}

MemoryBreakdown PhazeCostModel::memory(const StageCost& c, std::int64_t inFlight,
                                       StageRecompute mode) const {
    const bool recompute = mode == StageRecompute::Full;  // PHAZE has no selective option
    MemoryBreakdown m;
    m.weightsBytes = c.parameterBytes;
    m.gradientsBytes = c.parameterBytes;
    m.optimizerBytes = c.optimizerBytes;
    m.activationsBytes = c.activationBytes;
    const double sigma = recompute ? c.stashBytesRecompute : c.activationBytes;
    m.stashBytesPerMicrobatch = sigma;
    m.stashBytes = double(inFlight - 1) * sigma;
    m.totalBytes = ((2.0 * c.parameterBytes + c.optimizerBytes) + c.activationBytes) + m.stashBytes;
    m.capacityBytes = capacity_;
    m.freeBytes = capacity_ - m.totalBytes;
    return m;
}

double PhazeCostModel::syncSeconds(std::int64_t d, std::int64_t, double syncBytes,
                                   SyncWindow) const {
    return ((4.0 * double(d - 1)) * syncBytes / bandwidth_) / double(d);
}

}  // namespace tandem::core::placement
