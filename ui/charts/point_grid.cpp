#include "ui/charts/point_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tandem::ui {

void PointGrid::clear() {
    points_.clear();
    count_ = 0;
    columns_ = rows_ = 0;
    offsets_.clear();
    items_.clear();
}

void PointGrid::append(double x, double y) {
    points_.push_back({x, y});
}

int PointGrid::cellX(double x) const {
    if (!std::isfinite(x)) return 0;  // a NaN coordinate must not become an out-of-range cell
    return std::clamp(int(std::floor((x - minX_) * scaleX_)), 0, columns_ - 1);
}

int PointGrid::cellY(double y) const {
    if (!std::isfinite(y)) return 0;
    return std::clamp(int(std::floor((y - minY_) * scaleY_)), 0, rows_ - 1);
}

void PointGrid::index() {
    if (size() - count_ > std::max<std::size_t>(4096, count_ / 8)) build();
}

void PointGrid::build() {
    const std::size_t n = points_.size();
    minX_ = minY_ = std::numeric_limits<double>::infinity();
    maxX_ = maxY_ = -std::numeric_limits<double>::infinity();
    points_.forEachFrom(0, [this](const Point& p) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
        minX_ = std::min(minX_, p.x);
        maxX_ = std::max(maxX_, p.x);
        minY_ = std::min(minY_, p.y);
        maxY_ = std::max(maxY_, p.y);
    });
    if (!(minX_ <= maxX_)) minX_ = maxX_ = minY_ = maxY_ = 0;  // no finite point at all
    // About eight points per cell on average; square-ish so neither axis dominates.
    const int side = std::clamp(int(std::sqrt(double(n) / 8.0)), 1, 1024);
    columns_ = rows_ = side;
    scaleX_ = maxX_ > minX_ ? double(columns_) / (maxX_ - minX_) : 0.0;
    scaleY_ = maxY_ > minY_ ? double(rows_) / (maxY_ - minY_) : 0.0;
    const std::size_t cells = std::size_t(columns_) * std::size_t(rows_);
    // Non-finite points get a cell too (cellX/Y map them to 0) but no query reaches them:
    // visitors test the exact distance, which is NaN or infinite.
    const auto cellOf = [this](const Point& p) {
        return std::size_t(cellY(p.y)) * std::size_t(columns_) + std::size_t(cellX(p.x));
    };
    // Counting sort by cell. The cell is computed twice rather than stored: a fresh n-sized
    // scratch array costs more in page faults than the arithmetic.
    offsets_.assign(cells + 1, 0);
    points_.forEachFrom(0, [&](const Point& p) { ++offsets_[cellOf(p) + 1]; });
    for (std::size_t c = 0; c < cells; ++c) offsets_[c + 1] += offsets_[c];
    items_.resize(n);
    std::vector<std::uint32_t> cursor(offsets_.begin(), offsets_.end() - 1);
    std::uint32_t i = 0;
    points_.forEachFrom(0, [&](const Point& p) { items_[cursor[cellOf(p)]++] = i++; });
    count_ = n;
}

}  // namespace tandem::ui
