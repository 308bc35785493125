#pragma once
// The statistics `tandem-cli validate` reports, as pure functions of plain numbers (tested
// against brute force in tests/core/validation): the median, average ranks, Spearman's rank
// correlation and the regret of picking the predicted best. Inputs with NaN are the caller's
// mistake; the functions do not check for them.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace tandem::core::validation {

// The middle value, or the mean of the two middle values; 0 for no values.
double median(std::vector<double> values);

// Ranks 1…n in ascending order of value; tied values share the mean of the ranks they span
// (1, 2.5, 2.5, 4).
std::vector<double> averageRanks(std::span<const double> values);

// Spearman's ρ with average ranks for ties: Pearson's correlation of the two rank vectors.
// nullopt when the spans differ in length, hold fewer than 2 values, or either is constant
// (ρ is undefined).
std::optional<double> spearman(std::span<const double> x, std::span<const double> y);

// Picking the option `predicted` calls best (smallest; ties: the lowest index) instead of the
// one `measured` calls best: regret = measured[pick] / min(measured) − 1 ≥ 0. For empty or
// unequal spans, pick = best = 0 and regret 0.
struct PickRegret {
    std::size_t pick = 0;  // argmin of predicted
    std::size_t best = 0;  // argmin of measured (lowest index on ties)
    double regret = 0;
};
PickRegret pickRegret(std::span<const double> predicted, std::span<const double> measured);

}  // namespace tandem::core::validation
