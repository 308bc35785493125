#include "core/calibration/calibration.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/calibration/fold_assignment.h"
#include "core/calibration/set_evaluator.h"
#include "core/calibration/simplex_search.h"
#include "core/common/units.h"

namespace tandem::core::calibration {

namespace {

std::string percent(double fraction) {
    return formatFixed(100 * fraction, 1) + " %";
}

// One fit: the parameters `free` (indices into the calibration's parameters) move within their
// bounds from `from`; the others stay at `base`. Returns the physical values of the best point.
struct FitOutcome {
    std::vector<double> values;
    double value = 0;
    bool cancelled = false;
};

class Calibration {
public:
    Calibration(const validation::RunPredictor& predictor, const hardware::HardwarePoint& start,
                std::vector<CalibrationParameter> parameters, const CalibrationOptions& options,
                RunControl* control)
        : parameters_(parameters),
          options_(options),
          evaluator_(predictor, start, std::move(parameters), control) {}

    double normalise(std::size_t i, double value) const {
        const auto& p = parameters_[i];
        return (value - p.lower) / (p.upper - p.lower);
    }
    double physical(std::size_t i, double x) const {
        const auto& p = parameters_[i];
        return x >= 1 ? p.upper : p.lower + x * (p.upper - p.lower);
    }

    Expected<FitOutcome> fit(const std::vector<bool>& include, const std::vector<std::size_t>& free,
                             const std::vector<double>& base, const std::vector<double>& from,
                             double initialStep, double phase, const std::string& label) {
        const auto valuesAt = [&](std::span<const double> x) {
            std::vector<double> values = base;
            for (std::size_t j = 0; j < free.size(); ++j) values[free[j]] = physical(free[j], x[j]);
            return values;
        };
        const Objective objective = [&](std::span<const double> x) -> Expected<double> {
            auto evaluation = evaluator_.evaluate(valuesAt(x));
            if (!evaluation) return evaluation.error();
            return SetEvaluator::meanAbsError(**evaluation, include);
        };
        std::vector<double> x;
        for (std::size_t i : free) x.push_back(normalise(i, from[i]));
        SimplexSearchOptions search;
        search.maxEvaluations = options_.maxEvaluations;
        search.initialStep = initialStep;
        evaluator_.setPhase(phase, phase + 1, options_.maxEvaluations / 2, total_, label);
        auto result = simplexSearch(objective, std::move(x), search, nullptr);
        if (!result) return result.error();
        FitOutcome out;
        out.cancelled = result->cancelled;
        out.values = result->x.size() == free.size() ? valuesAt(result->x) : base;
        out.value = result->value;
        ++fits_;
        return out;
    }

