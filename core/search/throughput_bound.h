#pragma once
// A cheap, always-valid upper bound on the throughput a placement can reach for one model graph
// (one microbatch size and one tensor-parallel width t) on any chip, used by the evaluator's
// upperBound(). It never schedules: each layer direction's makespan is bounded below by resource
// occupancy, which holds for every schedule the layer scheduler can return —
//  - tensor cores: every GEMM (TensorCore or Fused) occupies at least
//    max(2·b·m·n·k / (2·R·C·f), compulsoryBytes / W) core-seconds in either mode (one core for
//    its one-core latency, or all N cores for the all-cores latency, whose split-K folds still
//    add up to ≥ b·m·n·k / (R·C) cycles), so the makespan ≥ Σ / N;
//  - vector cores: a vector op occupies ≥ max(e·c / (L·f), e·bpe·s / W) core-seconds, a fused
//    epilogue ≥ e·c / (L·f), so the makespan ≥ Σ / V;
//  - the link: collectives hold the one link in turn, so the makespan ≥ Σ latencies.
// A layer's forward (backward) time is at least the largest of the three. A plan with d replicas
// of S stages (stage k on n_k devices, n_k = t when it holds a tensor-parallel layer, else ≥ 1)
// needs time per batch ≥ m·Lmax ≥ (N/d)·Σ_k n_k·L_k / Σ_k n_k ≥ N·Σ_l n_l·(f_l + b_l) / D
// (m = ⌈N/d⌉, d·Σ n_k ≤ D, stage loads include every member's forward and backward time and
// only add transfers, recompute and sync on top, under both cost models). Hence
//   throughput ≤ globalBatch · D / (N · Σ_l n_l·(f_l + b_l)).
// The bound is independent of HBM capacity and recompute; a relative margin of 1e-9 absorbs the
// different summation order of the makespans.
#include <cstdint>
#include <vector>

#include "core/hardware/accelerator_config.h"
#include "core/hardware/cluster_config.h"
#include "core/model/model_graph.h"

namespace tandem::core::search {

class ThroughputBound {
public:
    // Reads the graph's operators once; collective latencies use the cluster (they do not
    // depend on the chip).
    ThroughputBound(const model::ModelGraph& graph, const hardware::ClusterConfig& cluster);

    // Lower bound on one direction of unique layer graph `u` (seconds) on `accelerator`.
    double layerSecondsLowerBound(std::size_t u, bool backward,
                                  const hardware::AcceleratorConfig& accelerator) const;
    // Σ_l n_l·(f_l + b_l) lower bound, device-seconds per microbatch.
    double deviceSecondsLowerBound(const hardware::AcceleratorConfig& accelerator) const;
    // globalBatch·D / (N·deviceSeconds) with the margin; +∞ when the work bound is 0.
    double throughputUpperBound(const hardware::AcceleratorConfig& accelerator,
                                std::int64_t devices, std::int64_t globalBatch,
                                std::int64_t microbatch) const;

    std::size_t uniqueLayers() const { return weights_.size(); }

private:
    struct Op {
        double gemmFlops = 0;               // 0 unless a non-empty GEMM
        double gemmBytesPerBpe = 0;         // compulsory traffic in elements
        double vectorElementCycles = 0;     // e·c (vector op or fused epilogue)
        double vectorElementsStreamed = 0;  // e·s for vector ops (0 for fused epilogues)
        double softmaxElements = 0;         // scores of a FlashAttention kernel
        double linkSeconds = 0;
    };
    struct Direction {
        std::size_t first = 0, end = 0;  // range in ops_
    };
    std::vector<Op> ops_;
    std::vector<Direction> forward_, backward_;  // per unique layer graph
    std::vector<double> weights_;                // Σ n_l over the layers using that graph
};

}  // namespace tandem::core::search
