#pragma once
// The estimator's answer for a whole layer: the cost of every forward and every backward operator
// of a model::LayerGraph, aligned with the graph's operator indices, which is the form the layer
// scheduler consumes. Kept in its own file because it is the estimator's only dependency on
// LayerGraph (the rest of core/estimate needs model::Operator alone).
#include <vector>

#include "core/estimate/operator_cost.h"
#include "core/estimate/operator_estimator.h"
#include "core/model/layer_graph.h"

namespace tandem::core::estimate {

struct LayerCostTable {
    std::vector<OperatorCost> forward;   // forward[i] is the cost of graph.forward()[i]
    std::vector<OperatorCost> backward;  // backward[i] is the cost of graph.backward()[i]
    // Tensor-parallel communication hidden behind GEMMs (tp_comm_overlap.h); 0 without overlap.
    double forwardHiddenCommSeconds = 0;
    double backwardHiddenCommSeconds = 0;

    // `tpCommOverlap`: collectives overlapped with their GEMMs (tp_comm_overlap.h).
    static LayerCostTable build(const OperatorEstimator& estimator, const model::LayerGraph& graph,
                                bool tpCommOverlap = false);
};

}  // namespace tandem::core::estimate
