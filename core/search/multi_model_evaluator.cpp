#include "core/search/multi_model_evaluator.h"

#include <cmath>
#include <limits>

namespace tandem::core::search {

Expected<std::unique_ptr<MultiModelEvaluator>> MultiModelEvaluator::create(
    std::vector<const ModelEvaluator*> models, std::vector<double> normalisers) {
    if (models.empty()) return Error{"multi-model search: no models given"};
    if (models.size() != normalisers.size())
        return Error{"multi-model search: " + std::to_string(models.size()) + " models but " +
                     std::to_string(normalisers.size()) + " normalisers"};
    for (std::size_t i = 0; i < models.size(); ++i) {
        if (!models[i]) return Error{"multi-model search: model " + std::to_string(i) + " is null"};
        if (!(normalisers[i] > 0) || !std::isfinite(normalisers[i]))
            return Error{"multi-model search: the reference-chip objective of model '" +
                         models[i]->model()->name() + "' is " + std::to_string(normalisers[i]) +
                         ": it must be a positive number (the model must fit on the reference "
                         "chip to be normalised)"};
    }
    std::unique_ptr<MultiModelEvaluator> out(new MultiModelEvaluator());
    out->models_ = std::move(models);
    out->normalisers_ = std::move(normalisers);
    return out;
}

EvaluatedPoint MultiModelEvaluator::evaluate(const SearchPoint& point, RunControl* control) const {
    EvaluatedPoint out;
    out.point = point;
    double logSum = 0;
    for (std::size_t i = 0; i < models_.size(); ++i) {
        EvaluatedPoint one = models_[i]->evaluate(point, control, false);
        addEvaluationCosts(out, one);
        if (one.status != PointStatus::Feasible) {
            out.status = one.status;
            if (one.status != PointStatus::Cancelled)
                out.message = models_[i]->model()->name() + ": " + one.message;
            out.modelThroughputsSamplesPerSecond.clear();
            return out;
        }
        out.modelThroughputsSamplesPerSecond.push_back(one.throughputSamplesPerSecond);
        logSum += std::log(one.objective / normalisers_[i]);
    }
    out.status = PointStatus::Feasible;
    out.objective = std::exp(logSum / double(models_.size()));
    return out;
}

double MultiModelEvaluator::upperBound(const SearchPoint& point) const {
    double logSum = 0;
    for (std::size_t i = 0; i < models_.size(); ++i) {
        const double bound = models_[i]->upperBound(point);
        if (!std::isfinite(bound)) return std::numeric_limits<double>::infinity();
        if (!(bound > 0)) return 0;
        logSum += std::log(bound / normalisers_[i]);
    }
    return std::exp(logSum / double(models_.size()));
}

}  // namespace tandem::core::search
