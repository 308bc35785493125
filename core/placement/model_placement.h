#pragma once
// Where the model pipeline meets the placement solver: builds a PlacementProblem from the model
// graphs of each tensor-parallel width and their layer schedules (forward and backward layer
// times are the schedules' makespans; parameter, activation and edge sizes come from the
// graphs), and runs the whole chain for one model on one hardware point — build each width,
// estimate, schedule every unique layer, place, and evaluate the model's fixed baseline — which
// is what `tandem-cli place`, the GUI and the search's evaluator ask for.
#include <memory>
#include <optional>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/estimate/operator_estimator.h"
#include "core/hardware/hardware_point.h"
#include "core/hardware/training_config.h"
#include "core/model/model_source.h"
#include "core/placement/fixed_strategy.h"
#include "core/placement/placement_solver.h"
#include "core/placement/strategy_spec.h"
#include "core/schedule/model_schedule.h"

namespace tandem::core::placement {

struct WidthInput {
    std::shared_ptr<const model::ModelGraph> graph;
    std::shared_ptr<const schedule::ModelSchedule> schedules;
};

// The model's own fixed Megatron-style strategy as the baseline evaluator takes it; nullopt when
// the model names none.
std::optional<FixedStrategy> fixedStrategyOf(const model::ModelSource& model);

// One LayerCostSet per width; all widths must describe the same layers and edges.
Expected<PlacementProblem> makePlacementProblem(const std::vector<WidthInput>& widths,
                                                const hardware::ClusterConfig& cluster,
                                                const hardware::TrainingConfig& training,
                                                const hardware::AcceleratorConfig& accelerator);

struct ModelPlacementRequest {
    model::ModelSourcePtr model;
    hardware::HardwarePoint hardware;
    hardware::TrainingConfig training;  // sequenceLength 0 = the model's default
    std::vector<std::int64_t> widths;   // empty: the model's tensorParallelWidths()
    CostModelKind costModel = CostModelKind::Native;
    schedule::ScheduleOptions scheduleOptions;
};

// The request's hardware as its cost model prices it: phaze-compat sees the ideal chip and
// cluster (AcceleratorConfig::ideal), native the description as given.
hardware::HardwarePoint pricedHardware(const ModelPlacementRequest& request);

// Builds the model at width t, estimates and schedules its unique layers on `estimator`.
Expected<WidthInput> buildWidthInput(const ModelPlacementRequest& request, std::int64_t t,
                                     const estimate::OperatorEstimator& estimator,
                                     const schedule::LayerScheduler& scheduler,
                                     RunControl* control);

struct ModelPlacement {
    std::vector<WidthInput> widths;  // ascending t
    PlacementProblem problem;
    PlacementResult result;                       // result.plan empty when nothing fits
    std::optional<FixedStrategyResult> baseline;  // when the model names a fixed strategy
    FixedStrategy baselineStrategy;
    // The strategy the training fixed (result.plan is then its evaluation, not a search's).
    std::optional<StrategySpec> fixedStrategy;
};

// Errors: invalid request (unknown width, a width the model cannot be split into, a chip the
// estimator cannot run), scheduler or solver errors, cancellation.
Expected<ModelPlacement> placeModel(const ModelPlacementRequest& request,
                                    RunControl* control = nullptr);

}  // namespace tandem::core::placement
