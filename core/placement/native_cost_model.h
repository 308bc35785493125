#pragma once
// Tandem's own placement cost model (ARCHITECTURE.md §2.6), in consistent SI units. For a
// stage V of width t (sums over the members in ascending topological position, from 0.0):
//   F = Σ forward, B = Σ backward, P = Σ parameter bytes, A = Σ activation bytes;
//   in  = Σ bytes of edges entering V, out = Σ bytes of edges leaving V (members ascending,
//         each member's edges in problem order);
//   σ   = Σ of the members' stash under full recomputation (WidthGraph::recomputeStash: a
//         checkpointed layer keeps its input and is rerun one layer at a time; Megatron
//         checkpoints the transformer blocks only, so the embedding and the head keep their
//         activations and are not rerun);
//   R   = Σ recomputeForward: what rerunning the checkpointed members adds to the backward;
//   Amax = the largest member's activation bytes (held while that layer's backward runs).
// Point-to-point transfers go at the inter-node bandwidth (intra-node only when the whole
// cluster is one node: with the layout below, pipeline neighbours sit d·devices apart) times
// cluster.collectiveEfficiency, each message paying one hop latency: x = in/bw + lat (0 if
// in = 0), y = out/bw + lat. A stage of t > 1 tensor-parallel devices without sequence
// parallelism uses Megatron's scatter/gather: each rank sends 1/t of the replicated activation
// on its own link and the receivers all-gather it in their node:
// x = (in/t)/bw + lat + (t−1)/t·in/bw_intra + (t−1)·lat + collectiveLatency.
//   forward = x + F;  backward = y + B;  backward with recompute = backward + R;
//   load = forward + backward (the stage's share of one 1F1B step for one microbatch).
// Memory per device (bpe = bytes per element of weights and gradients):
//   weights P, gradients P, optimizer O = 0 for SGD, P·(16/bpe − 2) for mixed-precision Adam
//   (16 bytes per parameter in all: weights, gradients, fp32 master copy and two moments);
//   the stage at position s holds k = min(s, m) microbatches (1F1B);
//   total = (((P + P) + O) + A) + (k − 1)·A without recompute, (((P + P) + O) + Amax) + k·σ
//   with it (all k microbatches' checkpointed layer inputs plus one layer's activations during
//   its backward). Recompute On applies to every stage, the last included, as in Megatron-LM.
// Selective recomputation (Korthikanti et al. 2022): each microbatch keeps Σ of the members'
//   selective activations A_sel (their attention cores' s²-sized tensors dropped), the backward
//   first reruns the members' attention cores (Σ selectiveForward), and one member's dropped
//   tensors D_max are live again during its backward: total = (((P + P) + O) + D_max + A_sel)
//   + (k − 1)·A_sel. Auto decides per stage: no recompute, else selective, else full — the
//   first that fits (each is never faster than the one before).
// Device layout: tensor-parallel ranks innermost (a group of t ≤ devicesPerNode stays in one
// node), then the d data-parallel replicas, then the stages. The gradient all-reduce is a ring
// over the d replicas of every shard, all stages at once, so the stage with the most parameter
// bytes Pmax decides: sync = (1 − overlap)·(2(d−1)/d · Pmax / bw + 2(d−1)·lat), bw = what one
// ring achieves with one ring per NIC across nodes (ClusterConfig::dataParallelBandwidth),
// overlap = cluster.dataParallelOverlap; 0 when d = 1.
// The optimizer step is memory-bound: per parameter, SGD reads the weight and the gradient and
// writes the weight (3·bpe bytes); mixed-precision Adam reads the gradient, reads and writes the
// fp32 master weight and both moments and writes the weight (24 + 2·bpe bytes). Both first read
// the gradients once for the global norm Megatron clips them by and zero the gradient buffer
// after the step (Adam: its fp32 gradients, 4 + 4 bytes; SGD: 2·bpe): 32 + 2·bpe and 5·bpe
// bytes per parameter. Every device
// steps at once after the sync, so the one with the most parameter bytes Pmax decides:
// step = Pmax/bpe · bytes per parameter / (hbmBandwidth · hbmEfficiency) (0 when the bandwidth
// is not given). TPB = m·Lmax + ΣL − Lmax + sync + step (CostModel::pipelineSeconds),
// throughput = globalBatch / TPB.
// ZeRO stage z over d > 1 replicas (a model made for one d; docs/cost-model.md, "ZeRO"), with
// g = (1 − overlap)·((d−1)/d · P / bw + (d−1)·lat) one reduce-scatter or all-gather of the
// stage's parameter bytes: z ≥ 1 holds O/d and steps 1/d of the parameters, the sync being a
// reduce-scatter and an all-gather (the all-reduce's volume); z ≥ 2 holds min(P, P/d +
// Pmax_layer) of gradients and reduce-scatters them every microbatch (backward + g, sync = one
// all-gather); z = 3 holds min(P, P/d + 2·Pmax_layer) of weights (the layer computing and the
// one prefetched) and gathers them in every forward and backward pass (forward + g, backward +
// 2g: gather and reduce-scatter; sync = 0).
#include "core/estimate/comm_overlap.h"
#include "core/placement/cost_model.h"

