#pragma once
// Schedules a whole model graph: every unique layer graph, forward and backward, on one chip.
// Identical transformer blocks share one LayerGraph and therefore one solve. This is also where a
// layer's operators meet the estimator: makeScheduleProblem() turns one direction of a
// LayerGraph plus its operator costs into the scheduler's model-free input.
//
// The per-layer times the placement solver needs are the makespans, unless the host is slower
// (ARCHITECTURE.md §2.4): the host issues every operator but a Nop in
// accelerator.hostOverheadSeconds, asynchronously, ahead of the device. In a long stream of
// layers the host runs ahead while the device is the bottleneck and the device waits while the
// host is, so a layer direction takes max(device makespan H_d, host time H_h) — the exact
// period of an asynchronous launch queue fed with a repeating sequence. A backward pass that
// first reruns the forward (full recomputation) issues both in one stream: it takes
// max(G_f + G_b, H_f + H_b), which recomputeSeconds() reports as its excess over the backward.
// A chip with accelerator.gradientAccumulationStreams > 0 adds, after the backward pass, one
// memory-bound kernel per parameter-owning operator that accumulates its weight gradients across
// microbatches: G_b grows by their device time (the autograd engine issues them, not the
// framework's Python, so H_b does not grow).
#include <algorithm>
#include <memory>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/estimate/layer_cost_table.h"
#include "core/estimate/operator_estimator.h"
#include "core/estimate/pass_work.h"
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
    // The host's time to issue each direction's operators (0 when the chip has no host
    // overhead).
    double forwardHostSeconds = 0;
    double backwardHostSeconds = 0;
    // The device time of the gradient-accumulation kernels that follow the backward pass.
    double accumulationSeconds = 0;
    // Tensor-parallel communication hidden behind GEMMs (BuildOptions::tpCommOverlap).
    double forwardHiddenCommSeconds = 0;
    double backwardHiddenCommSeconds = 0;
    // What each pass does (per device, one microbatch), for the energy model: the forward,
    // the backward with its gradient accumulation, and the attention cores that selective
    // recomputation reruns.
    estimate::PassWork forwardWork{};
    estimate::PassWork backwardWork{};
    estimate::PassWork selectiveWork{};

    // The backward pass on the device: its schedule, then the gradient accumulation.
    double backwardDeviceSeconds() const { return backward->makespanSeconds + accumulationSeconds; }
    double forwardSeconds() const { return std::max(forward->makespanSeconds, forwardHostSeconds); }
    double backwardSeconds() const {
        return std::max(backwardDeviceSeconds(), backwardHostSeconds);
    }
    // What rerunning the forward pass adds to the backward pass (full recomputation).
    double recomputeSeconds() const {
        if (forwardHostSeconds <= 0 && backwardHostSeconds <= 0) return forward->makespanSeconds;
        const double both = std::max(forward->makespanSeconds + backwardDeviceSeconds(),
                                     forwardHostSeconds + backwardHostSeconds);
        return std::max(0.0, both - backwardSeconds());
    }
};

struct ModelSchedule {
    std::vector<UniqueLayerSchedule> unique;  // indexed like ModelGraph::uniqueGraphs()
    std::vector<int> uniqueIndexOfLayer;      // layer → entry of `unique`
    double hostOverheadSeconds = 0;           // the chip's host time per issued operator

    const UniqueLayerSchedule& layer(std::size_t layerIndex) const {
        return unique[std::size_t(uniqueIndexOfLayer[layerIndex])];
    }
    // A layer's time in a stream of layers: its makespan or its host time, the longer.
    double forwardSeconds(std::size_t layerIndex) const {
        return layer(layerIndex).forwardSeconds();
    }
    double backwardSeconds(std::size_t layerIndex) const {
        return layer(layerIndex).backwardSeconds();
    }
    double recomputeSeconds(std::size_t layerIndex) const {
        return layer(layerIndex).recomputeSeconds();
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
