#include "app/cli/schedule_command.h"

#include <map>

#include "app/cli/cli_inputs.h"
#include "app/cli/cli_run_control.h"
#include "app/cli/output_file.h"
#include "app/cli/text_table.h"
#include "core/common/text_excerpt.h"
#include "core/common/units.h"
#include "core/io/schedule_json.h"
#include "core/schedule/model_schedule.h"

namespace tandem::cli {

namespace sch = tandem::core::schedule;
using core::formatSeconds;

namespace {
std::string statusText(const sch::LayerSchedule& s) {
    std::string text(sch::toString(s.status));
    if (s.status != sch::ScheduleStatus::Optimal) {
        text += " (gap " + core::formatFixed(100 * s.gap, 2) + " %)";
    } else {
        text += " (" + std::string(sch::toString(s.stats.provedBy)) + ")";
    }
    return text;
}

void printOperators(std::ostream& out, const core::model::LayerGraph& graph, sch::Direction d,
                    const sch::LayerSchedule& s) {
    const auto& ops = d == sch::Direction::Forward ? graph.forward() : graph.backward();
    TextTable table({"operator", "class", "start", "duration", "mode", "lanes"},
                    {false, false, true, true, false, false});
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const auto& task = s.tasks[i];
        std::string lanes;
        for (const auto& range : task.lanes) {
            const std::string first = toString(sch::Lane{range.kind, range.first});
            lanes += (lanes.empty() ? "" : " ") + first;
            if (range.count > 1) {
                lanes += "–" + std::to_string(range.first + range.count - 1);
            }
        }
        table.addRow({ops[i].name, std::string(core::model::toString(ops[i].opClass)),
                      formatSeconds(task.startSeconds), formatSeconds(task.durationSeconds),
                      std::string(sch::toString(task.mode)), lanes});
    }
    table.print(out, "  ");
}

int runSchedule(const CliArguments& args, std::ostream& out, std::ostream& err) {
    auto fail = [&err](const std::string& message) {
        err << "tandem-cli schedule: " << message << "\n";
        return kExitBadInput;
    };
    const auto loaded = loadModelOnHardware(args);
    if (!loaded) return fail(loaded.message());
    const auto* graph = &loaded->graph;
    const auto* hardware = &loaded->hardware;
    const auto* options = &loaded->options;

    sch::ScheduleOptions scheduleOptions;
    const auto limit = args.real("time-limit", scheduleOptions.timeLimitSeconds, 1e-3, 86400);
    if (!limit) return fail(limit.message());
    scheduleOptions.timeLimitSeconds = *limit;
    if (const auto f = args.value("formulation");
        f && !sch::parseFormulation(*f, scheduleOptions.formulation)) {
        return fail("--formulation = '" + core::textExcerpt(*f) +
                    "' is not one of: fast, reference");
    }
    std::vector<std::size_t> layers;
    if (const auto name = args.value("layer")) {
        for (std::size_t l = 0; l < graph->layers().size(); ++l) {
            if (graph->layers()[l].name == *name) layers.push_back(l);
        }
        if (layers.empty()) {
            return fail("no layer named '" + core::textExcerpt(*name) +
                        "' (layers: " + core::textExcerpt(graph->layers().front().name) + ", …, " +
                        core::textExcerpt(graph->layers().back().name) + ")");
        }
    }
    const sch::LayerScheduler scheduler(scheduleOptions);
    CliRunControl run("schedule", err, false);
    const auto schedules = sch::scheduleModel(*graph, loaded->estimator, scheduler, &run.control());
    run.endProgress();
    if (run.interruptedBy() != 0 && !schedules) {
        err << "tandem-cli schedule: " << run.interruptedText() << " before every layer had a "
            << "schedule; nothing to show\n";
        return run.interruptedExitCode();
    }
    if (!schedules) return fail(schedules.message());
    // Interrupted part-way: the layers solved after the interrupt keep their first (heuristic)
    // schedule, which the status column shows; the output is complete but not optimal.
    auto finish = [&run, &err] {
        if (run.interruptedBy() == 0) return int(kExitOk);
        err << "tandem-cli schedule: " << run.interruptedText()
            << "; the schedules shown are the best found until then (see their status)\n";
        return run.interruptedExitCode();
    };

    const bool traceToStdout = args.value("trace") == std::string(kStandardOutput);
    if (traceToStdout && args.has("json"))
        return fail("--trace - and --json both write to standard output; give --trace a file name");
    if (const auto trace = args.value("trace")) {
        const auto status =
            writeOutputFile(*trace, core::io::chromeTrace(*graph, *schedules, layers), out, err);
        if (!status) return fail("cannot write the trace: " + status.message());
    }
    if (args.has("json")) {
        out << core::io::scheduleToJson(*graph, *schedules, layers) << "\n";
        return finish();
    }
    // With the trace on standard output, the table goes to standard error.
    std::ostream& report = traceToStdout ? err : out;
    TextTable table({"layers", "forward", "fwd status", "backward", "bwd status"},
                    {false, true, false, true, false});
    std::map<int, std::vector<std::string>> names;
    for (std::size_t l = 0; l < graph->layers().size(); ++l)
        names[graph->uniqueIndexOfLayer()[l]].push_back(graph->layers()[l].name);
    for (const auto& [u, list] : names) {
        const auto& entry = schedules->unique[std::size_t(u)];
        const std::string label = list.size() == 1 ? list.front()
                                                   : list.front() + " … " + list.back() + " (×" +
                                                         std::to_string(list.size()) + ")";
        table.addRow({label, formatSeconds(entry.forward->makespanSeconds),
                      statusText(*entry.forward), formatSeconds(entry.backward->makespanSeconds),
                      statusText(*entry.backward)});
    }
    report << graph->name() << " on " << hardware->name << " (t = " << options->tensorParallel
           << ", microbatch " << options->microbatch << "): layer makespans\n";
    table.print(report);
    for (std::size_t l : layers) {
        const auto& entry = schedules->layer(l);
        report << "\n" << graph->layers()[l].name << " forward:\n";
        printOperators(report, *entry.graph, sch::Direction::Forward, *entry.forward);
        report << "\n" << graph->layers()[l].name << " backward:\n";
        printOperators(report, *entry.graph, sch::Direction::Backward, *entry.backward);
    }
    return finish();
}
}  // namespace

Command scheduleCommand() {
    std::vector<FlagSpec> flags = modelAndHardwareFlags();
    for (auto& f : buildOptionFlags()) flags.push_back(f);
    flags.push_back({"layer", "NAME", "show (and export) only this layer, e.g. layer.0"});
    flags.push_back({"json", "", "print every operator's start, duration, mode and lanes"});
    flags.push_back({"trace", "FILE",
                     "write a Chrome trace (open in Perfetto or chrome://tracing; '-': standard "
                     "output)"});
    flags.push_back({"time-limit", "S", "seconds per layer solve (default 10)"});
    flags.push_back({"formulation", "F", "fast (default) or reference (PHAZE's ILP)"});
    for (auto& f : hardwareOverrideFlags()) flags.push_back(f);
    return {"schedule", "optimal per-layer operator schedules on one chip", flags, runSchedule, {}};
}

}  // namespace tandem::cli
