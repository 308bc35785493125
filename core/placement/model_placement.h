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

// The tokens of one sample `training` trains `model` at: its sequence length, or the model's
// own when the training leaves it at 0 (0 when there is no model).
std::int64_t trainedSequenceLength(const hardware::TrainingConfig& training,
                                   const model::ModelSource* model);

// The request's hardware as its cost model prices it: phaze-compat sees the ideal chip and
// cluster (AcceleratorConfig::ideal), native the description as given.
hardware::HardwarePoint pricedHardware(const ModelPlacementRequest& request);

// Builds the model at width t, estimates and schedules its unique layers on `estimator`.
Expected<WidthInput> buildWidthInput(const ModelPlacementRequest& request, std::int64_t t,
                                     const estimate::OperatorEstimator& estimator,
                                     const schedule::LayerScheduler& scheduler,
                                     RunControl* control);

// The choices placeModel() made for what the training left to it: sequence parallelism, and V
// and the ZeRO stage (strategy_choice.h).
struct PlacementChoice {
    bool interleaveChosen = false;  // the training left V to the placement
    bool zeroChosen = false;        // the training left the ZeRO stage to the placement
    // The training left sequence parallelism to the placement: the model was placed without
    // and with it, and result.plan (plan.sequenceParallel) is the faster.
    bool sequenceParallelChosen = false;
    // The Megatron-style strategy of equal stages that won (result.plan is its evaluation, with
    // its V and ZeRO stage in plan.interleave, plan.zero and problem.training); nullopt: the
    // partition solver's plan (V = 1, ZeRO 0) stayed, or nothing fits.
    std::optional<StrategySpec> strategy;
    // Seconds per batch of the solver's (or the fixed strategy's) plan with V = 1 and ZeRO 0
    // that the choice was measured against; 0 when that did not fit or was not priced.
    double plainSecondsPerBatch = 0;
    // Strategies of equal stages weighed: priced, or ruled out by a lower bound on their time.
    std::int64_t strategiesPriced = 0;
};

struct ModelPlacement {
    std::vector<WidthInput> widths;  // ascending t
    PlacementProblem problem;
    PlacementResult result;                       // result.plan empty when nothing fits
    std::optional<FixedStrategyResult> baseline;  // when the model names a fixed strategy
    FixedStrategy baselineStrategy;
    // The strategy the training fixed (result.plan is then its evaluation, not a search's).
    std::optional<StrategySpec> fixedStrategy;
    // Set when the training left V or the ZeRO stage to the placement (or gave ones only
    // strategies of equal stages can price): what was chosen and against what.
    std::optional<PlacementChoice> choice;
};

// With the training's interleave or zero left to the placement (kInterleaveChosen,
// kZeroChosen) the result is the faster of the solver's plan (V = 1, ZeRO 0) and the best
// Megatron-style strategy with every V and ZeRO stage; with a fixed strategy, its best V and
// ZeRO stage. With sequence parallelism left to it (SequenceParallel::Auto), the faster of the
// placements without and with it (without on ties; phaze-compat: without).
// Errors: invalid request (unknown width, a width the model cannot be split into, a chip the
// estimator cannot run), scheduler or solver errors, cancellation.
Expected<ModelPlacement> placeModel(const ModelPlacementRequest& request,
                                    RunControl* control = nullptr);

// What sequence parallelism left to the placement (SequenceParallel::Auto) tries, in the order
// that wins ties: off unless Transformer Engine's TP overlap needs it on, on unless the cost
// model is phaze-compat (PHAZE has none). placeModel() and the search's evaluator both use it.
std::vector<hardware::SequenceParallel> sequenceParallelTrials(
    const hardware::TrainingConfig& training, CostModelKind costModel);

}  // namespace tandem::core::placement
