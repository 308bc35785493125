#pragma once
// What most commands share: the --model and --hardware flags, hardware overrides derived from
// the parameter registry (`--set key=value` and one flag per parameter, e.g.
// `--num-tensor-cores 16`), and the build options (--tp, --mbs, --seq).
#include <vector>

#include "app/cli/cli_arguments.h"
#include "core/common/expected.h"
#include "core/estimate/operator_estimator.h"
#include "core/hardware/hardware_point.h"
#include "core/model/model_graph.h"
#include "core/model/model_source.h"

namespace tandem::cli {

// --model M and --hardware H with their help text.
std::vector<FlagSpec> modelAndHardwareFlags();
// --set and one flag per accelerator and cluster parameter.
std::vector<FlagSpec> hardwareOverrideFlags();
// --tp, --mbs, --seq.
std::vector<FlagSpec> buildOptionFlags();

core::Expected<core::model::ModelSourcePtr> loadModel(const CliArguments& args);
// Resolves --hardware (default tpuv4-like), applies every override and validates the result.
core::Expected<core::hardware::HardwarePoint> loadHardware(const CliArguments& args);
// The same for a given preset name or hardware file, with the `--set` assignments given (for a
// command whose --set also takes other values: validate's set names) and the per-parameter
// flags of `args`.
core::Expected<core::hardware::HardwarePoint> loadHardware(
    const CliArguments& args, const std::string& nameOrPath,
    const std::vector<std::string>& assignments);
// --tp (default 1), --mbs (default 1), --seq (default: the model's); bytes per element from the
// accelerator. Errors when t is not one the model can be split into.
core::Expected<core::model::BuildOptions> loadBuildOptions(
    const CliArguments& args, const core::model::ModelSource& model,
    const core::hardware::HardwarePoint& hardware);

// Everything estimate and schedule start from: the model built with the build options on the
// hardware, and an estimator for that hardware.
struct ModelOnHardware {
    core::model::ModelSourcePtr source;
    core::hardware::HardwarePoint hardware;
    core::model::BuildOptions options;
    core::model::ModelGraph graph;
    core::estimate::OperatorEstimator estimator;
};
core::Expected<ModelOnHardware> loadModelOnHardware(const CliArguments& args);

}  // namespace tandem::cli