namespace tandem::core::placement {

class NativeCostModel final : public CostModel {
public:
    // `dataParallel`: the replicas training.zero shards over (1: nothing is sharded).
    explicit NativeCostModel(const PlacementProblem& problem, std::int64_t dataParallel = 1);

    CostModelKind kind() const override { return CostModelKind::Native; }
    SyncRule syncRule() const override { return SyncRule::LargestStage; }
    bool capsInFlightAtMicrobatches() const override { return true; }
    bool lastStageRecomputes() const override { return true; }
    bool holdsTiedWeightsOnce() const override { return true; }

    void evaluateRanges(const WidthGraph& graph, int first, int last, bool untilUnfit,
                        std::vector<StageCost>& out) const override;
    StageCost evaluateRange(const WidthGraph& graph, int first, int last) const override;
    StageCost evaluateSet(const WidthGraph& graph, std::span<const int> members,
                          const std::vector<char>& inStage) const override;
    MemoryBreakdown memory(const StageCost& cost, std::int64_t inFlight,
                           StageRecompute recompute) const override;
    double syncSeconds(std::int64_t d, std::int64_t t, double syncBytes,
                       SyncWindow window = {}) const override;
    double hiddenSyncSeconds(std::int64_t d, std::int64_t t, double syncBytes,
                             SyncWindow window) const override;
    double stepSeconds(double parameterBytes) const override;
    bool stateExceedsCapacity(double parameterBytes,
                              double largestLayerParameterBytes) const override;

private:
    // A stage's weights, gradients, optimizer state and fp8 copies held on one device.
    struct State {
        double weightBytesHeld = 0, gradientBytesHeld = 0, optimizerBytes = 0, fp8WeightBytes = 0;
        double total = 0;
    };
    State stateOf(double parameterBytes, double largestLayerParameterBytes) const;
    struct Sums {
        double forward = 0, backward = 0, parameters = 0, activations = 0, stash = 0;
        double recompute = 0;           // forward seconds full recomputation reruns
        double largestActivations = 0;  // one member's
        double largestParameters = 0;   // one member's (ZeRO: what one gather holds)
        double selective = 0, selectiveForward = 0;
        double largestDiscarded = 0;  // one member's activations less what selective keeps
        double inBytes = 0, outBytes = 0;
        bool tensorParallel = false;
    };
    StageCost finish(const Sums& sums, std::int64_t t) const;
    static void addMember(Sums& s, const WidthGraph& g, int v);
    StageCost finishStage(Sums s, const WidthGraph& g, bool everyLayer) const;
    static void extend(Sums& s, const WidthGraph& g, int first, int j);
    static double outgoingBytes(const WidthGraph& g, int first, int last);
    static void addSelective(Sums& s, const WidthGraph& g, int position);
    double transfer(double bytes, std::int64_t t) const;
    std::int64_t largestFit(double fixed, double perMicrobatch, std::int64_t firstK) const;
    std::int64_t buckets(double parameterBytes) const;
    estimate::Overlap overlapped(double comm, double window, double parameterBytes,
                                 bool overlap) const;
    estimate::Overlap syncParts(std::int64_t d, std::int64_t t, double syncBytes,
                                SyncWindow window) const;

    double pointToPointBandwidth_ = 1;
    double latency_ = 0;
    double capacity_ = 0;
    std::int64_t devices_ = 1;
    double adamFactor_ = 0;       // optimizer bytes per weight byte
    double stepTraffic_ = 0;      // HBM bytes the optimizer step moves per weight byte
    double fp8CopyFactor_ = 0;    // fp8 weight-copy bytes per weight byte (precision fp8)
    double gatherBandwidth_ = 1;  // the all-gather of scatter/gather, inside a node
    bool scatterGather_ = true;   // without sequence parallelism (its activations are sharded)
    std::int64_t zero_ = 0;       // the ZeRO stage, 0 when nothing is sharded (d = 1)
    std::int64_t shards_ = 1;     // the data-parallel replicas it shards over
    double gradientFactor_ = 1;   // gradient bytes per parameter byte (fp32 gradients of bf16)
};

}  // namespace tandem::core::placement
