#pragma once
// Schedules a whole model graph: every unique layer graph, forward and backward, on one chip.
// Identical transformer blocks share one LayerGraph and therefore one solve; the per-layer
// forward and backward times the placement solver needs are the makespans. This is also where a
// layer's operators meet the estimator: makeScheduleProblem() turns one direction of a
// LayerGraph plus its operator costs into the scheduler's model-free input.
#include <memory>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/estimate/layer_cost_table.h"
#include "core/estimate/operator_estimator.h"
#include "core/model/model_graph.h"
#include "core/schedule/layer_scheduler.h"

namespace tandem::core::schedule {

enum class Direction { Forward, Backward };

// The scheduling problem of one direction of `graph` on a chip with the given core counts.
ScheduleProblem makeScheduleProblem(const model::LayerGraph& graph, Direction direction,
                                    const estimate::LayerCostTable& costs, int numTensorCores,
                                    int numVectorCores);

struct UniqueLayerSchedule {
    std::shared_ptr<const model::LayerGraph> graph;
    std::shared_ptr<const LayerSchedule> forward;
    std::shared_ptr<const LayerSchedule> backward;
};

struct ModelSchedule {
    std::vector<UniqueLayerSchedule> unique;  // indexed like ModelGraph::uniqueGraphs()
    std::vector<int> uniqueIndexOfLayer;      // layer → entry of `unique`

    const UniqueLayerSchedule& layer(std::size_t layerIndex) const {
        return unique[std::size_t(uniqueIndexOfLayer[layerIndex])];
    }
    double forwardSeconds(std::size_t layerIndex) const {
        return layer(layerIndex).forward->makespanSeconds;
    }
    double backwardSeconds(std::size_t layerIndex) const {
        return layer(layerIndex).backward->makespanSeconds;
    }
    bool allOptimal() const;
    int count(ScheduleStatus status) const;  // over unique layer directions
};

// Errors come from the scheduler (invalid options) or from cancellation before any schedule of
// some layer existed.
Expected<ModelSchedule> scheduleModel(const model::ModelGraph& graph,
                                      const estimate::OperatorEstimator& estimator,
                                      const LayerScheduler& scheduler,
                                      const RunControl* control = nullptr);

}  // namespace tandem::core::schedule
