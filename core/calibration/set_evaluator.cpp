#include "core/calibration/set_evaluator.h"

#include <algorithm>
#include <cmath>

namespace tandem::core::calibration {

SetEvaluator::SetEvaluator(const validation::RunPredictor& predictor, hardware::HardwarePoint start,
                           std::vector<CalibrationParameter> parameters, RunControl* control)
    : predictor_(predictor),
      start_(std::move(start)),
      parameters_(std::move(parameters)),
      control_(control) {}

void SetEvaluator::setPhase(double begin, double end, int expected, double total,
                            std::string label) {
    begin_ = begin;
    end_ = end;
    expected_ = std::max(expected, 1);
    total_ = total;
    phaseEvaluations_ = 0;
    phase_ = std::move(label);
}

Expected<hardware::HardwarePoint> SetEvaluator::pointAt(const std::vector<double>& values) const {
    hardware::HardwarePoint point = start_;
    for (std::size_t i = 0; i < parameters_.size() && i < values.size(); ++i)
        if (Status s = setParameterValue(point, parameters_[i], values[i]); !s)
            return Error{s.message()};
    return point;
}

Expected<SetEvaluator::EvaluationPtr> SetEvaluator::evaluate(const std::vector<double>& values) {
    if (auto found = cache_.find(values); found != cache_.end()) return found->second;
    auto point = pointAt(values);
    if (!point) return point.error();
    RunControl quiet(RunControl::SilentChildOf{control_});
    auto predictions = predictor_.predict(*point, &quiet);
    if (!predictions) return predictions.error();
    auto evaluation = std::make_shared<Evaluation>();
    evaluation->runs.reserve(predictions->size());
    const auto& runs = predictor_.runs();
    for (std::size_t r = 0; r < predictions->size(); ++r) {
        const validation::RunPrediction& p = (*predictions)[r];
        RunOutcome outcome;
        outcome.fits = p.fits;
        if (p.fits) {
            outcome.predictedSeconds = p.predictedSeconds;
            outcome.error = p.predictedSeconds / runs[r].measuredSeconds - 1.0;
        } else {
            outcome.error = kNoFitError;
            outcome.reason = p.reason;
        }
        evaluation->runs.push_back(std::move(outcome));
    }
    ++evaluations_;
    ++phaseEvaluations_;
    if (control_) {
        const double share = std::min(1.0, double(phaseEvaluations_) / double(expected_));
        control_->report(std::min(begin_ + share * (end_ - begin_), total_ * 0.999), total_,
                         phase_);
    }
    if (cachedPredictions_ + runs.size() <= kMaxCachedPredictions) {
        cachedPredictions_ += runs.size();
        cache_.emplace(values, evaluation);
    }
    return EvaluationPtr(std::move(evaluation));
}

double SetEvaluator::meanAbsError(const Evaluation& evaluation, const std::vector<bool>& include) {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t r = 0; r < evaluation.runs.size(); ++r) {
        if (!include.empty() && !include[r]) continue;
        const RunOutcome& o = evaluation.runs[r];
        sum += o.fits ? std::fabs(o.error) : kNoFitError;
        ++n;
    }
    return n ? sum / double(n) : 0.0;
}

}  // namespace tandem::core::calibration
