#pragma once
// How a calibration splits its runs, reproducibly: the same (count, folds or fraction, seed)
// give the same split on every machine and compiler — the shuffle is Fisher–Yates driven by
// SplitMix64 with an unbiased bounded draw, not std::shuffle, whose algorithm the standard
// leaves open. Errors (never an empty part): fewer runs than folds, k < 2 or k > kMaxFolds, a
// hold-out fraction outside (0, 1) or one that leaves either part empty.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/common/expected.h"

namespace tandem::core::calibration {

inline constexpr int kMaxFolds = 50;

// fold[i] in [0, k) for run i; fold sizes differ by at most one.
Expected<std::vector<int>> kFoldAssignment(std::size_t runs, int folds, std::uint64_t seed);

// heldOut[i] is true for the round(fraction × runs) runs held out.
Expected<std::vector<bool>> holdoutAssignment(std::size_t runs, double fraction,
                                              std::uint64_t seed);

// A permutation of 0 … n − 1 from the seed (what both assignments are cut from).
std::vector<std::size_t> seededPermutation(std::size_t n, std::uint64_t seed);

}  // namespace tandem::core::calibration
