#pragma once
// Every contiguous stage the placement DP may use at one width, priced once by the cost model
// and reused for every data-parallel degree. States ("nodes") are the layers already placed:
// for a chain-like graph the prefixes 0..n (fast path: stage = range i..j, costs from one
// incremental sweep per start i, listed with j ascending so loads and sizes only grow along a
// node's list, which the DP uses to stop early); for a general DAG the downsets of a
// DownsetLattice (stage = difference of nested downsets, found by adding layers in ascending
// position). Stages that do not fit in HBM even alone at the last position are left out, and so
// is everything containing them.
#include <cstdint>
#include <span>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/placement/cost_model.h"
#include "core/placement/downset_lattice.h"
#include "core/placement/width_graph.h"

namespace tandem::core::placement {

class StageCandidates {
public:
    // Chain-like graphs (graph.chainLike()).
    static Expected<StageCandidates> forChain(const WidthGraph& graph, const CostModel& model,
                                              std::int64_t maxCandidates, RunControl* control);
    // Any DAG, over the downsets of `lattice` (enumerated for the same layer structure).
    static Expected<StageCandidates> forDag(const WidthGraph& graph, const CostModel& model,
                                            const DownsetLattice& lattice,
                                            std::int64_t maxCandidates, RunControl* control);

    int nodeCount() const { return int(remaining_.size()); }
    int terminal() const { return nodeCount() - 1; }  // everything placed
    int remainingLayers(int node) const { return remaining_[std::size_t(node)]; }
    bool monotone() const { return monotone_; }  // chain fast path: lists grow with j

    // Candidate stages that start at `node` (indices for target(), cost(), members()).
    int firstTransition(int node) const { return begin_[std::size_t(node)]; }
    int endTransition(int node) const { return begin_[std::size_t(node) + 1]; }
    int transitionCount() const { return int(target_.size()); }
    int target(int transition) const { return target_[std::size_t(transition)]; }
    const StageCost& cost(int transition) const { return cost_[std::size_t(transition)]; }
    // Positions of the stage's layers, ascending.
    std::vector<int> members(int transition) const;

private:
    bool monotone_ = false;
    std::vector<int> remaining_;
    std::vector<int> begin_;
    std::vector<int> source_, target_;
    std::vector<StageCost> cost_;
    const DownsetLattice* lattice_ = nullptr;
};

}  // namespace tandem::core::placement
