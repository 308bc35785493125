#include "app/cli/validate_command.h"

#include "app/cli/cli_inputs.h"
#include "app/cli/cli_run_control.h"
#include "app/cli/run_set_flags.h"
#include "app/cli/validate_output.h"
#include "core/io/validation_json.h"
#include "core/search/thread_pool.h"
#include "core/validation/measured_run_set.h"
#include "core/validation/validation_report.h"

namespace tandem::cli {

namespace va = tandem::core::validation;

namespace {

int runValidate(const CliArguments& args, std::ostream& out, std::ostream& err) {
    const auto fail = [&err](const std::string& message, int code = kExitBadInput) {
        err << "tandem-cli validate: " << message << "\n";
        return code;
    };
    // --set takes both a bundled set's name and hardware overrides (key=value).
    auto [names, assignments] = splitSetValues(args);
    if (args.has("runs") && !names.empty())
        return fail("give --set NAME (a bundled set) or --runs FILE (your own), not both");
    const auto threads = args.integer("threads", 0, 0, core::search::ThreadPool::kMaxThreads);
    if (!threads) return fail(threads.message());

    std::vector<va::MeasuredRunSet> sets;
    if (const auto file = args.value("runs")) {
        auto set = va::runSetFromFile(*file, "a100-like");
        if (!set) return fail(set.message());
        sets.push_back(std::move(set).value());
    } else {
        if (names.empty()) names = va::bundledRunSetNames();
        for (const std::string& name : names) {
            auto set = va::bundledRunSet(name);
            if (!set) return fail(set.message());
            sets.push_back(std::move(set).value());
        }
    }
    // A prediction that fails on our own sets and hardware is a bug; on the user's, bad input.
    bool userInput = args.has("runs") || args.has("hardware") || !assignments.empty();
    for (const auto& flag : hardwareOverrideFlags()) userInput = userInput || args.has(flag.name);

    CliRunControl run("validate", err, args.has("quiet"));
    std::vector<va::ValidationReport> reports;
    for (va::MeasuredRunSet& set : sets) {
        auto hardware =
            loadHardware(args, args.value("hardware").value_or(set.hardware), assignments);
        if (!hardware) return fail(hardware.message());
        va::RunPredictorOptions options;
        options.threads = int(*threads);
        options.progressLabel = set.name;
        auto report = va::validateRunSet(std::move(set), *hardware, options, &run.control());
        if (run.interruptedBy() != 0) {
            run.endProgress();
            return fail(run.interruptedText(), run.interruptedExitCode());
        }
        if (!report) return fail(report.message(), userInput ? kExitBadInput : kExitInternal);
        reports.push_back(std::move(report).value());
    }
    run.endProgress();
    if (args.has("json")) {
        out << core::io::validationToJson(reports) << "\n";
        return kExitOk;
    }
    for (std::size_t i = 0; i < reports.size(); ++i) {
        if (i > 0) out << "\n";
        printValidationReport(out, reports[i], args.has("verbose"));
    }
    return kExitOk;
}

}  // namespace

Command validateCommand() {
    std::vector<FlagSpec> flags{
        {"set", "NAME",
         "one bundled set of measured runs (" + bundledSetList() +
             "; default: every set); --set KEY=VALUE overrides a hardware parameter (repeatable)",
         true},
        {"runs", "FILE",
         "your own measured runs: a CSV file (columns in the README) or a tandem-validation JSON "
         "set like the bundled ones"},
        {"hardware", "H",
         "hardware preset or hardware file (.json); default: the set's (a100-like)"}};
    appendRunSetFlags(flags, "print every run, also of large sets");
    return {"validate",
            "predicted vs measured training iterations of published and your own runs",
            std::move(flags),
            runValidate,
            {}};
}

}  // namespace tandem::cli
