#include "core/io/training_report.h"

#include <algorithm>

#include "core/common/text_file.h"
#include "core/common/units.h"
#include "core/common/version.h"
#include "core/io/report_svg.h"
#include "core/placement/mfu_note.h"
#include "core/placement/plan_activity.h"

namespace tandem::core::io {

namespace {

using svg::escape;

std::string row(const std::string& key, const std::string& value) {
    return "<tr><th>" + escape(key) + "</th><td>" + escape(value) + "</td></tr>";
}

std::string setUpSection(const ReportInputs& in) {
    const auto& a = in.hardware.accelerator;
    const auto& c = in.hardware.cluster;
    const auto& t = in.training;
    std::string out = "<h2>Set-up</h2><table>";
    out +=
        row("Model", in.modelName + (in.modelParameters > 0
                                         ? " (" + formatCount(in.modelParameters) + " parameters)"
                                         : ""));
    out += row("Chip",
               (in.hardware.name.empty() ? std::string("custom") : in.hardware.name) + ": " +
                   std::to_string(a.numTensorCores) + " tensor cores of " +
                   std::to_string(a.tensorCoreRows) + "×" + std::to_string(a.tensorCoreCols) +
                   ", " + std::to_string(a.numVectorCores) + " vector cores of " +
                   std::to_string(a.vectorCoreLanes) + " lanes, " + formatFrequency(a.clockHz));
    out += row("Peak and memory", formatRate(a.peakFlopsPerSecond(), "FLOP") + "; " +
                                      formatBytes(double(a.globalBufferBytes)) + " buffer; " +
                                      formatBytes(double(a.hbmCapacityBytes)) + " HBM at " +
                                      formatRate(a.hbmBandwidthBytesPerSecond, "B"));
    out += row("Cluster", formatCount(double(c.devices)) + " devices, " +
                              std::to_string(c.devicesPerNode) + " per node; " +
                              formatRate(c.intraNodeBandwidthBytesPerSecond, "B") + " in a node, " +
                              formatRate(c.interNodeBandwidthBytesPerSecond, "B") + " between");
    out += row("Training", "global batch " + formatCount(double(t.globalBatch)) + ", optimizer " +
                               std::string(hardware::toString(t.optimizer)) + ", recompute " +
                               std::string(hardware::toString(t.recompute)));
    return out + "</table>";
}

std::string planSection(const ReportInputs& in) {
    std::string out = "<h2>The plan</h2>";
    if (!in.plan) return out + "<p>Nothing fits: " + escape(in.infeasibleReason) + "</p>";
    const placement::Plan& p = *in.plan;
    out += "<table>";
    out += row("Parallelism", "t " + std::to_string(p.tensorParallel) + ", d " +
                                  std::to_string(p.dataParallel) + ", " +
                                  countText(std::int64_t(p.stages.size()), "stage", "stages") +
                                  ", " + formatCount(double(p.devicesUsed)) + " devices in use");
    out += row("Throughput", formatThroughput(p.throughputSamplesPerSecond) + ", " +
                                 formatSeconds(p.timePerBatchSeconds) + " per batch");
    out += row("Model FLOPs utilisation", formatFixed(100 * p.mfu, 1) + " %");
    out += row("Pipeline bubble", formatFixed(100 * p.bubbleFraction, 1) + " % of a stage's time");
    out += "</table>";
    // Above 70 % MFU, why (as under the figure in `place` and the Summary tab).
    if (const std::string note = placement::highMfuNote(p); !note.empty())
        out += "<p>" + escape(note) + "</p>";
    const placement::TimeBreakdown& b = p.breakdown;
    out += svg::stackedBar("Where the time per batch goes",
                           {{"Compute", b.computeSeconds, "#4e79a7"},
                            {"Recompute", b.recomputeSeconds, "#a0cbe8"},
                            {"Tensor-parallel comm.", b.tensorParallelCommSeconds, "#f28e2b"},
                            {"Pipeline transfers", b.pipelineP2pSeconds, "#ffbe7d"},
                            {"Pipeline bubble", b.pipelineBubbleSeconds, "#bab0ac"},
                            {"Data-parallel sync", b.dataParallelSyncSeconds, "#e15759"},
                            {"Optimizer step", b.optimizerSeconds, "#59a14f"}},
                           "s");
    return out;
}

std::string energySection(const ReportInputs& in) {
    if (!in.plan) return {};
    const placement::Plan& p = *in.plan;
    std::string out = "<h2>Energy and time to train</h2><table>";
    if (p.energy.known) {
        const auto& e = p.energy;
        out += row("Energy per iteration", formatEnergy(e.totalJoules()) + " (compute " +
                                               formatEnergy(e.computeJoules) + ", HBM " +
                                               formatEnergy(e.memoryJoules) + ", links " +
                                               formatEnergy(e.networkJoules) + ", static " +
                                               formatEnergy(e.staticJoules) + ")");
        out += row("Average power", formatPower(e.averagePowerWatts) + " per device, " +
                                        formatPower(e.averagePowerWatts * double(p.devicesUsed)) +
                                        " in all");
    }
    if (in.budget) {
        const auto cost =
            placement::planTrainingCost(p, in.budget->budget, in.budget->tokensPerSample);
        if (cost) {
            out += row("To train on " + formatCount(in.budget->budget.tokens) + " tokens",
                       energy::trainingCostText(*cost, p.energy.known));
        }
    }
    return out + "</table>";
}

std::string rooflineSection(const ReportInputs& in) {
    if (!in.roofline) return {};
    const estimate::Roofline& r = *in.roofline;
    svg::LogLogChart chart;
    chart.title = "Roofline of " + in.rooflineLayer;
    chart.xLabel = "Arithmetic intensity (FLOP per HBM byte)";
    chart.yLabel = "Attained FLOP/s";
    double lo = r.ridgeIntensity, hi = r.ridgeIntensity;
    for (const auto& p : r.points) {
        lo = std::min(lo, p.intensity);
        hi = std::max(hi, p.intensity);
        const bool gemm =
            p.opClass == model::OpClass::TensorCore || p.opClass == model::OpClass::Fused;
        chart.marks.push_back({p.intensity, p.attainedFlopsPerSecond,
                               p.name + (p.backward ? " (backward)" : "") + ": " +
                                   formatRate(p.attainedFlopsPerSecond, "FLOP"),
                               gemm ? "#4e79a7" : "#f28e2b"});
    }
    lo /= 4;
    hi *= 4;
    chart.lines.push_back({{lo, r.roofAt(lo), "", "#222"},
                           {r.ridgeIntensity, r.peakFlopsPerSecond, "", "#222"},
                           {hi, r.peakFlopsPerSecond, "", "#222"}});
    chart.dashed.push_back(false);
    return "<h2>Roofline</h2><p>The operators of " + escape(in.rooflineLayer) +
           " (blue: GEMMs, orange: vector operators) under the peak of " +
           escape(formatRate(r.peakFlopsPerSecond, "FLOP")) + " and the HBM bandwidth of " +
           escape(formatRate(r.bandwidthBytesPerSecond, "B")) + "; the ridge is at " +
           escape(formatSignificant(r.ridgeIntensity)) + " FLOP per byte.</p>" + svg::logLog(chart);
}

std::string scalingSection(const ReportInputs& in) {
    if (!in.scaling) return {};
    const search::ScalingResult& s = *in.scaling;
    svg::LogLogChart chart;
    chart.title = "Scaling";
    chart.xLabel = "Devices";
    chart.yLabel = "Throughput (samples/s)";
    std::vector<svg::XY> measured, linear;
    double base = 0;
    for (const auto& p : s.points)
        if (p.devices == s.baseDevices && p.fits) base = p.throughputSamplesPerSecond;
    std::string table =
        "<table><tr><th>Devices</th><th>Throughput</th><th>MFU</th>"
        "<th>Plan</th><th>Efficiency</th></tr>";
    for (const auto& p : s.points) {
        table += "<tr><td>" + formatCount(double(p.devices)) + "</td>";
        if (!p.fits) {
            table += "<td colspan=\"4\">" + escape(p.note.empty() ? "not placed" : p.note) +
                     "</td></tr>";
            continue;
        }
        measured.push_back({double(p.devices), p.throughputSamplesPerSecond, "", "#4e79a7"});
        if (base > 0)
            linear.push_back(
                {double(p.devices), base * double(p.devices) / double(s.baseDevices), "", "#888"});
        table += "<td>" + escape(formatThroughput(p.throughputSamplesPerSecond)) + "</td><td>" +
                 formatFixed(100 * p.mfu, 1) + " %</td><td>t " + std::to_string(p.tensorParallel) +
                 ", d " + std::to_string(p.dataParallel) + ", " + std::to_string(p.stages) +
                 " stages</td><td>" + formatFixed(100 * s.efficiency(p), 0) + " %</td></tr>";
    }
    chart.marks = measured;
    if (!measured.empty()) chart.lines.push_back(measured), chart.dashed.push_back(false);
    if (!linear.empty()) chart.lines.push_back(linear), chart.dashed.push_back(true);
    return std::string("<h2>Scaling</h2><p>") +
           (s.mode == search::ScalingMode::Strong
                ? "Strong scaling: the global batch fixed"
                : "Weak scaling: the batch grows with the devices") +
           "; the placement re-chosen at each size; dashed: linear scaling from the set-up's " +
           formatCount(double(s.baseDevices)) + " devices.</p>" + svg::logLog(chart) + table +
           "</table>";
}

std::string searchSection(const ReportInputs& in) {
    if (!in.search) return {};
    const auto& r = *in.search;
    const auto& st = r.statistics();
    std::string out = "<h2>Search</h2><table>";
    out += row("Points", formatCount(double(st.evaluated)) + " evaluated of " +
                             formatCount(double(st.pointsInSpace)) + " (" + st.explorer +
                             " explorer)" + (st.cancelled ? ", cancelled: partial" : ""));
    if (r.best()) {
        const auto& b = r.points()[*r.best()];
        const auto& a = b.point.accelerator;
        out +=
            row(st.cancelled ? "Best so far" : "Best point",
                std::to_string(a.numTensorCores) + " TC " + std::to_string(a.tensorCoreRows) + "×" +
                    std::to_string(a.tensorCoreCols) + ", " + std::to_string(a.numVectorCores) +
                    " VC, " + formatFixed(b.point.areaSquareMillimetres, 1) + " mm², microbatch " +
                    std::to_string(b.point.microbatchSize) + ": " +
                    formatThroughput(b.throughputSamplesPerSecond));
    }
    if (in.baselines && in.baselines->referenceFixed.available && in.baselines->joint.available)
        out += row("Over the reference chip with the fixed strategy",
                   formatFixed(in.baselines->factorOver(in.baselines->referenceFixed), 2) + "×");
    out += row("Pareto front", std::to_string(r.paretoByArea().size()) + " points (vs area)");
    return out + "</table>";
}

}  // namespace

std::string reportHtml(const ReportInputs& in) {
    std::string out =
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
        escape(in.title) +
        " — Tandem report</title><style>body{font-family:sans-serif;max-width:60em;margin:2em "
        "auto;color:#222}table{border-collapse:collapse;margin:0.5em 0 1em}th,td{border:1px solid "
        "#ccc;padding:0.25em 0.6em;text-align:left}th{background:#f3f3f3}h2{border-bottom:1px "
        "solid #ccc}</style></head><body><h1>" +
        escape(in.title) + "</h1>";
    out += setUpSection(in) + planSection(in) + energySection(in) + rooflineSection(in) +
           scalingSection(in) + searchSection(in);
    out += "<p><small>Written by Tandem " + escape(std::string(version())) +
           ". Times, energy and scaling are Tandem's cost model (docs/cost-model.md), not "
           "measurements.</small></p></body></html>\n";
    return out;
}

Status saveReportHtml(const std::filesystem::path& path, const ReportInputs& inputs) {
    return writeFileAtomically(path, reportHtml(inputs));
}

}  // namespace tandem::core::io
