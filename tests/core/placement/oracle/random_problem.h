#pragma once
// Random small placement problems for the oracle tests: chains (optionally with skip edges) and
// branching DAGs with layers listed in topological order, integer-valued sizes and times (so
// sums are exact and ties are frequent), random HBM limits that make some plans infeasible,
// several widths including a non-power of two, and random cluster and training settings.
#include <algorithm>
#include <cstdint>
#include <random>

#include "core/placement/placement_problem.h"

namespace oracle {

enum class Shape { Chain, ChainWithSkips, Dag };

inline tandem::core::placement::PlacementProblem randomProblem(std::mt19937_64& rng, Shape shape,
                                                               int maxLayers = 8,
                                                               std::int64_t maxDevices = 16,
                                                               bool selective = false) {
    using namespace tandem::core::placement;
    auto uni = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    PlacementProblem pb;
    const int n = int(uni(1, maxLayers));
    // A third of the problems make the data-parallel sync term compete with the stage loads
    // (large parameter bytes, slow links), so the (Lmax, P) trade-offs matter.
    const bool syncHeavy = uni(0, 2) == 0;
    const std::int64_t maxParameters = syncHeavy ? 40 : 6;
    std::vector<std::pair<int, int>> pairs;
    for (int v = 1; v < n; ++v) {
        if (shape != Shape::Dag) {
            pairs.push_back({v - 1, v});
            if (shape == Shape::ChainWithSkips && v >= 2 && uni(0, 2) == 0)
                pairs.push_back({int(uni(0, v - 2)), v});
        } else {
            // At least one predecessor keeps the DAG connected; more make it branch and join.
            const int first = int(uni(0, v - 1));
            pairs.push_back({first, v});
            for (int u = 0; u < v; ++u)
                if (u != first && uni(0, 3) == 0) pairs.push_back({u, v});
        }
    }
    static const std::int64_t widthChoices[][3] = {{1, 0, 0}, {1, 2, 0}, {1, 2, 4}, {2, 4, 0},
                                                   {1, 3, 0}, {4, 0, 0}, {1, 2, 8}};
    const auto& ts = widthChoices[uni(0, 6)];
    for (std::int64_t t : ts) {
        if (t == 0) continue;
        LayerCostSet set;
        set.tensorParallel = t;
        for (int v = 0; v < n; ++v) {
            LayerCost l;
            l.name = std::to_string(v);
            l.name.insert(l.name.begin(),
                          'L');  // not "L" + …: GCC 12 -O3 -Wrestrict false positive
            l.forwardSeconds = double(uni(0, 9));
            l.backwardSeconds = double(uni(0, 12));
            l.parameterBytes = double(uni(0, maxParameters));
            l.activationBytes = double(uni(0, 5));
            l.stashBytesRecompute = double(uni(0, 3));
            l.tensorParallel = t > 1 && uni(0, 3) != 0;
            // Selective recomputation: a layer keeps part of its activations (or has nothing
            // to recompute selectively, −1) and reruns some forward seconds.
            // Drawn only when asked, so that other callers' sequences stay as they were.
            if (selective) {
                const std::int64_t kept = uni(-1, std::int64_t(l.activationBytes));
                l.activationBytesSelective = double(kept);
                l.selectiveRecomputeSeconds = kept >= 0 ? double(uni(0, 3)) : 0.0;
                // Layers full recomputation does not rerun, and reruns cheaper than the
                // forward pass (a host-bound recompute overlapping the backward).
                l.checkpointed = uni(0, 4) != 0;
                l.recomputeSeconds =
                    uni(0, 1) ? -1.0 : double(uni(0, std::int64_t(l.forwardSeconds)));
            }
            set.layers.push_back(l);
        }
        // A width whose layers all take 0 s does no work and is refused by validate(); give
        // the first layer a second of forward time then (no extra draw, so the sequence of
        // problems is otherwise unchanged).
        if (std::none_of(set.layers.begin(), set.layers.end(), [](const LayerCost& l) {
                return l.forwardSeconds > 0 || l.backwardSeconds > 0;
            }))
            set.layers[0].forwardSeconds = 1;
        for (auto [from, to] : pairs) set.edges.push_back({from, to, double(uni(0, 12))});
        pb.widths.push_back(set);
    }
    pb.cluster.devices = uni(1, maxDevices);
    pb.cluster.devicesPerNode = uni(1, 8);
    static const double bandwidths[] = {1.0, 2.0, 4.0, 0.5, 3.0};
    pb.cluster.intraNodeBandwidthBytesPerSecond = bandwidths[uni(0, 4)];
    pb.cluster.interNodeBandwidthBytesPerSecond = bandwidths[uni(0, 4)];
    pb.cluster.hopLatencySeconds = uni(0, 2) == 0 ? 0.5 : 0.0;
    pb.training.globalBatch = uni(1, 24);
    pb.training.microbatch = uni(1, 3);
    if (pb.training.microbatch > pb.training.globalBatch) pb.training.microbatch = 1;
    // Selective recomputation (native only) when asked.
    static const tandem::core::hardware::Recompute modes[] = {
        tandem::core::hardware::Recompute::Off, tandem::core::hardware::Recompute::On,
        tandem::core::hardware::Recompute::Auto, tandem::core::hardware::Recompute::Selective};
    pb.training.recompute = modes[uni(0, selective ? 3 : 2)];
    pb.training.optimizer = uni(0, 1) ? tandem::core::hardware::Optimizer::Adam
                                      : tandem::core::hardware::Optimizer::Sgd;
    pb.bytesPerElement = uni(0, 1) ? 2 : 4;
    pb.hbmCapacityBytes = double(syncHeavy ? uni(20, 600) : uni(4, 90));
    if (selective) {  // native extras: the optimizer step too
        static const double memoryBandwidths[] = {0.0, 8.0, 16.0, 64.0};
        pb.memoryBandwidthBytesPerSecond = memoryBandwidths[uni(0, 3)];
        // bf16 training's fp32 gradients (Megatron), and fp8's extra weight copies.
        pb.gradientBytesPerElement = uni(0, 1) ? 4 : 0;
        pb.fp8WeightCopies = uni(0, 3) == 0;
    }
    if (syncHeavy) {
        pb.cluster.interNodeBandwidthBytesPerSecond = uni(0, 1) ? 0.25 : 0.5;
        pb.cluster.intraNodeBandwidthBytesPerSecond = uni(0, 1) ? 0.25 : 2.0;
    }
    return pb;
}

}  // namespace oracle