    std::vector<CalibrationParameter> parameters_;
    const CalibrationOptions& options_;
    SetEvaluator evaluator_;
    double total_ = 0;
    int fits_ = 0;
};

std::string describe(const CalibrationResult& r) {
    std::string fitted, kept;
    for (const FittedParameter& p : r.parameters) {
        std::string& list = p.pinned() ? fitted : kept;
        list += (list.empty() ? "" : ", ") + std::string(p.parameter.key);
    }
    std::string text = "Calibrated by Tandem from '" + r.start.name + "' to " +
                       (r.source.empty() ? std::string("measured runs") : r.source) + " (" +
                       std::to_string(r.fittedRuns.size()) + " runs): fitted " +
                       (fitted.empty() ? std::string("nothing") : fitted);
    if (!kept.empty()) text += "; kept (not pinned down by the runs): " + kept;
    if (r.cancelled) return text + "; interrupted before validation";
    text += "; training mean |error| " + percent(r.trainingError.meanAbsError);
    if (r.validationError && r.validation == ValidationKind::KFold)
        text += ", cross-validated " + percent(r.validationError->meanAbsError) + " (" +
                std::to_string(r.folds) + " folds, seed " + std::to_string(r.seed) + ")";
    if (r.validationError && r.validation == ValidationKind::Holdout)
        text += ", held-out " + percent(r.validationError->meanAbsError) + " (" +
                percent(r.holdoutFraction) + " of the runs, seed " + std::to_string(r.seed) + ")";
    return text;
}

}  // namespace

std::string calibratedName(const std::string& startName) {
    static const std::string kSuffix = "-calibrated";
    if (startName.size() >= kSuffix.size() &&
        startName.compare(startName.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
        return startName;
    return startName + kSuffix;
}

Status validateCalibrationOptions(const CalibrationOptions& o) {
    if (o.folds != 0 && (o.folds < 2 || o.folds > kMaxFolds))
        return Error{"the number of folds must be 0 (no cross-validation) or from 2 to " +
                     std::to_string(kMaxFolds) + ", not " + std::to_string(o.folds)};
    if (o.holdoutFraction && !(*o.holdoutFraction > 0 && *o.holdoutFraction < 1))
        return Error{"the hold-out fraction must be between 0 and 1 (exclusive), e.g. 0.5"};
    if (o.maxEvaluations < 1 || o.maxEvaluations > kMaxCalibrationEvaluations)
        return Error{"the evaluation budget must be from 1 to " +
                     std::to_string(kMaxCalibrationEvaluations) + " predictions per fit, not " +
                     std::to_string(o.maxEvaluations)};
    if (!(o.flatThreshold >= 0 && o.flatThreshold < 1) ||
        !(o.foldSpreadThreshold > 0 && o.foldSpreadThreshold <= 1))
        return Error{"the identifiability thresholds must be fractions in [0, 1)"};
    return Status::success();
}

Expected<CalibrationResult> calibrate(const validation::RunPredictor& predictor,
                                      const hardware::HardwarePoint& start,
                                      const CalibrationOptions& options, RunControl* control) {
    const auto began = std::chrono::steady_clock::now();
    if (Status s = validateCalibrationOptions(options); !s) return Error{s.message()};
    const std::size_t n = predictor.runs().size();
    if (n == 0) return Error{"there are no measured runs to calibrate on"};

    // Parameters, their start values (within the physical bounds) and the split.
    std::vector<CalibrationParameter> parameters;
    if (options.parameters.empty()) parameters = availableCalibrationParameters();
    for (const std::string& key : options.parameters) {
        auto p = findCalibrationParameter(key);
        if (!p) return p.error();
        if (std::find(parameters.begin(), parameters.end(), *p) != parameters.end())
            return Error{"'" + std::string(p->key) +
                         "' is named twice among the parameters to fit"};
        parameters.push_back(*p);
    }
    CalibrationResult result;
    result.start = start;
    result.source = options.source;
    result.seed = options.seed;
    result.flatThreshold = options.flatThreshold;
    result.foldSpreadThreshold = options.foldSpreadThreshold;
    std::vector<double> startValues;
    for (const CalibrationParameter& p : parameters) {
        const double v = parameterValue(start, p);
        if (!(v >= p.lower && v <= p.upper))
            return Error{
                std::string(p.key) + " = " + formatParameterValue(p, v) + " in hardware '" +
                start.name + "' is outside the physical bounds a calibration searches (" +
                formatParameterValue(p, p.lower) + " to " + formatParameterValue(p, p.upper) +
                "); start from a value within them, or leave the parameter out of "
                "the fit"};
        startValues.push_back(v);
    }
    result.fold.assign(n, 0);
    result.training.assign(n, true);
    if (options.holdoutFraction) {
        auto held = holdoutAssignment(n, *options.holdoutFraction, options.seed);
        if (!held) return held.error();
        for (std::size_t r = 0; r < n; ++r) {
            result.fold[r] = (*held)[r] ? 1 : 0;
            result.training[r] = !(*held)[r];
        }
        result.validation = ValidationKind::Holdout;
        result.holdoutFraction = *options.holdoutFraction;
    } else if (options.folds > 0) {
        auto folds = kFoldAssignment(n, options.folds, options.seed);
        if (!folds) return folds.error();
        result.fold = std::move(folds).value();
        result.validation = ValidationKind::KFold;
        result.folds = options.folds;
    }

    Calibration c(predictor, start, parameters, options, control);
    const std::size_t count = parameters.size();
    // Progress: one unit per fit and one for the sweep.
    const int folds = result.validation == ValidationKind::KFold ? options.folds : 0;
    c.total_ = double(folds + 3);
    std::vector<std::size_t> all(count);
    for (std::size_t i = 0; i < count; ++i) all[i] = i;

    // A parameter that is not pinned keeps its start value, also in an interrupted result.
    const auto finish = [&](std::vector<double> values) -> Expected<CalibrationResult> {
        for (std::size_t i = 0; i < result.parameters.size(); ++i)
            if (!result.parameters[i].pinned()) values[i] = startValues[i];
        auto evaluation = c.evaluator_.evaluate(values);
        if (!evaluation && evaluation.message() != "cancelled") return evaluation.error();
        if (evaluation) {
            result.fittedRuns = (*evaluation)->runs;
        } else {
            result.cancelled = true;  // keep the values; the figures stay those of the start
            result.fittedRuns = result.startRuns;
        }
        if (result.validatedRuns.empty()) result.validatedRuns = result.fittedRuns;
        result.trainingError = errorFigures(result.fittedRuns, result.training);
        if (!result.cancelled && result.validation == ValidationKind::Holdout) {
            std::vector<bool> held(n);
            for (std::size_t r = 0; r < n; ++r) held[r] = !result.training[r];
            result.validationError = errorFigures(result.fittedRuns, held);
        }
        if (!result.cancelled && result.validation == ValidationKind::KFold)
            result.validationError = errorFigures(result.validatedRuns);
        if (result.cancelled) result.validationError.reset();
        for (std::size_t i = 0; i < count; ++i) result.parameters[i].fitted = values[i];
        auto fitted = c.evaluator_.pointAt(values);
        if (!fitted) return fitted.error();
        result.fitted = std::move(fitted).value();
        result.fitted.name = calibratedName(start.name);
        result.evaluations = c.evaluator_.evaluations();
        result.fits = c.fits_;
        result.elapsedSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        result.fitted.description = describe(result);
        if (control) control->report(c.total_, c.total_, result.cancelled ? "interrupted" : "done");
        return result;
    };

    // The start, then the main fit over every chosen parameter.
    c.evaluator_.setPhase(0, 1, options.maxEvaluations / 2, c.total_, "fitting");
    auto atStart = c.evaluator_.evaluate(startValues);
    for (std::size_t i = 0; i < count; ++i)
        result.parameters.push_back({parameters[i],
                                     startValues[i],
                                     startValues[i],
                                     startValues[i],
                                     Identifiability::Pinned,
                                     0,
                                     {}});
    if (!atStart) {
        if (atStart.message() != "cancelled") return atStart.error();
        result.cancelled = true;
        return finish(startValues);
    }
    result.startRuns = (*atStart)->runs;
    result.startError = errorFigures(result.startRuns, result.training);
    auto main = c.fit(result.training, all, startValues, startValues, 0.25, 0, "fitting");
    if (!main) return main.error();
    const std::vector<double> firstFit = main->values;
    for (std::size_t i = 0; i < count; ++i) result.parameters[i].firstFit = firstFit[i];
    if (main->cancelled) {
        result.cancelled = true;
        return finish(firstFit);
    }

    // Identifiability: each parameter alone across its bounds.
    c.evaluator_.setPhase(1, 2, int(3 * count), c.total_,
                          "checking which parameters the runs pin down");
    std::vector<std::size_t> swept;  // parameters the sweep leaves to fit
    for (std::size_t i = 0; i < count; ++i) {
        FittedParameter& fp = result.parameters[i];
        for (const double x : {0.0, 0.5, 1.0}) {
            std::vector<double> values = firstFit;
            values[i] = c.physical(i, x);
            auto e = c.evaluator_.evaluate(values);
            if (!e) {
                if (e.message() != "cancelled") return e.error();
                result.cancelled = true;
                return finish(firstFit);
            }
            fp.sensitivity =
                std::max(fp.sensitivity,
                         std::fabs(SetEvaluator::meanAbsError(**e, result.training) - main->value));
        }
        if (fp.sensitivity < options.flatThreshold)
            fp.identifiability = Identifiability::Flat;
        else
            swept.push_back(i);
    }

    // k-fold: each fold predicted by a fit of the others, flat parameters held at the start.
    if (result.validation == ValidationKind::KFold) {
        result.validatedRuns.assign(n, RunOutcome{});
        for (int f = 0; f < options.folds; ++f) {
            std::vector<bool> include(n);
            for (std::size_t r = 0; r < n; ++r) include[r] = result.fold[r] != f;
            auto foldFit = c.fit(include, swept, startValues, startValues, 0.25, 2.0 + f,
                                 "cross-validation fold " + std::to_string(f + 1) + " of " +
                                     std::to_string(options.folds));
            if (!foldFit) return foldFit.error();
            if (foldFit->cancelled) {
                result.cancelled = true;
                result.validatedRuns.clear();
                return finish(firstFit);
            }
            for (std::size_t i = 0; i < count; ++i)
                result.parameters[i].foldValues.push_back(foldFit->values[i]);
            auto e = c.evaluator_.evaluate(foldFit->values);
            if (!e) {
                if (e.message() != "cancelled") return e.error();
                result.cancelled = true;
                result.validatedRuns.clear();
                return finish(firstFit);
            }
            for (std::size_t r = 0; r < n; ++r)
                if (!include[r]) result.validatedRuns[r] = (*e)->runs[r];
        }
        for (std::size_t i : swept) {
            const auto& v = result.parameters[i].foldValues;
            const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
            if (c.normalise(i, *hi) - c.normalise(i, *lo) > options.foldSpreadThreshold)
                result.parameters[i].identifiability = Identifiability::VariesAcrossFolds;
        }
    }

    // Parameters that are not pinned keep their start values; the pinned ones are refitted.
    std::vector<std::size_t> pinned;
    for (std::size_t i = 0; i < count; ++i)
        if (result.parameters[i].pinned()) pinned.push_back(i);
    if (pinned.size() == count) return finish(firstFit);
    std::vector<double> held = startValues;
    for (std::size_t i : pinned) held[i] = firstFit[i];
    if (pinned.empty()) return finish(held);
    auto refit = c.fit(result.training, pinned, held, held, 1.0 / 16, c.total_ - 1, "refitting");
    if (!refit) return refit.error();
    if (refit->cancelled) {
        result.cancelled = true;
        return finish(firstFit);
    }
    return finish(refit->values);
}

}  // namespace tandem::core::calibration
