#include "app/cli/cli_inputs.h"

#include <iostream>
#include "core/hardware/parameter_overrides.h"
#include "core/hardware/parameter_registry.h"

#include "core/hardware/preset_library.h"
#include "core/importers/model_loader.h"
#include "core/model/model_zoo.h"

namespace tandem::cli {

using core::Error;
using core::Expected;
namespace hw = core::hardware;

namespace {
template <class Registry>
void appendParameterFlags(std::vector<FlagSpec>& flags, const Registry& registry) {
    for (const auto& p : registry.parameters()) {
        std::string help = std::string(p.spec.label);
        if (!p.spec.unit.empty()) help += " (" + std::string(p.spec.unit) + ")";
        flags.push_back({p.spec.cliFlag().substr(2), "X", help});
    }
}
}  // namespace

std::vector<FlagSpec> modelAndHardwareFlags() {
    return {
        {"model", "M", "zoo model, Tandem model file, Hugging Face config.json or .onnx file"},
        {"hardware", "H", "hardware preset or hardware file (.json); default tpuv4-like"},
    };
}

std::vector<FlagSpec> hardwareOverrideFlags() {
    std::vector<FlagSpec> flags{{"set", "KEY=VALUE",
                                 "override a hardware parameter, e.g. numTensorCores=16 "
                                 "(repeatable)",
                                 true}};
    appendParameterFlags(flags, hw::acceleratorParameters());
    appendParameterFlags(flags, hw::clusterParameters());
    return flags;
}

std::vector<FlagSpec> buildOptionFlags() {
    return {
        {"tp", "T", "tensor-parallel width (default 1)"},
        {"mbs", "B", "microbatch size in samples (default 1)"},
        {"seq", "S", "sequence length in tokens (default: the model's)"},
        {"sequence-parallel", "", "Megatron's sequence parallelism (with --tp > 1)"},
        {"flash-attention", "", "each attention core as one fused kernel"},
        {"tp-comm-overlap", "",
         "tensor-parallel collectives pipelined with their GEMMs (with --sequence-parallel)"},
    };
}

Expected<core::model::ModelSourcePtr> loadModel(const CliArguments& args) {
    const auto name = args.value("model");
    if (!name) {
        return Error{"--model is required; zoo models: " + [] {
            std::string list;
            for (const auto& entry : core::model::zooModels())
                list += (list.empty() ? "" : ", ") + entry.name;
            return list;
        }()};
    }
    auto loaded = core::importers::loadModelWithReport(*name);
    if (!loaded) return loaded.error();
    // Import warnings (e.g. ONNX operators costed as generic vector work) never change a
    // result, so they go to stderr and the command carries on.
    for (const std::string& warning : loaded->warnings) std::cerr << "warning: " << warning << "\n";
    return loaded->source;
}

Expected<hw::HardwarePoint> loadHardware(const CliArguments& args) {
    return loadHardware(args, args.value("hardware").value_or("tpuv4-like"), args.values("set"));
}

Expected<hw::HardwarePoint> loadHardware(const CliArguments& args, const std::string& nameOrPath,
                                         const std::vector<std::string>& assignments) {
    auto point = hw::PresetLibrary::resolveHardware(nameOrPath);
    if (!point) return point;
    hw::HardwarePoint result = std::move(point).value();
    const hw::ConfigTargets targets{&result.accelerator, &result.cluster, nullptr};
    for (const std::string& assignment : assignments) {
        if (auto status = hw::applyOverride(targets, assignment); !status) {
            return Error{status.message()};
        }
    }
    for (const auto& flag : hardwareOverrideFlags()) {
        if (flag.name == "set" || !args.has(flag.name)) continue;
        if (auto status = hw::applyFlag(targets, "--" + flag.name, *args.value(flag.name));
            !status) {
            return Error{status.message()};
        }
    }
    // A cluster smaller than the preset's node (--devices 2 on a preset with nodes of 8) is one
    // node of that many devices, unless the devices per node were given as well.
    const auto setsKey = [&assignments](const std::string& key) {
        for (const std::string& assignment : assignments)
            if (assignment.rfind(key + "=", 0) == 0 ||
                assignment.rfind("cluster." + key + "=", 0) == 0)
                return true;
        return false;
    };
    if (!args.has("devices-per-node") && !setsKey("devicesPerNode") &&
        result.cluster.devicesPerNode > result.cluster.devices)
        result.cluster.devicesPerNode = result.cluster.devices;
    if (auto status = hw::validateTargets(targets); !status) return Error{status.message()};
    return result;
}

Expected<core::model::BuildOptions> loadBuildOptions(const CliArguments& args,
                                                     const core::model::ModelSource& model,
                                                     const hw::HardwarePoint& hardware) {
    core::model::BuildOptions options;
    const auto tp = args.integer("tp", 1, 1, 4096);
    if (!tp) return tp.error();
    const auto mbs = args.integer("mbs", 1, 1, 1 << 20);
    if (!mbs) return mbs.error();
    const auto seq = args.integer("seq", model.defaultSequenceLength(), 1, 1 << 24);
    if (!seq) return seq.error();
    options.tensorParallel = *tp;
    options.microbatch = *mbs;
    options.sequenceLength = *seq;
    options.bytesPerElement = hardware.accelerator.bytesPerElement;
    options.sequenceParallel = args.has("sequence-parallel");
    options.flashAttention = args.has("flash-attention");
    options.tpCommOverlap = args.has("tp-comm-overlap");
    if (options.tpCommOverlap && !options.sequenceParallel)
        return Error{
            "--tp-comm-overlap needs --sequence-parallel: Transformer Engine overlaps the "
            "all-gathers and reduce-scatters of sequence parallelism with their GEMMs"};
    return options;
}

Expected<ModelOnHardware> loadModelOnHardware(const CliArguments& args) {
    auto model = loadModel(args);
    if (!model) return model.error();
    auto hardware = loadHardware(args);
    if (!hardware) return hardware.error();
    auto options = loadBuildOptions(args, **model, *hardware);
    if (!options) return options.error();
    auto graph = (*model)->build(*options);
    if (!graph) return graph.error();
    auto estimator =
        core::estimate::OperatorEstimator::create(hardware->accelerator, hardware->cluster);
    if (!estimator) return estimator.error();
    return ModelOnHardware{*model, std::move(hardware).value(), *options, std::move(graph).value(),
                           std::move(estimator).value()};
}

}  // namespace tandem::cli
