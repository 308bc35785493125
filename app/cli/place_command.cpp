#include "app/cli/place_command.h"

#include "app/cli/budget_flags.h"
#include "app/cli/cli_inputs.h"
#include "app/cli/cli_run_control.h"
#include "app/cli/place_output.h"
#include "app/cli/training_flags.h"
#include "core/common/text_excerpt.h"
#include "core/common/units.h"
#include "core/hardware/parameter_registry.h"
#include "core/io/placement_json.h"
#include "core/placement/model_placement.h"
#include "core/placement/phaze_instance.h"
#include "core/placement/strategy_choice.h"
#include "core/placement/strategy_evaluation.h"

namespace tandem::cli {

namespace pl = tandem::core::placement;
namespace hw = tandem::core::hardware;

namespace {
int runPhazeInstance(const std::string& path, bool json, std::ostream& out, std::ostream& err) {
    const auto instance = pl::loadPhazeInstance(path);
    if (!instance) {
        err << "tandem-cli place: " << instance.message() << "\n";
        return kExitBadInput;
    }
    CliRunControl run("place", err, false);
    const auto output = pl::solvePhazeInstance(*instance, &run.control());
    run.endProgress();
    if (run.interruptedBy() != 0) {
        err << "tandem-cli place: " << run.interruptedText()
            << "; a placement has no partial answer\n";
        return run.interruptedExitCode();
    }
    if (!output) {
        err << "tandem-cli place: " << output.message() << "\n";
        return kExitBadInput;
    }
    const std::string text = pl::formatPhazeOutput(*instance, *output);
    if (json) {
        out << text << "\n";
        return kExitOk;
    }
    out << "PHAZE instance " << path << " (phaze-compat cost model, times in ms as PHAZE's):\n"
        << text << "\n";
    return kExitOk;
}

// "P,T,D" as three integers >= 1.
core::Expected<pl::StrategySpec> parseStrategy(const std::string& text) {
    const core::Error wrong{"--strategy = '" + core::textExcerpt(text) +
                            "' is not P,T,D: three integers >= 1 (pipeline stages, tensor-parallel "
                            "width, data-parallel replicas), e.g. --strategy 16,8,15"};
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == ',')
            parts.emplace_back();
        else
            parts.back() += c;
    }
    if (parts.size() != 3) return wrong;
    std::int64_t values[3] = {};
    for (int i = 0; i < 3; ++i) {
        const auto single =
            CliArguments::parse({"--strategy", parts[std::size_t(i)]}, {{"strategy", "N", ""}});
        if (!single) return wrong;
        const auto value = single->integer("strategy", 1, 1, 1000000);
        if (!value) return core::Error{value.message() + " (in --strategy P,T,D)"};
        values[i] = *value;
    }
    return pl::StrategySpec{values[0], values[1], values[2]};
}

// The placement the flags ask for on `model` and `hardware`: HBM size, microbatch, global batch,
// sequence, recompute, sequence parallelism, interleaving, optimizer, cost model and widths.
core::Expected<pl::ModelPlacementRequest> placementRequestFrom(
    const CliArguments& args, const core::model::ModelSourcePtr& model,
    const hw::HardwarePoint& hardware) {
    pl::ModelPlacementRequest request;
    request.model = model;
    request.hardware = hardware;
    if (const auto gib = args.value("hbm-gib")) {
        const auto value = args.real("hbm-gib", 0, 1.0 / 1024, 16384);
        if (!value) return value.error();
        request.hardware.accelerator.hbmCapacityBytes =
            std::int64_t(*value * double(std::int64_t(1) << 30));
    }
    const auto mbs = args.integer("mbs", 1, 1, 1 << 20);
    if (!mbs) return mbs.error();
    const auto batch = args.integer("global-batch", request.training.globalBatch, 1, 1 << 24);
    if (!batch) return batch.error();
    if (*mbs > *batch)
        return core::Error{"--mbs must not exceed the global batch (" + std::to_string(*batch) +
                           ")"};
    const auto seq = args.integer("seq", 0, 1, 1 << 24);
    if (!seq) return seq.error();
    request.training.microbatch = *mbs;
    request.training.globalBatch = *batch;
    request.training.sequenceLength = *seq;
    if (const auto r = args.value("recompute");
        r && !hw::parseRecompute(*r, request.training.recompute))
        return core::Error{"--recompute = '" + core::textExcerpt(*r) +
                           "' is not one of: off, on, selective, auto"};
    if (auto status = applyTrainingFlags(args, request.training); !status)
        return core::Error{status.message()};
    if (const auto c = args.value("cost-model"); c && !pl::parseCostModel(*c, request.costModel))
        return core::Error{"--cost-model = '" + core::textExcerpt(*c) +
                           "' is not one of: native, phaze-compat"};
    if (auto status = hw::trainingParameters().validate(request.training); !status)
        return core::Error{status.message()};
    for (const std::string& text : args.values("tp")) {
        CliArguments single = CliArguments::parse({"--tp", text}, {{"tp", "T", ""}}).value();
        const auto t = single.integer("tp", 1, 1, 4096);
        if (!t) return t.error();
        request.widths.push_back(*t);
    }
    return request;
}

