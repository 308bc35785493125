#include "app/cli/report_command.h"

#include <algorithm>
#include <filesystem>

#include "app/cli/budget_flags.h"
#include "app/cli/output_file.h"
#include "core/common/text_excerpt.h"
#include "core/common/units.h"
#include "core/estimate/model_estimate.h"
#include "core/estimate/operator_estimator.h"
#include "core/importers/model_loader.h"
#include "core/io/project_file.h"
#include "core/io/search_results_reader.h"
#include "core/io/training_report.h"
#include "core/placement/model_placement.h"
#include "core/search/scaling.h"

namespace tandem::cli {

namespace {

namespace io = core::io;

// The roofline of the layer named `wanted` (empty: the second layer, the first block) of the
// placed model at the plan's width.
void addRoofline(const core::placement::ModelPlacement& placed, const std::string& wanted,
                 const core::hardware::HardwarePoint& hardware, io::ReportInputs& in) {
    if (placed.widths.empty()) return;
    std::size_t w = 0;
    for (std::size_t i = 0; i < placed.widths.size(); ++i)
        if (placed.result.plan &&
            placed.widths[i].graph->options().tensorParallel == placed.result.plan->tensorParallel)
            w = i;
    const auto estimator =
        core::estimate::OperatorEstimator::create(hardware.accelerator, hardware.cluster);
    if (!estimator) return;
    const auto estimate = core::estimate::estimateModel(*placed.widths[w].graph, *estimator);
    in.modelParameters = estimate.totals.parameters;
    if (estimate.layers.empty()) return;
    std::size_t layer = std::min<std::size_t>(1, estimate.layers.size() - 1);
    for (std::size_t l = 0; l < estimate.layers.size(); ++l)
        if (estimate.layers[l].name == wanted) layer = l;
    in.roofline = core::estimate::rooflineOf(estimate.layers[layer], hardware.accelerator);
    in.rooflineLayer = estimate.layers[layer].name;
}

int runReport(const CliArguments& args, std::ostream& out, std::ostream& err) {
    auto fail = [&err](const std::string& message) {
        err << "tandem-cli report: " << message << "\n";
        return kExitBadInput;
    };
    const auto projectPath = args.value("project");
    if (!projectPath || projectPath->empty()) return fail("--project FILE is required");
    const auto outPath = args.value("out");
    if (!outPath || outPath->empty()) return fail("--out FILE is required (e.g. report.html)");
    if (const std::filesystem::path out(*outPath);
        out.extension() == ".pdf" || out.extension() == ".PDF")
        return fail("--out " + *outPath +
                    ": the command line writes HTML (e.g. report.html); for a PDF use the app's "
                    "File ▸ Export report…, or print the HTML from a browser");
    auto project = io::ProjectFile::load(*projectPath);
    if (!project) return fail(project.message());
    auto model = core::importers::loadModel(project->model);
    if (!model) return fail(*projectPath + ": model: " + model.message());
    core::placement::ModelPlacementRequest request;
    request.model = *model;
    request.hardware = project->hardware;
    request.training = project->training;
    const double tokensPerSample =
        double(core::placement::trainedSequenceLength(request.training, model->get()));
    auto budget = budgetFrom(args, tokensPerSample);
    if (!budget) return fail(budget.message());
    core::search::ScalingMode mode = core::search::ScalingMode::Strong;
    const std::string scaling = args.value("scaling").value_or("strong");
    if (scaling == "weak")
        mode = core::search::ScalingMode::Weak;
    else if (scaling != "strong" && scaling != "none")
        return fail("--scaling = '" + core::textExcerpt(scaling) +
                    "' is not one of: strong, weak, none");

    const bool quiet = args.has("quiet");
    if (!quiet) err << "tandem-cli report: placing " << (*model)->name() << "…\n";
    auto placed = core::placement::placeModel(request);
    if (!placed) return fail(placed.message());
    io::ReportInputs in;
    in.modelName = (*model)->name();
    in.hardware = project->hardware;
    in.training = project->training;
    in.title = in.modelName + " on " + core::formatCount(double(in.hardware.cluster.devices)) +
               " × " + (in.hardware.name.empty() ? "custom chip" : in.hardware.name);
    if (placed->result.plan) in.plan = *placed->result.plan;
    in.infeasibleReason = placed->result.infeasibleReason;
    in.budget = *budget;
    if (!in.budget) in.budget = io::BudgetContext{{300e9, -1}, tokensPerSample};
    addRoofline(*placed, args.value("layer").value_or(""), project->hardware, in);
    if (scaling != "none") {
        if (!quiet) err << "tandem-cli report: scaling…\n";
        auto scaled = core::search::analyseScaling(
            request, mode, core::search::defaultScalingSizes(request.hardware.cluster.devices));
        if (scaled) in.scaling = std::move(*scaled);
    }
    if (!project->results.empty()) {
        auto results = io::loadSearchReportJson(project->results);
        if (!results) {
            err << "tandem-cli report: warning: the project's results are left out: "
                << results.message() << "\n";
        } else {
            in.search = results->results;
            if (!results->models.empty()) in.baselines = results->models.front().baselines;
        }
    }
    if (auto status = writeOutputFile(*outPath, io::reportHtml(in), out, err); !status)
        return fail(status.message());
    if (!quiet && *outPath != "-") err << "tandem-cli report: wrote " << *outPath << "\n";
    return kExitOk;
}

}  // namespace

Command reportCommand() {
    std::vector<FlagSpec> flags = {
        {"project", "FILE", "the Tandem project to report on (its set-up and results)"},
        {"out", "FILE", "the HTML file to write ('-': standard output)"},
        {"layer", "NAME", "the layer whose roofline is drawn (default: the first block)"},
        {"scaling", "strong|weak|none", "the scaling study to include (default strong)"},
        {"quiet", "", "no progress lines on stderr"},
    };
    for (auto& f : budgetFlags()) flags.push_back(f);
    return {"report",
            "write one self-contained HTML report of a project: set-up, plan, energy, roofline, "
            "scaling and search",
            flags,
            runReport,
            {}};
}

}  // namespace tandem::cli
