#include "core/estimate/tp_comm_overlap.h"

#include <vector>

#include "core/estimate/comm_overlap.h"

namespace tandem::core::estimate {
namespace {

using model::Operator;

struct Direction {
    const std::vector<Operator>& ops;
    std::vector<OperatorCost>& costs;
    std::vector<std::vector<int>> consumers;

    Direction(const std::vector<Operator>& o, std::vector<OperatorCost>& c)
        : ops(o), costs(c), consumers(o.size()) {
        for (std::size_t v = 0; v < ops.size(); ++v)
            for (int u : ops[v].inputs) consumers[std::size_t(u)].push_back(int(v));
    }
    bool sink(int i) const { return consumers[std::size_t(i)].empty(); }
    bool gemm(int i) const { return ops[std::size_t(i)].isGemm(); }
    // The other GEMMs differentiating the same forward operator as `i` (dX ↔ dW), sinks or not.
    std::vector<int> siblings(int i, bool sinks) const {
        std::vector<int> out;
        const int f = ops[std::size_t(i)].forwardIndex;
        if (f < 0) return out;
        for (std::size_t j = 0; j < ops.size(); ++j)
            if (int(j) != i && ops[j].forwardIndex == f && gemm(int(j)) && sink(int(j)) == sinks)
                out.push_back(int(j));
        return out;
    }
};

// The GEMMs `ids` run in `chunks` pieces of their rows: Σ chunks × the cost of one piece.
double chunkedSeconds(const OperatorEstimator& estimator, const Direction& d,
                      const std::vector<int>& ids, std::int64_t chunks) {
    double total = 0;
    for (int i : ids) {
        Operator piece = d.ops[std::size_t(i)];
        piece.gemm.m = (piece.gemm.m + chunks - 1) / chunks;
        if (piece.streamedBytes > 0)
            piece.streamedBytes = (piece.streamedBytes + chunks - 1) / chunks;
        total += double(chunks) * estimator.estimate(piece).allCoresSeconds;
    }
    return total;
}

double sumSeconds(const Direction& d, const std::vector<int>& ids) {
    double total = 0;
    for (int i : ids) total += d.costs[std::size_t(i)].allCoresSeconds;
    return total;
}

double overlapDirection(const OperatorEstimator& estimator, Direction d) {
    const double share = estimator.accelerator().collectiveComputeShare;
    double hidden = 0;
    for (std::size_t c = 0; c < d.ops.size(); ++c) {
        const Operator& op = d.ops[c];
        const double comm = d.costs[c].allCoresSeconds;
        if (op.opClass != model::OpClass::Collective || op.groupSize <= 1 || !(comm > 0)) continue;
        std::vector<int> feeding, sinkConsumers, producers;
        for (int v : d.consumers[c])
            if (d.gemm(v)) (d.sink(v) ? sinkConsumers : feeding).push_back(v);
        for (int u : op.inputs)
            if (d.gemm(u)) producers.push_back(u);
        Overlap result;
        double extraCompute = 0;  // the chunked GEMMs' cost beyond their whole shape
        if (op.collective == model::CollectiveKind::AllGather && !feeding.empty()) {
            // Ring exchange: t chunks of the GEMM, t − 1 exchange steps, on copy engines.
            const std::int64_t k = op.groupSize;
            const double whole = sumSeconds(d, feeding);
            const double chunked = chunkedSeconds(estimator, d, feeding, k);
            extraCompute = std::max(0.0, chunked - whole);
            result = pipelinedOverlap(comm, chunked, k, 0.0, true);
        } else if (!sinkConsumers.empty() && feeding.empty() &&
                   !d.siblings(sinkConsumers.front(), false).empty()) {
            // The re-gather a weight gradient waits for, in bulk beside its input gradient.
            result = pipelinedOverlap(comm, sumSeconds(d, d.siblings(sinkConsumers.front(), false)),
                                      kConcurrent, share);
        } else if (!producers.empty()) {
            std::vector<int> beside;
            for (int p : producers)
                for (int s : d.siblings(p, true)) beside.push_back(s);
            if (!beside.empty()) {
                // An input gradient's reduce-scatter, in bulk beside the weight gradient.
                result = pipelinedOverlap(comm, sumSeconds(d, beside), kConcurrent, share);
            } else {
                // A forward GEMM's reduce-scatter, pipelined with it in TE's splits.
                const double whole = sumSeconds(d, producers);
                const double chunked = chunkedSeconds(estimator, d, producers, kPipelinedSplits);
                extraCompute = std::max(0.0, chunked - whole);
                result = pipelinedOverlap(comm, chunked, kPipelinedSplits, share);
            }
        } else {
            continue;
        }
        const double exposed = result.exposedSeconds + extraCompute;
        d.costs[c].oneCoreSeconds = exposed;
        d.costs[c].allCoresSeconds = exposed;
        hidden += result.hiddenSeconds;
    }
    return hidden;
}

}  // namespace

void overlapTensorParallelComm(const OperatorEstimator& estimator, const model::LayerGraph& graph,
                               LayerCostTable& table) {
    table.forwardHiddenCommSeconds =
        overlapDirection(estimator, Direction(graph.forward(), table.forward));
    table.backwardHiddenCommSeconds =
        overlapDirection(estimator, Direction(graph.backward(), table.backward));
}

}  // namespace tandem::core::estimate
