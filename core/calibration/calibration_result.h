#pragma once
// What a calibration (calibration.h) found, for the CLI's table and JSON (core/io/
// calibration_json.h) and the app's dialog. Errors are relative errors of the iteration time,
// e = predicted / measured − 1, as in validation; every statistic here is over |e| with a run
// that does not fit in HBM counted as kNoFitError (100 %) — such runs are never dropped, and
// `notFitting` says how many there were. Values are in the registry's SI units.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/calibration/calibration_parameter.h"
#include "core/hardware/hardware_point.h"

namespace tandem::core::calibration {

// The |error| a run that does not fit counts as, in the fit's objective and in every figure.
inline constexpr double kNoFitError = 1.0;

enum class Identifiability {
    Pinned,             // the data determine it: fitted
    Flat,               // moving it across its bounds hardly changes the training error
    VariesAcrossFolds,  // the folds' fits disagree on it
};
std::string_view toString(Identifiability identifiability);  // "pinned", "flat", "varies"

struct FittedParameter {
    CalibrationParameter parameter;
    double start = 0;     // the starting hardware's value
    double fitted = 0;    // the result's value: the fit's, or `start` when not pinned
    double firstFit = 0;  // what the first fit over every parameter found
    Identifiability identifiability = Identifiability::Pinned;
    // Largest change of the training error (a fraction) when only this parameter moves to its
    // lower bound, the middle of its bounds or its upper bound from the first fit.
    double sensitivity = 0;
    std::vector<double> foldValues;  // each fold's fitted value (k-fold only)
    bool pinned() const { return identifiability == Identifiability::Pinned; }
};

struct RunOutcome {
    bool fits = false;
    double predictedSeconds = 0;  // 0 when it does not fit
    double error = 0;             // predicted / measured − 1; kNoFitError when it does not fit
    std::string reason;           // why it does not fit
};

struct ErrorFigures {
    std::size_t runs = 0;        // runs the figures are over
    std::size_t notFitting = 0;  // of those, predicted not to fit (|e| = kNoFitError)
    double meanAbsError = 0;
    double medianAbsError = 0;
    double worstAbsError = 0;
    std::size_t worstRun = 0;  // index into the runs of the calibration
};

enum class ValidationKind { None, KFold, Holdout };
std::string_view toString(ValidationKind kind);  // "none", "k-fold", "holdout"

struct CalibrationResult {
    hardware::HardwarePoint start;
    hardware::HardwarePoint fitted;  // named "<start>-calibrated", described
    std::vector<FittedParameter> parameters;

    // Per run, in the runs' order: at the start, at the fitted point, and validated — the
    // out-of-fold prediction (k-fold: by the fit without the run's fold; hold-out: by the fit
    // on the other runs for a held-out run, in-sample for a fitted one; none: in-sample).
    std::vector<RunOutcome> startRuns, fittedRuns, validatedRuns;
    // k-fold: the run's fold (0 … k − 1); hold-out: 1 held out, 0 fitted; none: all 0.
    std::vector<int> fold;
    std::vector<bool> training;  // the run was fitted on (all but the held-out runs)

    ErrorFigures startError;                      // over the training runs, at the start
    ErrorFigures trainingError;                   // over the training runs, at the fitted point
    std::optional<ErrorFigures> validationError;  // out-of-fold / held-out runs; none: nullopt

    ValidationKind validation = ValidationKind::None;
    int folds = 0;
    double holdoutFraction = 0;
    std::uint64_t seed = 0;
    double flatThreshold = 0;  // the options' identifiability thresholds, for reports
    double foldSpreadThreshold = 0;
    int evaluations = 0;  // predictions of the whole set, over every fit and sweep
    int fits = 0;         // fits run (the main one, the folds, a refit)
    double elapsedSeconds = 0;
    bool cancelled = false;  // stopped early: `fitted` is the main fit's best point so far
    std::string source;      // the runs' file or set name
};

// Mean, median and worst |e| of `runs` over the indices where `include` is true (all when
// empty). Zero runs give all-zero figures.
ErrorFigures errorFigures(const std::vector<RunOutcome>& runs,
                          const std::vector<bool>& include = {});

}  // namespace tandem::core::calibration
