#pragma once
// One tensor-parallel width of a validated PlacementProblem, renumbered into topological order
// ("positions"), the form every cost model and the solver work on. Positions come from Kahn's
// algorithm taking the smallest layer index first, so a problem whose layers are already listed
// in topological order keeps its numbering. A graph is chain-like when every position i has an
// edge from position i−1: then the topological order is unique, its downsets are exactly the
// prefixes and contiguous pipeline stages are position ranges i..j (PHAZE's only supported case;
// extra skip edges are allowed). Otherwise stages are differences of nested downsets.
#include <cstdint>
#include <span>
#include <vector>

#include "core/placement/placement_problem.h"

namespace tandem::core::placement {

class WidthGraph {
public:
    struct Edge {
        int from = 0;  // position
        int to = 0;    // position
        double bytes = 0;
    };

    // Topological order of the layers (position → layer index); the problem must be valid.
    static std::vector<int> topologicalOrder(const LayerCostSet& set);

    // `order` is topologicalOrder() of any width of the same problem.
    WidthGraph(const LayerCostSet& set, const std::vector<int>& order);

    int size() const { return int(layerOfPosition_.size()); }
    std::int64_t tensorParallel() const { return tensorParallel_; }
    int layerAt(int position) const { return layerOfPosition_[std::size_t(position)]; }
    int positionOf(int layer) const { return positionOfLayer_[std::size_t(layer)]; }

    double forward(int p) const { return forward_[std::size_t(p)]; }
    double forwardComm(int p) const { return forwardComm_[std::size_t(p)]; }
    double backwardComm(int p) const { return backwardComm_[std::size_t(p)]; }
    // Tensor-parallel communication hidden behind GEMMs (LayerCost), per direction.
    double forwardHiddenComm(int p) const { return forwardHidden_[std::size_t(p)]; }
    double backwardHiddenComm(int p) const { return backwardHidden_[std::size_t(p)]; }
    double backward(int p) const { return backward_[std::size_t(p)]; }
    double parameters(int p) const { return parameters_[std::size_t(p)]; }
    // The tied copies (LayerCost::tiedParameterBytes) of all positions, summed in position
    // order: what a stage of every layer holds twice and keeps once.
    double tiedParameters() const { return tiedParameters_; }
    double activations(int p) const { return activations_[std::size_t(p)]; }
    double stash(int p) const { return stash_[std::size_t(p)]; }
    // Full recomputation as the native model prices it (LayerCost::checkpointed): the forward
    // seconds (and their collectives) rerun in the backward pass, and what one in-flight
    // microbatch keeps (the input of a checkpointed layer, all activations of another).
    double recomputeForward(int p) const {
        return checkpointed_[std::size_t(p)] ? recompute_[std::size_t(p)] : 0;
    }
    double recomputeComm(int p) const { return checkpointed_[std::size_t(p)] ? forwardComm(p) : 0; }
    double recomputeStash(int p) const {
        return checkpointed_[std::size_t(p)] ? stash(p) : activations(p);
    }
    // Selective recomputation: what one microbatch keeps, and the forward seconds rerun.
    double selectiveActivations(int p) const { return selectiveActivations_[std::size_t(p)]; }
    double selectiveForward(int p) const { return selectiveForward_[std::size_t(p)]; }
    bool tensorParallelLayer(int p) const { return tensorParallelLayer_[std::size_t(p)] != 0; }
    int nonTensorParallelLayers() const { return nonTensorParallel_; }

    const std::vector<Edge>& edges() const { return edges_; }
    // Edge indices into edges(), in the order the problem listed them.
    std::span<const int> inEdges(int p) const;
    std::span<const int> outEdges(int p) const;

    bool chainLike() const { return chainLike_; }
    bool pureChain() const { return pureChain_; }  // chain-like with no other edges
    // Chain-like graphs: bytes of the edge from position p−1 to p (0 for p = 0).
    double pathBytes(int p) const { return pathBytes_[std::size_t(p)]; }

private:
    std::int64_t tensorParallel_ = 1;
    std::vector<int> layerOfPosition_, positionOfLayer_;
    std::vector<double> forward_, backward_, parameters_, activations_, stash_, recompute_;
    std::vector<double> forwardComm_, backwardComm_, selectiveActivations_, selectiveForward_;
    std::vector<double> forwardHidden_, backwardHidden_;
    std::vector<char> tensorParallelLayer_, checkpointed_;
    int nonTensorParallel_ = 0;
    double tiedParameters_ = 0;
    std::vector<Edge> edges_;
    std::vector<int> inStart_, inList_, outStart_, outList_;
    std::vector<double> pathBytes_;
    bool chainLike_ = false;
    bool pureChain_ = false;
};

}  // namespace tandem::core::placement
