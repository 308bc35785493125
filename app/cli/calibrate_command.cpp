#include "app/cli/calibrate_command.h"

#include "app/cli/calibrate_output.h"
#include "app/cli/cli_inputs.h"
#include "app/cli/cli_run_control.h"
#include "app/cli/output_file.h"
#include "app/cli/run_set_flags.h"
#include "core/calibration/calibration.h"
#include "core/calibration/fold_assignment.h"
#include "core/hardware/hardware_json.h"
#include "core/io/calibration_json.h"
#include "core/search/thread_pool.h"
#include "core/validation/measured_run_set.h"

namespace tandem::cli {

namespace cal = tandem::core::calibration;
namespace va = tandem::core::validation;

namespace {

std::vector<std::string> splitKeys(const std::vector<std::string>& values) {
    std::vector<std::string> keys;
    for (const std::string& value : values) {
        std::size_t begin = 0;
        while (begin <= value.size()) {
            const std::size_t end = std::min(value.find(',', begin), value.size());
            keys.push_back(value.substr(begin, end - begin));
            begin = end + 1;
        }
    }
    return keys;
}

core::Expected<cal::CalibrationOptions> readOptions(const CliArguments& args) {
    cal::CalibrationOptions options;
    if (args.has("fit")) {
        options.parameters = splitKeys(args.values("fit"));
        for (const std::string& key : options.parameters)
            if (key.empty())
                return core::Error{
                    "--fit takes parameter keys separated by commas, e.g. "
                    "--fit tensorCoreEfficiency,hbmEfficiency; one is empty"};
    }
    const auto folds = args.integer("folds", 5, 0, cal::kMaxFolds);
    if (!folds) return folds.error();
    if (*folds == 1)
        return core::Error{
            "--folds 1 leaves nothing to validate on: give 0 (no "
            "cross-validation) or 2 to " +
            std::to_string(cal::kMaxFolds)};
    options.folds = int(*folds);
    const auto seed = args.integer("seed", 1, 0, std::int64_t(1) << 53);
    if (!seed) return seed.error();
    options.seed = std::uint64_t(*seed);
    if (args.has("holdout")) {
        const auto holdout = args.real("holdout", 0.5, 0, 1);
        if (!holdout) return holdout.error();
        if (!(*holdout > 0 && *holdout < 1))
            return core::Error{
                "--holdout must be a fraction between 0 and 1 (exclusive), e.g. "
                "0.5 to fit on half of the runs and test on the other half"};
        if (args.has("folds"))
            return core::Error{
                "give --folds K (cross-validation) or --holdout F (one split), "
                "not both"};
        options.holdoutFraction = *holdout;
    }
    const auto evaluations =
        args.integer("evaluations", options.maxEvaluations, 1, cal::kMaxCalibrationEvaluations);
    if (!evaluations) return evaluations.error();
    options.maxEvaluations = int(*evaluations);
    return options;
}

int runCalibrate(const CliArguments& args, std::ostream& out, std::ostream& err) {
    const auto fail = [&err](const std::string& message, int code = kExitBadInput) {
        err << "tandem-cli calibrate: " << message << "\n";
        return code;
    };
    const auto [names, assignments] = splitSetValues(args);
    if (args.has("runs") == !names.empty())
        return fail(names.size() > 1 ? "give one bundled set (--set NAME), not several"
                                     : "give the measured runs: --runs FILE.csv (your own) or "
                                       "--set NAME (a bundled set: " +
                                           bundledSetList() + "), one of them");
    if (names.size() > 1) return fail("give one bundled set (--set NAME), not several");
    const auto threads = args.integer("threads", 0, 0, core::search::ThreadPool::kMaxThreads);
    if (!threads) return fail(threads.message());
    auto options = readOptions(args);
    if (!options) return fail(options.message());
    if (args.has("out") && args.value("out")->empty())
        return fail("--out needs a file name for the fitted hardware (e.g. my-cluster.json)");

    auto set = args.has("runs") ? va::runSetFromFile(*args.value("runs"), "a100-like")
                                : va::bundledRunSet(names.front());
    if (!set) return fail(set.message());
    auto hardware = loadHardware(args, args.value("hardware").value_or(set->hardware), assignments);
    if (!hardware) return fail(hardware.message());
    options->source =
        args.has("runs") ? *args.value("runs") : "the bundled set '" + set->name + "'";

    CliRunControl run("calibrate", err, args.has("quiet"));
    va::RunPredictorOptions predictorOptions;
    predictorOptions.threads = int(*threads);
    auto predictor = va::RunPredictor::create(set->runs, predictorOptions, &run.control());
    if (run.interruptedBy() != 0) {
        run.endProgress();
        return fail(run.interruptedText(), run.interruptedExitCode());
    }
    if (!predictor) return fail(predictor.message());
    auto result = cal::calibrate(**predictor, *hardware, *options, &run.control());
    run.endProgress();
    if (!result) return fail(result.message());

    if (args.has("json"))
        out << core::io::calibrationToJson(*result, set->runs) << "\n";
    else
        printCalibration(out, *result, set->runs, args.has("verbose"));
    if (run.interruptedBy() != 0)
        return fail(run.interruptedText() + ": the best point so far is printed; " +
                        (args.has("out") ? "--out was not written" : "nothing was written"),
                    run.interruptedExitCode());
    if (const auto path = args.value("out")) {
        if (core::Status s =
                writeOutputFile(*path, core::hardware::toHardwareJson(result->fitted), out, err);
            !s)
            return fail(s.message());
        if (!args.has("json") && *path != kStandardOutput)
            out << "\nWrote " << *path << ": use it with --hardware " << *path << "\n";
    }
    return kExitOk;
}

}  // namespace

Command calibrateCommand() {
    std::vector<FlagSpec> flags{
        {"runs", "FILE",
         "measured runs to fit to: a CSV file (columns in the README) or a tandem-validation JSON "
         "set"},
        {"set", "NAME",
         "a bundled set of measured runs instead (" + bundledSetList() +
             "); --set KEY=VALUE overrides a parameter of the starting hardware (repeatable)",
         true},
        {"hardware", "H",
         "starting hardware: a preset or hardware file (default: the set's, a100-like)"},
        {"out", "FILE", "write the fitted hardware as a hardware file (- : standard output)"},
        {"fit", "KEY,KEY", "parameters to fit (default: all): " + cal::calibrationKeyList(), true},
        {"folds", "K", "k-fold cross-validation, 2 to 50; 0: none (default 5)"},
        {"seed", "S", "seed of the folds or the hold-out split (default 1)"},
        {"holdout", "F",
         "instead of cross-validation: fit on a random 1 − F of the runs, report the rest"},
        {"evaluations", "N", "predictions of the runs per fit, at most (default 150)"},
    };
    appendRunSetFlags(flags, "print every run: measured, start, fitted and validated prediction");
    return {"calibrate",
            "fit the hardware's efficiencies and overheads to measured runs, cross-validated",
            std::move(flags),
            runCalibrate,
            {}};
}

}  // namespace tandem::cli
