#include "core/placement/width_graph.h"

#include <queue>

namespace tandem::core::placement {

std::vector<int> WidthGraph::topologicalOrder(const LayerCostSet& set) {
    const std::size_t n = set.layers.size();
    std::vector<int> indegree(n, 0);
    std::vector<std::vector<int>> successors(n);
    for (const LayerEdgeCost& e : set.edges) {
        successors[std::size_t(e.from)].push_back(e.to);
        ++indegree[std::size_t(e.to)];
    }
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (std::size_t v = 0; v < n; ++v)
        if (indegree[v] == 0) ready.push(int(v));
    std::vector<int> order;
    order.reserve(n);
    while (!ready.empty()) {
        const int v = ready.top();
        ready.pop();
        order.push_back(v);
        for (int w : successors[std::size_t(v)])
            if (--indegree[std::size_t(w)] == 0) ready.push(w);
    }
    return order;
}

WidthGraph::WidthGraph(const LayerCostSet& set, const std::vector<int>& order)
    : tensorParallel_(set.tensorParallel), layerOfPosition_(order) {
    const std::size_t n = order.size();
    positionOfLayer_.assign(n, 0);
    for (std::size_t p = 0; p < n; ++p) positionOfLayer_[std::size_t(order[p])] = int(p);
    forward_.resize(n);
    backward_.resize(n);
    forwardComm_.resize(n);
    backwardComm_.resize(n);
    forwardHidden_.resize(n);
    backwardHidden_.resize(n);
    parameters_.resize(n);
    activations_.resize(n);
    stash_.resize(n);
    selectiveActivations_.resize(n);
    selectiveForward_.resize(n);
    tensorParallelLayer_.resize(n);
    checkpointed_.resize(n);
    recompute_.resize(n);
    for (std::size_t p = 0; p < n; ++p) {
        const LayerCost& layer = set.layers[std::size_t(order[p])];
        forward_[p] = layer.forwardSeconds;
        backward_[p] = layer.backwardSeconds;
        forwardComm_[p] = layer.forwardCommSeconds;
        backwardComm_[p] = layer.backwardCommSeconds;
        forwardHidden_[p] = layer.forwardHiddenCommSeconds;
        backwardHidden_[p] = layer.backwardHiddenCommSeconds;
        parameters_[p] = layer.parameterBytes;
        tiedParameters_ += layer.tiedParameterBytes;
        activations_[p] = layer.activationBytes;
        stash_[p] = layer.stashBytesRecompute;
        selectiveActivations_[p] = layer.activationBytesSelective >= 0
                                       ? layer.activationBytesSelective
                                       : layer.activationBytes;
        selectiveForward_[p] = layer.selectiveRecomputeSeconds;
        tensorParallelLayer_[p] = layer.tensorParallel ? 1 : 0;
        checkpointed_[p] = layer.checkpointed ? 1 : 0;
        recompute_[p] = layer.recomputeSeconds >= 0 ? layer.recomputeSeconds : layer.forwardSeconds;
        if (!layer.tensorParallel) ++nonTensorParallel_;
    }
    edges_.reserve(set.edges.size());
    for (const LayerEdgeCost& e : set.edges)
        edges_.push_back({positionOf(e.from), positionOf(e.to), e.bytes});

    // Compressed adjacency, keeping the problem's edge order within each position.
    inStart_.assign(n + 1, 0);
    outStart_.assign(n + 1, 0);
    for (const Edge& e : edges_) {
        ++inStart_[std::size_t(e.to) + 1];
        ++outStart_[std::size_t(e.from) + 1];
    }
    for (std::size_t p = 0; p < n; ++p) {
        inStart_[p + 1] += inStart_[p];
        outStart_[p + 1] += outStart_[p];
    }
    inList_.assign(edges_.size(), 0);
    outList_.assign(edges_.size(), 0);
    std::vector<int> inFill(inStart_.begin(), inStart_.end() - 1);
    std::vector<int> outFill(outStart_.begin(), outStart_.end() - 1);
    for (std::size_t k = 0; k < edges_.size(); ++k) {
        inList_[std::size_t(inFill[std::size_t(edges_[k].to)]++)] = int(k);
        outList_[std::size_t(outFill[std::size_t(edges_[k].from)]++)] = int(k);
    }

    pathBytes_.assign(n, 0.0);
    std::vector<char> hasPathEdge(n, 0);
    hasPathEdge[0] = 1;
    for (const Edge& e : edges_)
        if (e.to == e.from + 1) {
            hasPathEdge[std::size_t(e.to)] = 1;
            pathBytes_[std::size_t(e.to)] = e.bytes;
        }
    chainLike_ = true;
    for (std::size_t p = 0; p < n; ++p) chainLike_ = chainLike_ && hasPathEdge[p] != 0;
    pureChain_ = chainLike_ && edges_.size() + 1 == n;
}

std::span<const int> WidthGraph::inEdges(int p) const {
    return {inList_.data() + inStart_[std::size_t(p)],
            std::size_t(inStart_[std::size_t(p) + 1] - inStart_[std::size_t(p)])};
}

std::span<const int> WidthGraph::outEdges(int p) const {
    return {outList_.data() + outStart_[std::size_t(p)],
            std::size_t(outStart_[std::size_t(p) + 1] - outStart_[std::size_t(p)])};
}

}  // namespace tandem::core::placement
