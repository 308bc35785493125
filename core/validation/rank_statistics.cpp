#include "core/validation/rank_statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tandem::core::validation {

namespace {

std::size_t argmin(std::span<const double> values) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (values[i] < values[best]) best = i;
    return best;
}

}  // namespace

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::vector<double> averageRanks(std::span<const double> values) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
        // Positions i…j (0-based) hold ranks i+1…j+1; their mean is (i + j) / 2 + 1.
        const double rank = double(i + j) / 2.0 + 1.0;
        for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = rank;
        i = j + 1;
    }
    return ranks;
}

std::optional<double> spearman(std::span<const double> x, std::span<const double> y) {
    if (x.size() != y.size() || x.size() < 2) return std::nullopt;
    const std::vector<double> rx = averageRanks(x), ry = averageRanks(y);
    const double n = double(x.size());
    const double mean = (n + 1) / 2;  // the mean of any average-rank vector
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
        const double dx = rx[i] - mean, dy = ry[i] - mean;
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if (sxx == 0 || syy == 0) return std::nullopt;
    return sxy / std::sqrt(sxx * syy);
}

PickRegret pickRegret(std::span<const double> predicted, std::span<const double> measured) {
    PickRegret out;
    if (predicted.empty() || predicted.size() != measured.size()) return out;
    out.pick = argmin(predicted);
    out.best = argmin(measured);
    out.regret = measured[out.pick] / measured[out.best] - 1.0;
    return out;
}

}  // namespace tandem::core::validation
