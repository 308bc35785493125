#pragma once
// The enumerated search space: the chips in the area window (SearchSpace::enumerateChips) and
// the per-chip options, with a bijection between point indices and points. Points are numbered
// chip-major, then microbatch size, then recompute, then HBM capacity (innermost):
//   index = ((chip · |mbs| + m) · |recompute| + r) · |hbm| + h,
// so consecutive indices share a chip and a microbatch size, which is what an evaluator's
// schedule cache keys on (schedules depend on neither HBM nor recompute). Immutable after
// create(); safe to share between threads.
#include <cstdint>
#include <span>
#include <vector>

#include "core/common/expected.h"
#include "core/search/chip_configuration.h"
#include "core/search/search_point.h"
#include "core/search/search_space.h"

namespace tandem::core::search {

class SearchGrid {
public:
    // Validates and enumerates the space; its errors pass through.
    static Expected<SearchGrid> create(SearchSpace space);

    const SearchSpace& space() const { return space_; }
    std::span<const ChipConfiguration> chips() const { return chips_; }
    std::int64_t chipCount() const { return std::int64_t(chips_.size()); }
    // |mbs| · |recompute| · |hbm|: the points that share one chip.
    std::int64_t optionsPerChip() const { return optionsPerChip_; }
    std::int64_t pointCount() const { return chipCount() * optionsPerChip_; }

    // The point at `index`; requires 0 ≤ index < pointCount().
    SearchPoint point(std::int64_t index) const;
    // The index of chip × microbatchSizes[m] × recompute[r] × hbmCapacityBytes[h].
    std::int64_t pointIndex(std::int64_t chip, std::size_t m, std::size_t r, std::size_t h) const;

private:
    SearchSpace space_;
    std::vector<ChipConfiguration> chips_;
    std::int64_t optionsPerChip_ = 0;
};

}  // namespace tandem::core::search
