#include "ui/charts/point_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/charts/design_point_record.h"

namespace tandem::ui {

void PointGrid::clear() {
    count_ = 0;
    columns_ = rows_ = 0;
    offsets_.clear();
    items_.clear();
}

int PointGrid::cellX(double x) const {
    if (!std::isfinite(x)) return 0;  // a NaN coordinate must not become an out-of-range cell
    return std::clamp(int(std::floor((x - minX_) * scaleX_)), 0, columns_ - 1);
}

int PointGrid::cellY(double y) const {
    if (!std::isfinite(y)) return 0;
    return std::clamp(int(std::floor((y - minY_) * scaleY_)), 0, rows_ - 1);
}

void PointGrid::build(const std::vector<DesignPointRecord>& records) {
    clear();
    if (records.empty()) return;
    minX_ = minY_ = std::numeric_limits<double>::infinity();
    maxX_ = maxY_ = -std::numeric_limits<double>::infinity();
    for (const auto& r : records) {
        if (!std::isfinite(r.areaSquareMillimetres) || !std::isfinite(r.plottedThroughput()))
            continue;
        minX_ = std::min(minX_, r.areaSquareMillimetres);
        maxX_ = std::max(maxX_, r.areaSquareMillimetres);
        minY_ = std::min(minY_, r.plottedThroughput());
        maxY_ = std::max(maxY_, r.plottedThroughput());
    }
    if (!(minX_ <= maxX_)) minX_ = maxX_ = minY_ = maxY_ = 0;  // no finite point at all
    // About eight points per cell on average; square-ish so neither axis dominates.
    const int side = std::clamp(int(std::sqrt(double(records.size()) / 8.0)), 1, 1024);
    columns_ = rows_ = side;
    scaleX_ = maxX_ > minX_ ? double(columns_) / (maxX_ - minX_) : 0.0;
    scaleY_ = maxY_ > minY_ ? double(rows_) / (maxY_ - minY_) : 0.0;
    const std::size_t cells = std::size_t(columns_) * std::size_t(rows_);
    std::vector<std::uint32_t> cellOf(records.size());
    offsets_.assign(cells + 1, 0);
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto& r = records[i];
        cellOf[i] =
            std::uint32_t(std::size_t(cellY(r.plottedThroughput())) * std::size_t(columns_) +
                          std::size_t(cellX(r.areaSquareMillimetres)));
        ++offsets_[cellOf[i] + 1];
    }
    for (std::size_t c = 0; c < cells; ++c) offsets_[c + 1] += offsets_[c];
    items_.resize(records.size());
    std::vector<std::uint32_t> cursor(offsets_.begin(), offsets_.end() - 1);
    for (std::size_t i = 0; i < records.size(); ++i) items_[cursor[cellOf[i]]++] = std::uint32_t(i);
    count_ = records.size();
}

}  // namespace tandem::ui
