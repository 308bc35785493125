#pragma once
// Fits a hardware description's efficiency and overhead parameters to measured runs
// (`tandem-cli calibrate`, the app's Hardware ▸ Calibrate from measurements…; ARCHITECTURE.md
// §1.13). Given a RunPredictor over the runs (created once by the caller) and a starting
// hardware point:
// 1. fit: minimise the mean |relative error| of the iteration time over the training runs (a
//    run that does not fit counts kNoFitError) by a simplex search (simplex_search.h) on the
//    chosen parameters normalised to their physical bounds (calibration_parameter.h), starting
//    from the start's values, within `maxEvaluations` predictions of the set;
// 2. identifiability: from that fit, each parameter alone is moved to its lower bound, the
//    middle and its upper bound; when the training error changes by less than
//    `flatThreshold` it is Flat;
// 3. validation: k-fold cross-validation (each fold predicted by a fit of the other folds'
//    runs, Flat parameters held at their start values) — a parameter whose fold fits spread
//    over more than `foldSpreadThreshold` of its bounds VariesAcrossFolds — or a hold-out
//    split (the fit of step 1 is on the runs not held out and predicts the held-out ones);
// 4. parameters that are not pinned keep their start values; when there are any, the others
//    are fitted again with them held (a refit starting from step 1's values).
// Every prediction is RunPredictor::predict, deterministic for any thread count, and the
// search is sequential, so the result does not depend on threads or timing. Progress on
// `control` counts predictions against the budget of every fit; cancel stops within one
// prediction: the result is then the main fit's best point so far, `cancelled` set, without
// validation. Errors: an unknown or repeated parameter key, a start value outside its physical
// bounds (saying how to fix it), invalid options, a prediction that fails (not "cancelled").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/calibration/calibration_result.h"
#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/validation/run_predictor.h"

namespace tandem::core::calibration {

struct CalibrationOptions {
    std::vector<std::string> parameters;    // keys (calibration_parameter.h); empty: all available
    int folds = 5;                          // k-fold cross-validation, 2 … kMaxFolds; 0: none
    std::uint64_t seed = 1;                 // of the folds or the hold-out split
    std::optional<double> holdoutFraction;  // instead of k-fold: share of runs held out
    int maxEvaluations = 150;               // per fit (the refit and each fold: the same)
    double flatThreshold = 0.002;           // 0.2 percentage points of mean |error|
    double foldSpreadThreshold = 0.5;       // of the normalised bounds
    std::string source;                     // names the runs in the fitted description
};

inline constexpr int kMaxCalibrationEvaluations = 100000;

// `options` as a human would be told what is wrong with them; success when usable.
Status validateCalibrationOptions(const CalibrationOptions& options);

Expected<CalibrationResult> calibrate(const validation::RunPredictor& predictor,
                                      const hardware::HardwarePoint& start,
                                      const CalibrationOptions& options,
                                      RunControl* control = nullptr);

// The result's hardware point (CalibrationResult::fitted) is the start with the fitted values,
// named "<start>-calibrated" (a name already ending so is kept), with a description naming
// the source, the number of runs, the fitted parameters and the validated error: what
// `calibrate --out` writes as a hardware file.
std::string calibratedName(const std::string& startName);

}  // namespace tandem::core::calibration
