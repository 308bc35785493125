#pragma once
// Tandem's own placement cost model (ARCHITECTURE.md §2.6), in consistent SI units. For a
// stage V of width t (sums over the members in ascending topological position, from 0.0):
//   F = Σ forward, B = Σ backward, P = Σ parameter bytes, A = Σ activation bytes;
//   in  = Σ bytes of edges entering V, out = Σ bytes of edges leaving V (members ascending,
//         each member's edges in problem order);
//   σ   = Σ stashBytesRecompute of the members that have no predecessor or one outside V (the
//         layers whose input the stage must keep to recompute its forward pass).
// Point-to-point transfers go at the inter-node bandwidth (intra-node only when the whole
// cluster is one node: with the layout below, pipeline neighbours sit d·devices apart), each
// message paying one hop latency: x = in/bw + lat (0 if in = 0), y = out/bw + lat.
//   forward = x + F;  backward = y + B;  backward with recompute = backward + F;
//   load = forward + backward (the stage's share of one 1F1B step for one microbatch).
// Memory per device (bpe = bytes per element of weights and gradients):
//   weights P, gradients P, optimizer O = 0 for SGD, P·(16/bpe − 2) for mixed-precision Adam
//   (16 bytes per parameter in all: weights, gradients, fp32 master copy and two moments);
//   the stage at position s holds k = min(s, m) microbatches (1F1B);
//   total = (((P + P) + O) + A) + stash, stash = (k − 1)·A without recompute, k·σ with it
//   (all k stashed inputs plus one microbatch's full activations during its backward). The last
//   stage never recomputes: its one microbatch is still resident when its backward starts.
// Recompute Auto decides per stage (no recompute when it fits, which is never slower).
// Device layout: tensor-parallel ranks innermost (a group of t ≤ devicesPerNode stays in one
// node), then the d data-parallel replicas, then the stages. The gradient all-reduce is a ring
// over the d replicas of every shard, all stages at once, so the stage with the most parameter
// bytes Pmax decides: sync = 2(d−1)/d · Pmax / bw + 2(d−1)·lat, bw = the bandwidth of a group of
// d·t consecutive devices (ClusterConfig::groupBandwidthBytesPerSecond); 0 when d = 1.
// TPB = Lmax·(m + S − 1) + sync, throughput = globalBatch / TPB.
#include "core/placement/cost_model.h"

namespace tandem::core::placement {

class NativeCostModel final : public CostModel {
public:
    explicit NativeCostModel(const PlacementProblem& problem);

    CostModelKind kind() const override { return CostModelKind::Native; }
    SyncRule syncRule() const override { return SyncRule::LargestStage; }
    bool capsInFlightAtMicrobatches() const override { return true; }

    void evaluateRanges(const WidthGraph& graph, int first,
                        std::vector<StageCost>& out) const override;
    StageCost evaluateSet(const WidthGraph& graph, std::span<const int> members,
                          const std::vector<char>& inStage) const override;
    MemoryBreakdown memory(const StageCost& cost, std::int64_t inFlight,
                           bool recompute) const override;
    double syncSeconds(std::int64_t d, std::int64_t t, double syncBytes) const override;

private:
    struct Sums {
        double forward = 0, backward = 0, parameters = 0, activations = 0, stash = 0;
        double inBytes = 0, outBytes = 0;
        bool tensorParallel = false;
    };
    StageCost finish(const Sums& sums, std::int64_t t) const;
    double transfer(double bytes) const;
    std::int64_t largestFit(double fixed, double perMicrobatch, std::int64_t firstK) const;

    double pointToPointBandwidth_ = 1;
    double latency_ = 0;
    double capacity_ = 0;
    std::int64_t devices_ = 1;
    double adamFactor_ = 0;  // optimizer bytes per weight byte
};

}  // namespace tandem::core::placement
