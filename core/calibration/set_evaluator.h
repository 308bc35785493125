#pragma once
// The objective of a calibration: the runs of a RunPredictor predicted at given values of the
// calibrated parameters (physical units, in the order of `parameters`), with the other hardware
// fields those of `start`. Evaluations are memoised by their exact values (the folds' fits all
// start from the same point and share their first moves), up to a memory budget of about
// kMaxCachedPredictions predicted times, then no longer stored. Each evaluation counts once
// towards `evaluations()` and reports progress on the control within the current phase
// (setPhase): from `begin` towards `end` as the phase's evaluations approach `expected`.
// Errors: a value the registry refuses, a prediction that fails; "cancelled" when the control
// was cancelled during a prediction. Not thread-safe: one calibration uses it sequentially.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/calibration/calibration_parameter.h"
#include "core/calibration/calibration_result.h"
#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/validation/run_predictor.h"

namespace tandem::core::calibration {

inline constexpr std::size_t kMaxCachedPredictions = std::size_t(1) << 20;

class SetEvaluator {
public:
    struct Evaluation {
        std::vector<RunOutcome> runs;  // one per run of the predictor
    };
    using EvaluationPtr = std::shared_ptr<const Evaluation>;

    SetEvaluator(const validation::RunPredictor& predictor, hardware::HardwarePoint start,
                 std::vector<CalibrationParameter> parameters, RunControl* control);

    // `start` with `values` set through the registry.
    Expected<hardware::HardwarePoint> pointAt(const std::vector<double>& values) const;
    Expected<EvaluationPtr> evaluate(const std::vector<double>& values);
    // Mean |e| over the runs where `include` is true (all when empty), kNoFitError for a run
    // that does not fit.
    static double meanAbsError(const Evaluation& evaluation, const std::vector<bool>& include);

    int evaluations() const { return evaluations_; }
    // Progress is reported as (done, total) with done in [begin, end] during this phase.
    void setPhase(double begin, double end, int expected, double total, std::string label);

private:
    const validation::RunPredictor& predictor_;
    hardware::HardwarePoint start_;
    std::vector<CalibrationParameter> parameters_;
    RunControl* control_;
    std::map<std::vector<double>, EvaluationPtr> cache_;
    std::size_t cachedPredictions_ = 0;
    int evaluations_ = 0;
    double begin_ = 0, end_ = 0, total_ = 0;
    int expected_ = 1, phaseEvaluations_ = 0;
    std::string phase_;
};

}  // namespace tandem::core::calibration
