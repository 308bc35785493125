#pragma once
// The JSON of `tandem-cli calibrate --json` (keys documented in the README, "Command line"):
// {format: "tandem-calibration", version: 1, source, start_hardware, hardware (the fitted
//  hardware as a hardware file's object: name, description, accelerator, cluster), cancelled,
//  validation: {kind ("k-fold", "holdout", "none"), folds, seed, holdout_fraction},
//  parameters: [{key, label, unit, lower, upper, start, fitted, first_fit, identifiability
//                ("pinned", "flat", "varies"), pinned, sensitivity, fold_values}],
//  start_error, training_error, validation_error (null without validation or when cancelled):
//    {runs, not_fitting, mean_abs_error, median_abs_error, worst_abs_error, worst_run},
//  evaluations, fits, elapsed_s,
//  runs: [{name, measured_s, fold, training, fits, start_s, fitted_s, fitted_error,
//          validated_s, validated_error, reason}]}
// Errors are fractions of the iteration time (0.05 = 5 %); a run that does not fit counts as
// 1 (100 %) in every figure and has null times and "reason". worst_run indexes `runs` from 0.
// Values are SI (the registry's units), times in seconds; numbers read back exactly.
#include <string>
#include <vector>

#include "core/calibration/calibration_result.h"
#include "core/validation/measured_run.h"

namespace tandem::core::io {

// `runs` are the calibration's runs, in the order of the result's per-run vectors.
std::string calibrationToJson(const calibration::CalibrationResult& result,
                              const std::vector<validation::MeasuredRun>& runs, int indent = 2);

}  // namespace tandem::core::io
