#include "core/estimate/model_estimate.h"

namespace tandem::core::estimate {

ModelEstimate estimateModel(const model::ModelGraph& graph, const OperatorEstimator& estimator) {
    std::vector<LayerCostTable> tables;
    tables.reserve(graph.uniqueGraphs().size());
    for (const auto& unique : graph.uniqueGraphs())
        tables.push_back(LayerCostTable::build(estimator, *unique, graph.options().tpCommOverlap));

    ModelEstimate result;
    const auto bytesPerElement = double(graph.options().bytesPerElement);
    for (std::size_t l = 0; l < graph.layers().size(); ++l) {
        const model::Layer& layer = graph.layers()[l];
        const int unique = graph.uniqueIndexOfLayer()[l];
        const model::LayerGraph& lg = *layer.graph;
        LayerEstimate entry{layer.name, unique, {}, tables[std::size_t(unique)]};
        entry.operators.resize(lg.forward().size());
        for (std::size_t i = 0; i < lg.forward().size(); ++i) {
            entry.operators[i].op = &lg.forward()[i];
            entry.operators[i].forward = entry.table.forward[i];
        }
        for (std::size_t j = 0; j < lg.backward().size(); ++j) {
            const int source = lg.backward()[j].forwardIndex;
            if (source < 0 || std::size_t(source) >= entry.operators.size()) continue;
            OperatorCost& sum = entry.operators[std::size_t(source)].backward;
            const OperatorCost& c = entry.table.backward[j];
            sum.oneCoreSeconds += c.oneCoreSeconds;
            sum.allCoresSeconds += c.allCoresSeconds;
            sum.flops += c.flops;
            sum.bytes += c.bytes;
        }
        result.totals.forwardFlops += lg.forwardFlops();
        result.totals.backwardFlops += lg.backwardFlops();
        result.totals.gemmForwardFlops += lg.forwardGemmFlops();
        result.totals.gemmBackwardFlops += lg.backwardGemmFlops();
        result.layers.push_back(std::move(entry));
    }
    result.totals.parametersPerDevice = double(graph.parameterBytes()) / bytesPerElement;
    result.totals.parameters = graph.parameterCount();
    return result;
}

}  // namespace tandem::core::estimate
