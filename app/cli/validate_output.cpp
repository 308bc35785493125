#include "app/cli/validate_output.h"

#include "app/cli/text_table.h"
#include "core/common/units.h"

namespace tandem::cli {

namespace va = tandem::core::validation;

namespace {

std::string percent(double fraction, bool sign = false) {
    return (sign && fraction >= 0 ? "+" : "") + core::formatFixed(100 * fraction, 1) + " %";
}

std::string number(std::int64_t n) {
    return core::formatCount(double(n));
}

void printRuns(std::ostream& out, const va::ValidationReport& report) {
    const bool tflops = report.set.tflopsPublished;
    std::vector<std::string> header{"run",   "P",          "T",         "D",        "GPUs",
                                    "batch", "microbatch", "predicted", "measured", "error"};
    if (tflops)
        for (const char* h : {"predicted TFLOP/s", "measured TFLOP/s", "TFLOP/s error"})
            header.push_back(h);
    std::vector<bool> right(header.size(), true);
    right[0] = false;
    TextTable table(header, right);
    for (std::size_t i = 0; i < report.set.runs.size(); ++i) {
        const va::MeasuredRun& r = report.set.runs[i];
        const va::RunPrediction& p = report.predictions[i];
        std::vector<std::string> row{
            r.name,
            std::to_string(r.pipeline),
            std::to_string(r.tensor),
            std::to_string(r.data),
            std::to_string(r.gpus),
            std::to_string(r.globalBatch),
            p.fits ? std::to_string(p.microbatch) : "—",
            p.fits ? core::formatSeconds(p.predictedSeconds) : "does not fit",
            core::formatSeconds(r.measuredSeconds),
            p.fits ? percent(p.error, true) : "—"};
        if (tflops) {
            row.push_back(p.fits ? core::formatFixed(p.predictedTflopsPerGpu, 1) : "—");
            row.push_back(core::formatFixed(r.measuredTflopsPerGpu, 1));
            row.push_back(
                p.fits ? percent(p.predictedTflopsPerGpu / r.measuredTflopsPerGpu - 1, true) : "—");
        }
        table.addRow(std::move(row));
    }
    table.print(out, "  ");
}

void printGroups(std::ostream& out, const va::ValidationReport& report) {
    TextTable table({"hidden", "heads", "layers", "sequence", "GPUs", "runs", "Spearman", "regret",
                     "picked", "best"},
                    {true, true, true, true, true, true, true, true, false, false});
    for (const va::ValidationGroup& g : report.summary.groups)
        table.addRow({number(g.hidden), std::to_string(g.heads), std::to_string(g.layers),
                      number(g.sequence), std::to_string(g.gpus), std::to_string(g.runs.size()),
                      g.spearman ? core::formatFixed(*g.spearman, 3) : "n/a", percent(g.regret),
                      report.set.runs[g.pick].name, report.set.runs[g.best].name});
    table.print(out, "  ");
}

}  // namespace

void printValidationReport(std::ostream& out, const va::ValidationReport& report, bool verbose) {
    const va::MeasuredRunSet& set = report.set;
    const va::ValidationSummary& s = report.summary;
    out << "Measured runs '" << set.name << "' on " << report.hardware << " ("
        << number(std::int64_t(s.runs)) << " runs, native cost model):\n"
        << set.source << "\n";
    if (!set.licence.empty()) out << "Licence: " << set.licence << "\n";
    out << "\n";
    if (s.fitting < s.runs)
        out << "  " << number(std::int64_t(s.runs - s.fitting)) << " of "
            << number(std::int64_t(s.runs))
            << " runs do not fit in HBM on this hardware and are left out of the figures.\n";
    if (const auto& e = s.errors)
        out << "  Iteration time (+ = predicted slower): mean |error| " << percent(e->meanAbsError)
            << ", median " << percent(e->medianAbsError) << ", worst " << percent(e->worstAbsError)
            << " (" << set.runs[e->worstRun].name << "), mean error " << percent(e->meanError, true)
            << "\n";
    if (!s.groups.empty()) {
        out << "  " << s.groups.size() << " groups of runs of one model on one GPU count (≥ "
            << va::kMinGroupRuns << " runs each), per sample: mean Spearman "
            << (s.meanSpearman ? core::formatFixed(*s.meanSpearman, 3) : "n/a")
            << ", mean regret of the predicted best " << percent(*s.meanRegret) << ", worst "
            << percent(*s.worstRegret) << "\n";
    }
    out << "\n";
    if (set.runs.size() <= kRunTableLimit || verbose) printRuns(out, report);
    if (!s.groups.empty() && (set.runs.size() > kRunTableLimit || verbose)) {
        if (verbose) out << "\n";
        printGroups(out, report);
    }
}

}  // namespace tandem::cli
