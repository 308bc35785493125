#pragma once
// One set of measured runs predicted on one hardware description and summarised: what
// `tandem-cli validate` prints per set (as a table, or as JSON through io/validation_json.h).
// validateRunSet() is the whole chain — RunPredictor::create, predict, summarizeValidation —
// for a caller that predicts a set once; a caller predicting the same runs on many hardware
// descriptions keeps a RunPredictor instead.
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/hardware/hardware_point.h"
#include "core/validation/measured_run_set.h"
#include "core/validation/run_predictor.h"
#include "core/validation/validation_summary.h"

namespace tandem::core::validation {

struct ValidationReport {
    MeasuredRunSet set;
    std::string hardware;                    // the name of the hardware the runs were predicted on
    std::vector<RunPrediction> predictions;  // one per set.runs entry
    ValidationSummary summary;
};

// Errors: as RunPredictor::create and predict ("cancelled" when `control` was cancelled).
Expected<ValidationReport> validateRunSet(MeasuredRunSet set,
                                          const hardware::HardwarePoint& hardware,
                                          const RunPredictorOptions& options = {},
                                          RunControl* control = nullptr);

}  // namespace tandem::core::validation
