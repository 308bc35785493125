#include "core/validation/validation_report.h"

namespace tandem::core::validation {

Expected<ValidationReport> validateRunSet(MeasuredRunSet set,
                                          const hardware::HardwarePoint& hardware,
                                          const RunPredictorOptions& options, RunControl* control) {
    auto predictor = RunPredictor::create(set.runs, options, control);
    if (!predictor) {
        if (control && control->cancelled()) return Error{"cancelled"};
        return Error{set.name + ": " + predictor.message()};
    }
    auto predictions = (*predictor)->predict(hardware, control);
    if (!predictions) {
        if (control && control->cancelled()) return Error{"cancelled"};
        return Error{set.name + ": " + predictions.message()};
    }
    ValidationReport report;
    report.summary = summarizeValidation(set.runs, *predictions);
    report.set = std::move(set);
    report.hardware = hardware.name;
    report.predictions = std::move(predictions).value();
    return report;
}

}  // namespace tandem::core::validation
