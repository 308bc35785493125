#include "core/estimate/layer_cost_table.h"

#include "core/estimate/tp_comm_overlap.h"

namespace tandem::core::estimate {

LayerCostTable LayerCostTable::build(const OperatorEstimator& estimator,
                                     const model::LayerGraph& graph, bool tpCommOverlap) {
    LayerCostTable table{estimator.estimateAll(graph.forward()),
                         estimator.estimateAll(graph.backward())};
    if (tpCommOverlap) overlapTensorParallelComm(estimator, graph, table);
    return table;
}

}  // namespace tandem::core::estimate
