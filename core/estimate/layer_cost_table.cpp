#include "core/estimate/layer_cost_table.h"

namespace tandem::core::estimate {

LayerCostTable LayerCostTable::build(const OperatorEstimator& estimator,
                                     const model::LayerGraph& graph) {
    return {estimator.estimateAll(graph.forward()), estimator.estimateAll(graph.backward())};
}

}  // namespace tandem::core::estimate
