#pragma once
// The human output of `tandem-cli calibrate`: what was fitted to what, a table of the
// parameters (start, fitted, physical bounds, pinned or why not, each with its unit), the mean
// |error| of the iteration time at the start, after the fit (training) and validated (out of
// fold or held out) with median and worst, the runs that do not fit, the worst runs by
// validated error (kWorstRuns of them; `verbose`: every run) and the cost of the fit.
#include <cstddef>
#include <ostream>
#include <vector>

#include "core/calibration/calibration_result.h"
#include "core/validation/measured_run.h"

namespace tandem::cli {

inline constexpr std::size_t kWorstRuns = 5;

void printCalibration(std::ostream& out, const core::calibration::CalibrationResult& result,
                      const std::vector<core::validation::MeasuredRun>& runs, bool verbose);

}  // namespace tandem::cli
