#pragma once
// The report a student hands in or a design review reads (issue 27 item 16): one self-contained
// HTML file — no script, no external file, charts as inline SVG (report_svg.h) — with the set-up
// (model, chip, cluster, training), the chosen plan and where its time goes, its energy and time
// to train on a token budget, the roofline of one layer, scaling with the cluster and, when a
// search was run, its figures (points, best point, speed-up over the reference). Written by
// `tandem-cli report` and the app's File ▸ Export report…; the report only shows what the caller
// computed.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/estimate/roofline.h"
#include "core/hardware/hardware_point.h"
#include "core/hardware/training_config.h"
#include "core/io/placement_json.h"
#include "core/placement/plan.h"
#include "core/search/scaling.h"
#include "core/search/search_baselines.h"
#include "core/search/search_results.h"

namespace tandem::core::io {

struct ReportInputs {
    std::string title;  // "gpt3-175b on 1,024 × tpuv4-like"
    std::string modelName;
    double modelParameters = 0;
    hardware::HardwarePoint hardware;
    hardware::TrainingConfig training;
    std::optional<placement::Plan> plan;  // nullopt: nothing fits (`infeasibleReason`)
    std::string infeasibleReason;
    std::optional<BudgetContext> budget;
    std::optional<estimate::Roofline> roofline;
    std::string rooflineLayer;
    std::optional<search::ScalingResult> scaling;
    // A search's results and the main model's baselines, when one was run.
    std::shared_ptr<const search::SearchResults> search;
    std::optional<search::SearchBaselines> baselines;
};

std::string reportHtml(const ReportInputs& inputs);
// Atomic, like every file Tandem writes.
Status saveReportHtml(const std::filesystem::path& path, const ReportInputs& inputs);

}  // namespace tandem::core::io
