#include "core/calibration/calibration_result.h"

#include <algorithm>
#include <cmath>

namespace tandem::core::calibration {

std::string_view toString(Identifiability identifiability) {
    switch (identifiability) {
        case Identifiability::Pinned:
            return "pinned";
        case Identifiability::Flat:
            return "flat";
        case Identifiability::VariesAcrossFolds:
            return "varies";
    }
    return "pinned";
}

std::string_view toString(ValidationKind kind) {
    switch (kind) {
        case ValidationKind::None:
            return "none";
        case ValidationKind::KFold:
            return "k-fold";
        case ValidationKind::Holdout:
            return "holdout";
    }
    return "none";
}

ErrorFigures errorFigures(const std::vector<RunOutcome>& runs, const std::vector<bool>& include) {
    ErrorFigures f;
    std::vector<double> errors;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!include.empty() && !include[i]) continue;
        const double e = runs[i].fits ? std::fabs(runs[i].error) : kNoFitError;
        if (!runs[i].fits) ++f.notFitting;
        if (errors.empty() || e > f.worstAbsError) {
            f.worstAbsError = e;
            f.worstRun = i;
        }
        f.meanAbsError += e;
        errors.push_back(e);
    }
    f.runs = errors.size();
    if (errors.empty()) return f;
    f.meanAbsError /= double(errors.size());
    std::sort(errors.begin(), errors.end());
    const std::size_t n = errors.size();
    f.medianAbsError = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
    return f;
}

}  // namespace tandem::core::calibration
