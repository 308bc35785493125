#include "app/cli/search_command.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "app/cli/cli_run_control.h"
#include "app/cli/output_file.h"
#include "app/cli/text_table.h"
#include "core/common/units.h"
#include "core/hardware/chip_description.h"
#include "core/importers/model_loader.h"
#include "core/io/project_file.h"
#include "core/io/search_results_json.h"
#include "core/placement/cost_model_kind.h"
#include "core/search/search_run.h"
#include "core/search/thread_pool.h"

namespace tandem::cli {

namespace se = tandem::core::search;
namespace hw = tandem::core::hardware;
using core::formatFixed;
using core::formatSeconds;

namespace {

std::string count(double n) {
    return core::formatCount(n);
}

std::string throughput(double samplesPerSecond) {
    return core::formatThroughput(samplesPerSecond);
}

std::string pointText(const se::SearchPoint& p) {
    return hw::describeChip(p.accelerator) + " · HBM " +
           core::formatBytes(double(p.hbmCapacityBytes())) + " · " +
           formatFixed(p.areaSquareMillimetres, 1) + " mm² · mbs " +
           std::to_string(p.microbatchSize) + " · recompute " +
           std::string(hw::toString(p.recompute));
}

std::string planText(const std::shared_ptr<const core::placement::Plan>& plan) {
    if (!plan) return "";
    return "t " + std::to_string(plan->tensorParallel) + ", d " +
           std::to_string(plan->dataParallel) + ", " + std::to_string(plan->stages.size()) +
           " stages";
}

void printBaselines(std::ostream& out, const se::ModelSearchReport& report, bool multi) {
    const se::SearchBaselines& b = report.baselines;
    const std::pair<const char*, const se::BaselineOutcome*> rows[] = {
        {"reference chip + fixed strategy", &b.referenceFixed},
        {"reference chip + Tandem placement", &b.referencePlaced},
        {"searched chip + fixed strategy", &b.searchedFixed},
        {"  same options: reference chip + placement", &b.placementOnly},
        {"  same options: searched chip + fixed", &b.chipOnly},
        {"  same options: searched chip + placement", &b.chipAndPlacement},
        {"  same HBM: searched point + placement", &b.sameHbm},
        {multi ? "chosen chip + Tandem placement" : "joint optimum", &b.joint}};
    TextTable table({"baseline", "throughput", "joint ×", "plan", "point"},
                    {false, true, true, false, false});
    for (const auto& [name, o] : rows) {
        if (!o->available) {
            table.addRow({name, "—", "—", "", o->message});
            continue;
        }
        const double factor = b.factorOver(*o);
        table.addRow({name, throughput(o->throughputSamplesPerSecond),
                      factor > 0 ? formatFixed(factor, 2) + "×" : "—", planText(o->plan),
                      pointText(o->point)});
    }
    table.print(out, "  ");
    if (!b.referenceInSpace)
        out << "  note: the reference chip is not among the searched chips, so the joint "
               "optimum may fall below the reference baselines.\n";
}

void printSummary(std::ostream& out, const se::SearchRequest& request,
                  const se::SearchOutcome& outcome) {
    const se::SearchResults& r = *outcome.results;
    const se::SearchStatistics& s = r.statistics();
    const bool multi = request.models.size() > 1;
    std::string names;
    for (const auto& m : outcome.models) names += (names.empty() ? "" : ", ") + m.name;
    const auto feasible = std::count_if(r.points().begin(), r.points().end(),
                                        [](const se::EvaluatedPoint& p) { return p.feasible(); });
    out << "Search: " << names << " over '" << request.space.name << "' ("
        << count(double(outcome.chips)) << " chips, " << count(double(s.pointsInSpace))
        << " points), " << s.explorer << " explorer, " << s.threads << " threads\n";
    out << "Evaluated " << count(double(s.evaluated)) << " points (" << count(double(feasible))
        << " feasible";
    if (s.skipped) out << ", " << count(double(s.skipped)) << " skipped by the bound";
    out << ") in " << formatSeconds(outcome.timings.search) << " ("
        << formatFixed(double(s.evaluated) / std::max(1e-9, outcome.timings.search), 0)
        << " points/s)" << (s.cancelled ? " — CANCELLED: partial results" : "") << "\n";
    if (!r.best()) {
        out << "No point fits: every configuration runs out of HBM or fails (see the CSV/JSON "
               "for each point's reason).\n";
    } else {
        const se::EvaluatedPoint& best = r.points()[*r.best()];
        out << "Best point: " << pointText(best.point) << "\n  ";
        if (multi) {
            out << "objective " << formatFixed(best.objective, 3)
                << " (geometric mean of throughput / reference-chip throughput)";
            for (std::size_t m = 0; m < outcome.models.size(); ++m)
                out << "; " << outcome.models[m].name << " "
                    << throughput(best.modelThroughputsSamplesPerSecond[m]);
            out << "\n";
        } else {
            out << throughput(best.throughputSamplesPerSecond) << " with t "
                << best.planShape.tensorParallel << ", d " << best.planShape.dataParallel << ", "
                << best.planShape.stages << " stages, "
                << formatSeconds(best.planShape.timePerBatchSeconds) << " per batch\n";
        }
    }
    out << "Pareto front: " << r.paretoByArea().size() << " points (throughput vs area), "
        << r.paretoByHbm().size() << " (vs HBM)\n";
    for (const se::ModelSearchReport& m : outcome.models) {
        out << "\nBaselines for " << m.name << ":\n";
        printBaselines(out, m, multi);
    }
    const se::SearchTimings& t = outcome.timings;
    out << "\nTime per phase: graphs " << formatSeconds(t.graphs) << ", reference chip "
        << formatSeconds(t.reference) << ", search " << formatSeconds(t.search)
        << " wall (CPU: estimate " << formatSeconds(t.estimateCpu) << ", schedule "
        << formatSeconds(t.scheduleCpu) << ", placement " << formatSeconds(t.placementCpu)
        << "), plans and baselines " << formatSeconds(t.reports) << "; total "
        << formatSeconds(t.total) << "\n";
}

int runSearch(const CliArguments& args, std::ostream& out, std::ostream& err) {
    auto fail = [&err](const std::string& message) {
        err << "tandem-cli search: " << message << "\n";
        return kExitBadInput;
    };
    se::SearchRequest request;
    // A project (the GUI's file) supplies the model, the space, the training and the explorer;
    // flags given as well override it.
    std::optional<core::io::ProjectFile> project;
    if (const auto path = args.value("project")) {
        auto loaded = core::io::ProjectFile::load(*path);
        if (!loaded) return fail(loaded.message());
        project = std::move(*loaded);
        request.training = project->training;
        request.explorer = project->explorer;
        request.threads = int(project->threads);
    }
    std::vector<std::string> models = args.values("model");
    const bool modelFromProject = models.empty() && project;
    if (modelFromProject) {  // its model first, then the models it searches alongside
        models.push_back(project->model);
        models.insert(models.end(), project->searchModels.begin(), project->searchModels.end());
    }
    if (models.empty())
        return fail("--model is required (a zoo name or a model file), or --project FILE");
    for (const std::string& name : models) {
        auto model = core::importers::loadModel(name);
        if (!model && modelFromProject)
            return fail(*args.value("project") + ": model: " + model.message());
        if (!model) return fail(model.message());
        request.models.push_back(*model);
    }
    const std::string space = args.value("space").value_or(project ? "" : "phaze");
    if (space.empty()) {
        request.space = project->search;
        request.space.base = project->hardware;
    } else if (space == "phaze") {
        request.space = se::SearchSpace::phaze();
    } else {
        auto loaded = se::SearchSpace::loadFile(space);
        if (!loaded) return fail(loaded.message());
        request.space = std::move(*loaded);
    }
    const auto devices = args.integer("devices", request.space.base.cluster.devices, 1, 1000000);
    if (!devices) return fail(devices.message());
    request.space.base.cluster.devices = *devices;
    request.space.base.cluster.devicesPerNode =
        std::min(request.space.base.cluster.devicesPerNode, *devices);
    if (const auto name = args.value("explorer")) {
        auto kind = se::parseExplorerKind(*name);
        if (!kind) return fail(kind.message());
        request.explorer = *kind;
    }
    const auto threads = args.integer("threads", request.threads, 0, se::ThreadPool::kMaxThreads);
    if (!threads) return fail(threads.message());
    request.threads = int(*threads);
    const auto batch = args.integer("global-batch", request.training.globalBatch, 1, 1 << 24);
    if (!batch) return fail(batch.message());
    request.training.globalBatch = *batch;
    if (const auto c = args.value("cost-model");
        c && !core::placement::parseCostModel(*c, request.costModel))
        return fail("--cost-model = '" + *c + "' is not one of: native, phaze-compat");
    // Errors about the space ("search space: …", some found only when its chips are
    // enumerated) name the file the space came from.
    const std::string spaceFile = space.empty() ? *args.value("project") + ": search" : space;
    auto spaceError = [&](const std::string& message) {
        const std::string prefix = "search space: ";
        if (space == "phaze" || message.rfind(prefix, 0) != 0) return fail(message);
        return fail(spaceFile + ": " + message.substr(prefix.size()));
    };
    if (auto status = request.space.validate(); !status) return spaceError(status.message());

    CliRunControl run("search", err, args.has("quiet"));
    auto outcome = se::runSearch(request, &run.control());
    run.endProgress();
    if (!outcome) return spaceError(outcome.message());

    const core::io::SearchReport report = core::io::makeSearchReport(*outcome, request.space.base);
    if (const auto path = args.value("json")) {
        if (auto status = writeOutputFile(*path, core::io::searchReportToJson(report), out);
            !status)
            return fail(status.message());
    }
    if (const auto path = args.value("csv")) {
        if (auto status = writeOutputFile(*path, outcome->results->toCsv(), out); !status)
            return fail(status.message());
    }
    // With a file on standard output the summary goes to standard error, so the file stays clean.
    printSummary(args.value("json") == std::string(kStandardOutput) ||
                         args.value("csv") == std::string(kStandardOutput)
                     ? err
                     : out,
                 request, *outcome);
    if (run.interruptedBy() != 0) {
        const auto& stats = outcome->results->statistics();
        err << "tandem-cli search: " << run.interruptedText() << " after " << stats.evaluated
            << " of " << stats.pointsInSpace << " points; "
            << (args.value("json") || args.value("csv")
                    ? "the results written hold the points that finished (\"cancelled\": true)"
                    : "the summary above covers the points that finished")
            << "\n";
        return run.interruptedExitCode();
    }
    return kExitOk;
}

// "exhaustive (default), phaze or pruned", from core's names and default.
std::string explorerHelp() {
    std::string help;
    const se::ExplorerKind byDefault = se::SearchRequest{}.explorer;
    const std::size_t n = se::kExplorerKinds.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) help += i + 1 == n ? " or " : ", ";
        help += se::toString(se::kExplorerKinds[i]);
        if (se::kExplorerKinds[i] == byDefault) help += " (default)";
    }
    return help;
}

}  // namespace

Command searchCommand() {
    std::vector<FlagSpec> flags = {
        {"model", "M", "zoo name or model file; repeat for a multi-model search", true},
        {"project", "FILE",
         "a Tandem project (model and search_models, hardware, training, space, explorer)"},
        {"space", "S", "'phaze' (default) or a search-space JSON file"},
        {"explorer", "E", explorerHelp()},
        {"threads", "N", "worker threads, at most 256 (default: one per core)"},
        {"devices", "N", "devices in the cluster (default: the space's, 1,024)"},
        {"global-batch", "B", "samples per training step (default 4,096)"},
        {"cost-model", "C", "native (default) or phaze-compat"},
        {"json", "FILE",
         "write every point, the Pareto front, plans and baselines as JSON ('-': "
         "standard output)"},
        {"csv", "FILE",
         "write one row per point as CSV, units in the header ('-': standard output)"},
        {"quiet", "", "no progress line on stderr"},
    };
    return {"search", "co-search the accelerator and the placement over a design space", flags,
            runSearch};
}

}  // namespace tandem::cli
