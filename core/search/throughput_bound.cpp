#include "core/search/throughput_bound.h"

#include <algorithm>
#include <limits>

#include "core/estimate/gemm_cost_model.h"
#include "core/estimate/operator_estimator.h"

namespace tandem::core::search {
namespace {

bool gemmIsEmpty(const model::GemmShape& g) {
    return g.batch <= 0 || g.m <= 0 || g.n <= 0 || g.k <= 0;
}

}  // namespace

ThroughputBound::ThroughputBound(const model::ModelGraph& graph,
                                 const hardware::ClusterConfig& cluster) {
    // Collective latencies depend only on the cluster, so any valid chip prices them.
    const estimate::OperatorEstimator linkPricer(hardware::AcceleratorConfig{}, cluster);
    auto add = [&](const std::vector<model::Operator>& list) {
        Direction dir;
        dir.first = ops_.size();
        for (const model::Operator& op : list) {
            Op o;
            switch (op.opClass) {
                case model::OpClass::TensorCore:
                case model::OpClass::Fused:
                    if (!gemmIsEmpty(op.gemm)) {
                        o.gemmFlops = op.gemm.flops();
                        // A kernel keeping its intermediates on chip (FlashAttention) moves
                        // fewer bytes than its shape: 0 keeps the bound a bound.
                        o.gemmBytesPerBpe =
                            op.streamedBytes > 0
                                ? 0.0
                                : estimate::GemmCostModel::compulsoryBytes(op.gemm, 1);
                    }
                    if (op.opClass == model::OpClass::Fused && op.elements > 0) {
                        o.vectorElementCycles = double(op.elements) * op.cyclesPerElement;
                        if (op.streamedBytes > 0) o.softmaxElements = double(op.elements);
                    }
                    break;
                case model::OpClass::VectorCore:
                    if (op.elements > 0) {
                        o.vectorElementCycles = double(op.elements) * op.cyclesPerElement;
                        o.vectorElementsStreamed = double(op.elements) * double(op.streamedTensors);
                    }
                    break;
                case model::OpClass::Collective:
                    o.linkSeconds = linkPricer.estimateUncached(op).oneCoreSeconds;
                    break;
                case model::OpClass::Nop:
                    continue;
            }
            ops_.push_back(o);
        }
        dir.end = ops_.size();
        return dir;
    };
    for (const auto& unique : graph.uniqueGraphs()) {
        forward_.push_back(add(unique->forward()));
        backward_.push_back(add(unique->backward()));
    }
    weights_.assign(graph.uniqueGraphs().size(), 0.0);
    const std::int64_t t = graph.options().tensorParallel;
    for (std::size_t l = 0; l < graph.layers().size(); ++l) {
        const bool split = graph.layers()[l].tensorParallel && t > 1;
        weights_[std::size_t(graph.uniqueIndexOfLayer()[l])] += split ? double(t) : 1.0;
    }
}

double ThroughputBound::layerSecondsLowerBound(std::size_t u, bool backward,
                                               const hardware::AcceleratorConfig& a) const {
    const Direction& dir = backward ? backward_[u] : forward_[u];
    const double f = a.clockHz, w = a.hbmBandwidthBytesPerSecond;
    // fp8 GEMMs run up to fp8MacRatio times faster on 1-byte operands: the bound allows both.
    const bool fp8 = a.precision == hardware::Precision::Fp8;
    const double macsPerSecond = double(a.tensorCoreRows) * double(a.tensorCoreCols) * f *
                                 std::max(1.0, a.gemmRateOverPeak());
    const double laneCyclesPerSecond = double(a.vectorCoreLanes) * f;
    const double bpe = double(a.bytesPerElement);
    const double gemmBpe = fp8 ? 1.0 : bpe;
    // With a special-function unit a FlashAttention kernel's softmax costs its exponentials
    // there instead of the vector-core table (operator_estimator.cpp).
    const double sfu = a.specialFunctionOpsPerCycle;
    double tensor = 0, vector = 0, link = 0;
    for (std::size_t i = dir.first; i < dir.end; ++i) {
        const Op& o = ops_[i];
        if (o.gemmFlops > 0)
            tensor += std::max(o.gemmFlops / 2.0 / macsPerSecond, o.gemmBytesPerBpe * gemmBpe / w);
        if (sfu > 0 && o.softmaxElements > 0)
            vector += o.softmaxElements / (sfu * f);
        else if (o.vectorElementCycles > 0 || o.vectorElementsStreamed > 0)
            vector += std::max(o.vectorElementCycles / laneCyclesPerSecond,
                               o.vectorElementsStreamed * bpe / w);
        link += o.linkSeconds;
    }
    return std::max({tensor / double(a.numTensorCores), vector / double(a.numVectorCores), link});
}

double ThroughputBound::deviceSecondsLowerBound(const hardware::AcceleratorConfig& a) const {
    double sum = 0;
    for (std::size_t u = 0; u < weights_.size(); ++u)
        sum += weights_[u] *
               (layerSecondsLowerBound(u, false, a) + layerSecondsLowerBound(u, true, a));
    return sum;
}

double ThroughputBound::throughputUpperBound(const hardware::AcceleratorConfig& a,
                                             std::int64_t devices, std::int64_t globalBatch,
                                             std::int64_t microbatch) const {
    const double work = deviceSecondsLowerBound(a);
    if (!(work > 0) || microbatch < 1) return std::numeric_limits<double>::infinity();
    const double microbatches = double((globalBatch + microbatch - 1) / microbatch);
    return double(globalBatch) * double(devices) / (microbatches * work) * (1.0 + 1e-9);
}

}  // namespace tandem::core::search
