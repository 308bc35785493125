#include "core/calibration/fold_assignment.h"

#include <cmath>
#include <numeric>
#include <string>

namespace tandem::core::calibration {

namespace {

struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, bound), bound ≥ 1, by rejection (no modulo bias).
    std::uint64_t below(std::uint64_t bound) {
        const std::uint64_t limit = ~std::uint64_t(0) - (~std::uint64_t(0) % bound);
        std::uint64_t x = next();
        while (x >= limit) x = next();
        return x % bound;
    }
};

}  // namespace

std::vector<std::size_t> seededPermutation(std::size_t n, std::uint64_t seed) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    SplitMix64 rng{seed};
    for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    return order;
}

Expected<std::vector<int>> kFoldAssignment(std::size_t runs, int folds, std::uint64_t seed) {
    if (folds < 2 || folds > kMaxFolds)
        return Error{"the number of folds must be an integer from 2 to " +
                     std::to_string(kMaxFolds) + ", not " + std::to_string(folds)};
    if (runs < std::size_t(folds))
        return Error{std::to_string(folds) + "-fold cross-validation needs at least " +
                     std::to_string(folds) + " runs, but there are " + std::to_string(runs) +
                     "; use fewer folds"};
    const std::vector<std::size_t> order = seededPermutation(runs, seed);
    std::vector<int> fold(runs);
    for (std::size_t i = 0; i < runs; ++i) fold[order[i]] = int(i % std::size_t(folds));
    return fold;
}

Expected<std::vector<bool>> holdoutAssignment(std::size_t runs, double fraction,
                                              std::uint64_t seed) {
    if (!(fraction > 0 && fraction < 1))
        return Error{"the hold-out fraction must be between 0 and 1 (exclusive), not " +
                     std::to_string(fraction)};
    const auto held = std::size_t(std::llround(fraction * double(runs)));
    if (held == 0 || held >= runs)
        return Error{"holding out " + std::to_string(fraction) + " of " + std::to_string(runs) +
                     " runs leaves " + (held == 0 ? "none to test" : "none to fit") +
                     "; give more runs or another fraction"};
    const std::vector<std::size_t> order = seededPermutation(runs, seed);
    std::vector<bool> heldOut(runs, false);
    for (std::size_t i = 0; i < held; ++i) heldOut[order[i]] = true;
    return heldOut;
}

}  // namespace tandem::core::calibration