// `place --strategy P,T,D`: the one strategy, evaluated; what the training leaves to the
// placement (V, the ZeRO stage, sequence parallelism: auto) is chosen first for it.
int runStrategy(const CliArguments& args, const core::model::ModelSource& model,
                const pl::ModelPlacementRequest& request, const pl::StrategySpec& strategy,
                const core::io::BudgetContext* budget, std::ostream& out, std::ostream& err) {
    CliRunControl run("place", err, false);
    pl::ModelPlacementRequest resolved = request;
    bool chosenFits = false;
    const bool chooses = pl::leavesChoicesToPlacement(request.training);
    if (chooses) {
        pl::ModelPlacementRequest choosing = request;
        choosing.training.strategyPipeline = strategy.pipeline;
        choosing.training.strategyTensor = strategy.tensor;
        choosing.training.strategyData = strategy.data;
        const auto placed = pl::placeModel(choosing, &run.control());
        if (placed) {
            chosenFits = placed->result.plan.has_value();
            resolved.training.interleave = placed->problem.training.interleave;
            resolved.training.zero = placed->problem.training.zero;
            resolved.training.sequenceParallel = placed->problem.training.sequenceParallel;
        } else if (run.interruptedBy() == 0) {
            run.endProgress();
            err << "tandem-cli place: " << placed.message() << "\n";
            return kExitBadInput;
        }
    }
    const auto evaluated = run.interruptedBy() != 0
                               ? core::Expected<pl::StrategyEvaluation>(core::Error{"interrupted"})
                               : pl::evaluateStrategy(resolved, strategy, &run.control());
    run.endProgress();
    if (run.interruptedBy() != 0) {
        err << "tandem-cli place: " << run.interruptedText() << "\n";
        return run.interruptedExitCode();
    }
    if (!evaluated) {
        err << "tandem-cli place: " << evaluated.message() << "\n";
        return kExitBadInput;
    }
    if (args.has("json")) {
        out << core::io::strategyToJson(*evaluated, 2, budget) << "\n";
        return kExitOk;
    }
    printStrategy(out, model, resolved, *evaluated, budget);
    if (chooses && chosenFits)
        out << "Chosen by the placement (auto): " << choiceText(resolved.training) << "\n";
    else if (chooses)
        out << "No value of what was left to the placement (auto) fits either.\n";
    return kExitOk;
}

int runPlace(const CliArguments& args, std::ostream& out, std::ostream& err) {
    auto fail = [&err](const std::string& message) {
        err << "tandem-cli place: " << message << "\n";
        return kExitBadInput;
    };
    if (const auto file = args.value("phaze-instance")) {
        // The instance fixes the model, the cluster, the batch and the widths: any other flag
        // would be ignored, so it is refused.
        for (const std::string& name : args.names()) {
            if (name != "phaze-instance" && name != "json")
                return fail("--" + name +
                            " cannot be combined with --phaze-instance: the instance file fixes "
                            "the layers, devices (maxDevices), memory, batch and widths; edit "
                            "the file, or use --model to place a model instead");
        }
        return runPhazeInstance(*file, args.has("json"), out, err);
    }
    const auto model = loadModel(args);
    if (!model) return fail(model.message());
    auto hardware = loadHardware(args);
    if (!hardware) return fail(hardware.message());

    auto built = placementRequestFrom(args, *model, *hardware);
    if (!built) return fail(built.message());
    const pl::ModelPlacementRequest& request = *built;
    const double tokensPerSample =
        double(pl::trainedSequenceLength(request.training, model->get()));
    const auto budgetGiven = budgetFrom(args, tokensPerSample);
    if (!budgetGiven) return fail(budgetGiven.message());
    const core::io::BudgetContext* budget = *budgetGiven ? &**budgetGiven : nullptr;
    if (const auto text = args.value("strategy")) {
        if (args.has("tp"))
            return fail(
                "--tp cannot be combined with --strategy P,T,D: the strategy's T is the "
                "tensor-parallel width");
        const auto strategy = parseStrategy(*text);
        if (!strategy) return fail(strategy.message());
        return runStrategy(args, **model, request, *strategy, budget, out, err);
    }
    CliRunControl run("place", err, false);
    const auto placed = pl::placeModel(request, &run.control());
    run.endProgress();
    if (run.interruptedBy() != 0) {
        err << "tandem-cli place: " << run.interruptedText()
            << "; a placement has no partial answer\n";
        return run.interruptedExitCode();
    }
    if (!placed) return fail(placed.message());

    if (args.has("json")) {
        out << core::io::placementToJson(*placed, 2, budget) << "\n";
        return kExitOk;
    }
    printPlacement(out, **model, hardware->name, request, *placed, budget);
    return kExitOk;
}
}  // namespace

Command placeCommand() {
    std::vector<FlagSpec> flags = modelAndHardwareFlags();
    flags.push_back(
        {"phaze-instance", "FILE", "solve a PHAZE device-placement input file instead"});
    flags.push_back({"strategy", "P,T,D",
                     "evaluate this Megatron-style strategy instead of searching: P stages of "
                     "equal layer counts, T-way tensor parallel, D replicas"});
    flags.push_back({"tp", "T",
                     "tensor-parallel width to consider (repeatable; default: the "
                     "model's widths)",
                     true});
    flags.push_back({"mbs", "B", "microbatch size in samples (default 1)"});
    flags.push_back({"global-batch", "N", "samples per iteration (default 4096)"});
    flags.push_back({"seq", "S", "sequence length in tokens (default: the model's)"});
    flags.push_back({"recompute", "off|on|selective|auto",
                     "activation recomputation: none, Megatron's full, only the attention "
                     "core, or per stage the fastest that fits (default off)"});
    for (auto& f : trainingFlags()) flags.push_back(f);
    flags.push_back({"hbm-gib", "G", "HBM per device in GiB (default: the hardware's)"});
    flags.push_back({"cost-model", "M", "native (default) or phaze-compat"});
    for (auto& f : budgetFlags()) flags.push_back(f);
    flags.push_back({"json", "", "print one JSON object"});
    for (auto& f : hardwareOverrideFlags()) flags.push_back(f);
    return {"place", "fastest pipeline × tensor × data-parallel placement", flags, runPlace, {}};
}

}  // namespace tandem::cli
