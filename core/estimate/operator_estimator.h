#pragma once
// OperatorEstimator: latency of one operator on one accelerator, on one core of its class and
// spread over all cores of its class, plus its FLOPs and HBM traffic (ARCHITECTURE.md §2.3).
// Analytic and memoised: results go through an EstimateCache, shared between estimators when the
// caller passes one (its key includes the hardware), else private to this estimator.
//
// Model, per operator class (clock f, HBM bandwidth W, bpe bytes per element):
//  - TensorCore GEMM: compute cycles from GemmCostModel (folds ⌈m/R⌉·⌈n/C⌉ per batch item × k,
//    plus fill and drain once per run; split-K over all cores; see gemm_cost_model.h for each
//    formula and why), HBM traffic from GemmCostModel::traffic (compulsory when the working set
//    fits in the global buffer, else the cheapest re-reading dataflow). Roofline, because the
//    array and the HBM work concurrently (operands are prefetched while tiles compute):
//      oneCore  = max(oneCoreCycles / f, traffic / W)
//      allCores = max(allCoresCycles / f, traffic / W)   (HBM is shared: same memory time)
//  - VectorCore (L lanes, V vector cores, e elements, c cycles per element, t streamed tensors):
//      oneCore  = max(⌈e/L⌉·c / f, e·bpe·t / W)
//      allCores = max(⌈e/(L·V)⌉·c / f, e·bpe·t / W)
//    (PHAZE's formula, plus the HBM bound PHAZE left out.)
//  - Fused (GEMM with a vector epilogue over e elements, c cycles each): holds one TC and one VC
//    (oneCore) or all TCs and all VCs (allCores). The epilogue consumes output tiles as the
//    array drains them, so it pipelines behind the GEMM instead of following it, and it reads
//    and writes the tiles in the global buffer, adding no HBM traffic:
//      latency = max(GEMM compute, epilogue compute, GEMM traffic / W)
//  - Collective: ring all-reduce of B = collectiveBytes over a group of g devices on the
//    group's link (cluster.groupBandwidthBytesPerSecond(g): intra-node when g ≤ devicesPerNode,
//    else one ring per NIC of the group's nodes), 2(g−1) ring steps each paying
//    hopLatencySeconds:
//      ring = 2·(g−1)/g·B / bw + 2·(g−1)·hop, evaluated exactly in that order;
//    an all-gather or reduce-scatter is one of the two halves. An all-reduce across nodes may
//    instead take NCCL's tree (a chain through each node's p members, a binary tree over the
//    n nodes, up and down): tree = 2·B / bw + 2·(p − 1 + ⌈log₂ n⌉)·hop; the cheaper is taken.
//    Every collective adds cluster.collectiveLatencySeconds (NCCL's start-up).
//    oneCore = allCores (the link is one resource); g = 1 or B = 0 → 0.
//    bytes = what each device sends on the link.
//  - Nop: zero.
// flops follow model::Operator::flops() (GEMM 2·batch·m·n·k, vector ops their elements, a fused
// op both); bytes are the modelled HBM traffic (for collectives, bytes on the link).
//
// Achievable rates (docs/cost-model.md): the array runs at clockHz·tensorCoreEfficiency, with
// tiles of tensorCoreTileFolds² folds costing tensorCoreTileOverheadCycles each and folds no
// shorter than the drain (tensorCoreRows · tensorCoreDrainCyclesPerRow), HBM at
// W·hbmEfficiency, links at the group's bandwidth times cluster.collectiveEfficiency, and
// every operator but a Nop costs operatorOverheadSeconds more. With PHAZE's ideal values
// (AcceleratorConfig::ideal(), ClusterConfig::ideal()) every formula above is unchanged to the
// last bit. The host's dispatch time (hostOverheadSeconds) is not an operator's latency: it
// bounds a whole stream of operators (model_schedule.h).
//
// Inputs are checked, not clamped: create()/validateHardware() reject a chip the formulas cannot
// divide by, tryEstimate() rejects an operator with negative sizes. estimate() is the fast path
// for already-validated graphs: on an operator tryEstimate() would reject it returns a zero cost,
// and on a chip validateHardware() would reject it returns +infinity latencies for every operator
// except a Nop (such a chip runs nothing), never dividing by zero. Shape products are taken in
// double, so no int64 overflows whatever the dimensions.
#include <memory>
#include <vector>

#include "core/common/expected.h"
#include "core/estimate/estimate_cache.h"
#include "core/estimate/operator_cost.h"
#include "core/hardware/accelerator_config.h"
#include "core/hardware/cluster_config.h"
#include "core/model/operator.h"

namespace tandem::core::estimate {

class OperatorEstimator {
public:
    // A null cache gives the estimator a private one. Copies share the cache; every method is
    // const and safe to call from several threads at once.
    explicit OperatorEstimator(hardware::AcceleratorConfig accelerator,
                               hardware::ClusterConfig cluster = {},
                               std::shared_ptr<EstimateCache> cache = nullptr);

    // As the constructor, but fails when validateHardware() does.
    static Expected<OperatorEstimator> create(hardware::AcceleratorConfig accelerator,
                                              hardware::ClusterConfig cluster = {},
                                              std::shared_ptr<EstimateCache> cache = nullptr);

    // The estimator's own preconditions (counts ≥ 1, rates finite and > 0, a global buffer of at
    // least two elements); the parameter registry checks the narrower search-space ranges.
    static Status validateHardware(const hardware::AcceleratorConfig& accelerator,
                                   const hardware::ClusterConfig& cluster);
    // Sizes ≥ 0, a finite cycles-per-element ≥ 0, 1 ≤ groupSize ≤ cluster devices.
    Status validateOperator(const model::Operator& op) const;

    // Memoised estimate (see the summary above for invalid inputs).
    OperatorCost estimate(const model::Operator& op) const;
    // The same, or an error naming the operator, field, value and allowed range.
    Expected<OperatorCost> tryEstimate(const model::Operator& op) const;
    // The same model without the cache: the memo's oracle in tests.
    OperatorCost estimateUncached(const model::Operator& op) const;
    // estimate() of each operator, in order (the indices stay aligned with the graph's).
    std::vector<OperatorCost> estimateAll(const std::vector<model::Operator>& ops) const;

    const hardware::AcceleratorConfig& accelerator() const { return accelerator_; }
    const hardware::ClusterConfig& cluster() const { return cluster_; }
    const std::shared_ptr<EstimateCache>& cache() const { return cache_; }
    bool hardwareValid() const { return hardwareValid_; }

private:
    OperatorCost gemmCost(const model::Operator& op) const;
    OperatorCost vectorCost(const model::Operator& op) const;
    OperatorCost collectiveCost(const model::Operator& op) const;

    hardware::AcceleratorConfig accelerator_;
    hardware::ClusterConfig cluster_;
    std::shared_ptr<EstimateCache> cache_;
    bool hardwareValid_ = false;
};

}  // namespace tandem::core::estimate
