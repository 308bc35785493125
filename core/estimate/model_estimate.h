#pragma once
// The estimator's answer for a whole model graph: for each layer, each forward operator with its
// own cost and the summed cost of the backward operators that differentiate it, plus per-device
// totals. This is what `tandem-cli estimate` prints and what the GUI's layer views show. Unique
// layer graphs are estimated once and shared by the layers that use them.
#include <string>
#include <vector>

#include "core/estimate/layer_cost_table.h"
#include "core/estimate/operator_estimator.h"
#include "core/model/model_graph.h"

namespace tandem::core::estimate {

struct OperatorEstimate {
    const model::Operator* op = nullptr;  // the forward operator (owned by the model graph)
    OperatorCost forward;
    OperatorCost backward;  // summed over the backward operators derived from `op`
};

struct LayerEstimate {
    std::string name;
    int uniqueIndex = 0;  // index into ModelGraph::uniqueGraphs()
    std::vector<OperatorEstimate> operators;
    LayerCostTable table;  // per-operator costs of forward() and backward()
};

struct ModelEstimateTotals {
    double forwardFlops = 0;
    double backwardFlops = 0;
    double gemmForwardFlops = 0;
    double gemmBackwardFlops = 0;
    double parametersPerDevice = 0;  // parameters held by one device (tied copies excluded)
    double parameters = 0;           // the whole model's parameter count
};

struct ModelEstimate {
    std::vector<LayerEstimate> layers;
    ModelEstimateTotals totals;
};

// The graph must outlive the result (operators are referenced, not copied).
ModelEstimate estimateModel(const model::ModelGraph& graph, const OperatorEstimator& estimator);

}  // namespace tandem::core::estimate
