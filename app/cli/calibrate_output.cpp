#include "app/cli/calibrate_output.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "app/cli/text_table.h"
#include "core/common/units.h"

namespace tandem::cli {

namespace cal = tandem::core::calibration;

namespace {

std::string percent(double fraction, bool sign = false) {
    return (sign && fraction >= 0 ? "+" : "") + core::formatFixed(100 * fraction, 1) + " %";
}

std::string figures(const cal::ErrorFigures& f,
                    const std::vector<core::validation::MeasuredRun>& runs) {
    std::string text = percent(f.meanAbsError) + " (median " + percent(f.medianAbsError) +
                       ", worst " + percent(f.worstAbsError);
    if (f.worstRun < runs.size()) text += ", " + runs[f.worstRun].name;
    return text + ")";
}

std::string timeOf(const cal::RunOutcome& o) {
    return o.fits ? core::formatSeconds(o.predictedSeconds) : "does not fit";
}

void printRuns(std::ostream& out, const cal::CalibrationResult& r,
               const std::vector<core::validation::MeasuredRun>& runs,
               const std::vector<std::size_t>& which) {
    const bool folds = r.validation != cal::ValidationKind::None;
    std::vector<std::string> header{"run",   "GPUs",     "P",     "T",     "D",
                                    "batch", "measured", "start", "fitted"};
    if (folds) {
        header.push_back(r.validation == cal::ValidationKind::KFold ? "fold" : "part");
        header.push_back(r.validation == cal::ValidationKind::KFold ? "out of fold" : "validated");
    }
    header.push_back("error");
    std::vector<bool> right(header.size(), true);
    right[0] = false;
    TextTable table(header, right);
    for (std::size_t i : which) {
        const auto& run = runs[i];
        const cal::RunOutcome& v = r.validatedRuns[i];
        std::vector<std::string> row{run.name,
                                     std::to_string(run.gpus),
                                     std::to_string(run.pipeline),
                                     std::to_string(run.tensor),
                                     std::to_string(run.data),
                                     std::to_string(run.globalBatch),
                                     core::formatSeconds(run.measuredSeconds),
                                     timeOf(r.startRuns[i]),
                                     timeOf(r.fittedRuns[i])};
        if (folds) {
            row.push_back(r.validation == cal::ValidationKind::KFold
                              ? std::to_string(r.fold[i] + 1)
                              : (r.training[i] ? "fitted" : "held out"));
            row.push_back(timeOf(v));
        }
        row.push_back(v.fits ? percent(v.error, true) : "—");
        table.addRow(std::move(row));
    }
    table.print(out, "  ");
}

}  // namespace

void printCalibration(std::ostream& out, const cal::CalibrationResult& r,
                      const std::vector<core::validation::MeasuredRun>& runs, bool verbose) {
    const std::size_t n = runs.size();
    const std::size_t trained = std::size_t(std::count(r.training.begin(), r.training.end(), true));
    out << "Calibrating '" << r.start.name << "' to " << r.source << " ("
        << core::formatCount(double(n)) << " runs, native cost model)\n";
    if (r.validation == cal::ValidationKind::KFold)
        out << r.folds << "-fold cross-validation, seed " << r.seed << "\n";
    else if (r.validation == cal::ValidationKind::Holdout)
        out << "Fitted on " << core::formatCount(double(trained)) << " runs, "
            << core::formatCount(double(n - trained)) << " held out (" << percent(r.holdoutFraction)
            << ", seed " << r.seed << ")\n";
    if (r.cancelled) out << "Interrupted: the best point found so far, not validated.\n";
    out << "\n";

    TextTable table({"parameter", "start", "fitted", "bounds", "status"},
                    {false, true, true, true, false});
    for (const cal::FittedParameter& p : r.parameters)
        table.addRow({std::string(p.parameter.key), cal::formatParameterValue(p.parameter, p.start),
                      cal::formatParameterValue(p.parameter, p.fitted),
                      cal::formatParameterValue(p.parameter, p.parameter.lower) + " – " +
                          cal::formatParameterValue(p.parameter, p.parameter.upper),
                      std::string(p.pinned() ? "pinned" : "NOT PINNED: kept")});
    table.print(out, "  ");
    for (const cal::FittedParameter& p : r.parameters) {
        if (p.identifiability == cal::Identifiability::Flat)
            out << "  " << p.parameter.key << " is not pinned down by these runs: moving it across "
                << "its bounds changes the training error by "
                << core::formatFixed(100 * p.sensitivity, 2) << " pp (< "
                << core::formatFixed(100 * r.flatThreshold, 2)
                << " pp), so it keeps its start value.\n";
        if (p.identifiability == cal::Identifiability::VariesAcrossFolds) {
            const auto [lo, hi] = std::minmax_element(p.foldValues.begin(), p.foldValues.end());
            out << "  " << p.parameter.key << " is not pinned down by these runs: the folds' fits "
                << "range from " << cal::formatParameterValue(p.parameter, *lo) << " to "
                << cal::formatParameterValue(p.parameter, *hi) << " (more than "
                << core::formatFixed(100 * r.foldSpreadThreshold, 0)
                << " % of its bounds), so it keeps its start value.\n";
        }
    }

    out << "\n  Iteration time, mean |error|:\n"
        << "    start              " << figures(r.startError, runs) << "\n"
        << "    fitted (training)  " << figures(r.trainingError, runs) << "\n";
    if (r.validationError)
        out << "    "
            << (r.validation == cal::ValidationKind::KFold ? "cross-validated    "
                                                           : "held out           ")
            << figures(*r.validationError, runs) << "\n";
    const std::size_t notFitting =
        r.trainingError.notFitting +
        (r.validation == cal::ValidationKind::Holdout && r.validationError
             ? r.validationError->notFitting
             : 0);
    if (notFitting > 0) {
        out << "\n  " << notFitting
            << " runs do not fit in HBM on this hardware; each counts as a 100 % error:\n";
        for (std::size_t i = 0; i < n; ++i)
            if (!r.fittedRuns[i].fits)
                out << "    " << runs[i].name << ": " << r.fittedRuns[i].reason << "\n";
    }

    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    if (!verbose) {
        const auto key = [&](std::size_t i) {
            const auto& v = r.validatedRuns[i];
            return v.fits ? std::fabs(v.error) : cal::kNoFitError;
        };
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
        order.resize(std::min(order.size(), kWorstRuns));
        out << "\n  Worst runs (error = predicted / measured − 1, + = predicted slower):\n";
    } else {
        out << "\n  Every run (error = predicted / measured − 1, + = predicted slower):\n";
    }
    printRuns(out, r, runs, order);
    out << "\n  " << r.evaluations << " predictions of the runs in " << r.fits << " fits, "
        << core::formatSeconds(r.elapsedSeconds) << "\n";
}

}  // namespace tandem::cli
