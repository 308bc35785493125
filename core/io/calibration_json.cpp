#include "core/io/calibration_json.h"

#include <nlohmann/json.hpp>

#include "core/hardware/hardware_json.h"

namespace tandem::core::io {

namespace {

using Json = nlohmann::ordered_json;
namespace cal = calibration;

Json figuresJson(const cal::ErrorFigures& f) {
    return {{"runs", f.runs},
            {"not_fitting", f.notFitting},
            {"mean_abs_error", f.meanAbsError},
            {"median_abs_error", f.medianAbsError},
            {"worst_abs_error", f.worstAbsError},
            {"worst_run", f.worstRun}};
}

Json parameterJson(const cal::FittedParameter& p) {
    const hardware::ParameterSpec* spec = cal::registrySpec(p.parameter);
    return {{"key", std::string(p.parameter.key)},
            {"label", spec ? std::string(spec->label) : std::string()},
            {"unit", spec ? std::string(spec->unit) : std::string()},
            {"lower", p.parameter.lower},
            {"upper", p.parameter.upper},
            {"start", p.start},
            {"fitted", p.fitted},
            {"first_fit", p.firstFit},
            {"identifiability", std::string(cal::toString(p.identifiability))},
            {"pinned", p.pinned()},
            {"sensitivity", p.sensitivity},
            {"fold_values", p.foldValues}};
}

Json time(const cal::RunOutcome& o) {
    return o.fits ? Json(o.predictedSeconds) : Json(nullptr);
}

Json runJson(const validation::MeasuredRun& run, const cal::CalibrationResult& r, std::size_t i) {
    const cal::RunOutcome empty;
    const auto at = [i, &empty](const std::vector<cal::RunOutcome>& v) -> const cal::RunOutcome& {
        return i < v.size() ? v[i] : empty;
    };
    const cal::RunOutcome& fitted = at(r.fittedRuns);
    const cal::RunOutcome& validated = at(r.validatedRuns);
    Json j = {{"name", run.name},
              {"measured_s", run.measuredSeconds},
              {"fold", i < r.fold.size() ? r.fold[i] : 0},
              {"training", i < r.training.size() ? bool(r.training[i]) : true},
              {"fits", fitted.fits},
              {"start_s", time(at(r.startRuns))},
              {"fitted_s", time(fitted)},
              {"fitted_error", fitted.error},
              {"validated_s", time(validated)},
              {"validated_error", validated.error}};
    if (!fitted.fits) j["reason"] = fitted.reason;
    return j;
}

}  // namespace

std::string calibrationToJson(const cal::CalibrationResult& r,
                              const std::vector<validation::MeasuredRun>& runs, int indent) {
    Json parameters = Json::array();
    for (const cal::FittedParameter& p : r.parameters) parameters.push_back(parameterJson(p));
    Json runList = Json::array();
    for (std::size_t i = 0; i < runs.size(); ++i) runList.push_back(runJson(runs[i], r, i));
    Json validation = {{"kind", std::string(cal::toString(r.validation))},
                       {"folds", r.folds},
                       {"seed", r.seed},
                       {"holdout_fraction", r.holdoutFraction}};
    Json doc = {
        {"format", "tandem-calibration"},
        {"version", 1},
        {"source", r.source},
        {"start_hardware", r.start.name},
        {"hardware", Json(hardware::hardwareToJsonObject(r.fitted))},
        {"cancelled", r.cancelled},
        {"validation", std::move(validation)},
        {"parameters", std::move(parameters)},
        {"start_error", figuresJson(r.startError)},
        {"training_error", figuresJson(r.trainingError)},
        {"validation_error", r.validationError ? figuresJson(*r.validationError) : Json(nullptr)},
        {"evaluations", r.evaluations},
        {"fits", r.fits},
        {"elapsed_s", r.elapsedSeconds},
        {"runs", std::move(runList)}};
    // Names come from user files: invalid UTF-8 is replaced, never thrown.
    return doc.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace tandem::core::io
