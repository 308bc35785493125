#include "core/search/search_grid.h"

#include <utility>

namespace tandem::core::search {

Expected<SearchGrid> SearchGrid::create(SearchSpace space) {
    Expected<std::vector<ChipConfiguration>> chips = space.enumerateChips();
    if (!chips.ok()) return chips.error();
    SearchGrid grid;
    grid.optionsPerChip_ = std::int64_t(space.microbatchSizes.size() * space.recompute.size() *
                                        space.hbmCapacityBytes.size());
    grid.space_ = std::move(space);
    grid.chips_ = std::move(*chips);
    return grid;
}

SearchPoint SearchGrid::point(std::int64_t index) const {
    const auto hbmCount = std::int64_t(space_.hbmCapacityBytes.size());
    const auto recomputeCount = std::int64_t(space_.recompute.size());
    const auto mbsCount = std::int64_t(space_.microbatchSizes.size());
    std::int64_t rest = index;
    const auto h = std::size_t(rest % hbmCount);
    rest /= hbmCount;
    const auto r = std::size_t(rest % recomputeCount);
    rest /= recomputeCount;
    const auto m = std::size_t(rest % mbsCount);
    const std::int64_t chip = rest / mbsCount;

    const ChipConfiguration& c = chips_[std::size_t(chip)];
    SearchPoint p;
    p.index = index;
    p.chipIndex = chip;
    p.accelerator = c.accelerator;
    p.accelerator.hbmCapacityBytes = space_.hbmCapacityBytes[h];
    p.areaSquareMillimetres = c.areaSquareMillimetres;
    p.microbatchSize = space_.microbatchSizes[m];
    p.recompute = space_.recompute[r];
    return p;
}

std::int64_t SearchGrid::pointIndex(std::int64_t chip, std::size_t m, std::size_t r,
                                    std::size_t h) const {
    const auto mbsCount = std::int64_t(space_.microbatchSizes.size());
    const auto recomputeCount = std::int64_t(space_.recompute.size());
    const auto hbmCount = std::int64_t(space_.hbmCapacityBytes.size());
    return ((chip * mbsCount + std::int64_t(m)) * recomputeCount + std::int64_t(r)) * hbmCount +
           std::int64_t(h);
}

}  // namespace tandem::core::search
