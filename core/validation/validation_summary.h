#pragma once
// What `tandem-cli validate` says about a set of predicted runs, computed from the runs and
// their predictions only (rank_statistics.h):
// - over the runs that fit, the relative error of the iteration time e = predicted / measured
//   − 1: mean |e|, median |e|, the worst |e| and its run, and the signed mean of e (> 0: the
//   model predicts slower than measured);
// - groups: runs that share a model (hidden, heads, layers, sequence) and GPU count, kept when
//   at least kMinGroupRuns of them fit, ordered by those five numbers. Per group, on the time
//   per sample (iteration time / global batch): Spearman's ρ between predicted and measured,
//   and the regret of the pick — the measured time per sample of the run predicted fastest
//   over the best measured one, − 1 (0: the model picks the best configuration);
// - the mean ρ over groups where ρ is defined, the mean and the worst regret.
// Runs that do not fit are counted and left out of every figure.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/validation/measured_run.h"
#include "core/validation/run_predictor.h"

namespace tandem::core::validation {

inline constexpr std::size_t kMinGroupRuns = 3;

struct ValidationGroup {
    std::int64_t hidden = 0, heads = 0, layers = 0, sequence = 0, gpus = 0;
    std::vector<std::size_t> runs;  // indices into the set, ascending; only runs that fit
    std::optional<double> spearman;
    double regret = 0;
    std::size_t pick = 0;  // run predicted fastest per sample (index into the set)
    std::size_t best = 0;  // run measured fastest per sample
};

struct ErrorStatistics {
    double meanAbsError = 0;
    double medianAbsError = 0;
    double worstAbsError = 0;
    std::size_t worstRun = 0;  // index into the set
    double meanError = 0;
};

struct ValidationSummary {
    std::size_t runs = 0;                   // in the set
    std::size_t fitting = 0;                // predicted to fit; the figures are over these
    std::optional<ErrorStatistics> errors;  // none when no run fits
    std::vector<ValidationGroup> groups;
    std::optional<double> meanSpearman;  // none when no group has a defined ρ
    std::optional<double> meanRegret;    // none without groups
    std::optional<double> worstRegret;
    std::optional<std::size_t> worstRegretGroup;  // index into groups
};

// `predictions` holds one entry per run, in the same order (as RunPredictor::predict returns).
ValidationSummary summarizeValidation(const std::vector<MeasuredRun>& runs,
                                      const std::vector<RunPrediction>& predictions);

}  // namespace tandem::core::validation
