#include "core/validation/validation_summary.h"

#include <cmath>
#include <map>
#include <tuple>

#include "core/validation/rank_statistics.h"

namespace tandem::core::validation {

ValidationSummary summarizeValidation(const std::vector<MeasuredRun>& runs,
                                      const std::vector<RunPrediction>& predictions) {
    ValidationSummary out;
    out.runs = runs.size();
    const std::size_t n = std::min(runs.size(), predictions.size());

    std::vector<double> absErrors;
    double sumAbs = 0, sum = 0;
    ErrorStatistics errors;
    using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;
    std::map<Key, std::vector<std::size_t>> byModel;
    for (std::size_t i = 0; i < n; ++i) {
        if (!predictions[i].fits) continue;
        const double e = predictions[i].error;
        if (absErrors.empty() || std::abs(e) > errors.worstAbsError) {
            errors.worstAbsError = std::abs(e);
            errors.worstRun = i;
        }
        absErrors.push_back(std::abs(e));
        sumAbs += std::abs(e);
        sum += e;
        const GptShape& m = runs[i].model;
        byModel[Key{m.hidden, m.heads, m.layers, m.sequence, runs[i].gpus}].push_back(i);
    }
    out.fitting = absErrors.size();
    if (!absErrors.empty()) {
        errors.meanAbsError = sumAbs / double(absErrors.size());
        errors.meanError = sum / double(absErrors.size());
        errors.medianAbsError = median(absErrors);
        out.errors = errors;
    }

    double sumSpearman = 0, sumRegret = 0;
    std::size_t withSpearman = 0;
    for (const auto& [key, members] : byModel) {
        if (members.size() < kMinGroupRuns) continue;
        ValidationGroup g;
        std::tie(g.hidden, g.heads, g.layers, g.sequence, g.gpus) = key;
        g.runs = members;
        std::vector<double> predicted, measured;
        for (std::size_t i : members) {
            const double batch = double(runs[i].globalBatch);
            predicted.push_back(predictions[i].predictedSeconds / batch);
            measured.push_back(runs[i].measuredSeconds / batch);
        }
        g.spearman = spearman(predicted, measured);
        const PickRegret regret = pickRegret(predicted, measured);
        g.regret = regret.regret;
        g.pick = members[regret.pick];
        g.best = members[regret.best];
        if (g.spearman) {
            sumSpearman += *g.spearman;
            ++withSpearman;
        }
        sumRegret += g.regret;
        if (!out.worstRegret || g.regret > *out.worstRegret) {
            out.worstRegret = g.regret;
            out.worstRegretGroup = out.groups.size();
        }
        out.groups.push_back(std::move(g));
    }
    if (withSpearman > 0) out.meanSpearman = sumSpearman / double(withSpearman);
    if (!out.groups.empty()) out.meanRegret = sumRegret / double(out.groups.size());
    return out;
}

}  // namespace tandem::core::validation
