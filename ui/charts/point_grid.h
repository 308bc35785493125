#pragma once
// A uniform bucket grid over the data coordinates of the design-space points, so that hover and
// click find the nearest point by looking at the few cells under the cursor instead of scanning
// every point on each mouse move (a PHAZE search has 704,640 of them). The grid keeps its own
// compact copy of the coordinates (appended in O(1) per point as points stream in) and a cell
// index over points [0, indexed()) stored compactly (CSR: one offset per cell, one point number
// per point). Points appended later form a tail that queries scan directly; index() rebuilds
// the cell index once the tail outgrows an eighth of it, in O(n) over the compact copy, so
// streaming costs O(1) amortised per point and a query after any batch O(cells + tail).
#include <cstdint>
#include <vector>

#include "ui/charts/chunked_vector.h"

namespace tandem::ui {

class PointGrid {
public:
    void clear();
    // Point size() at (x, y); non-finite coordinates are kept but never visited.
    void append(double x, double y);
    std::size_t size() const { return points_.size(); }
    std::size_t indexed() const { return count_; }
    // Rebuilds the cell index over every point when the tail has outgrown max(4096, n / 8).
    void index();

    // Calls visit(i) for every point whose cell intersects [x0, x1] × [y0, y1] (data units),
    // and for every tail point inside it; the caller tests the exact distance.
    template <class Visit>
    void forEachNear(double x0, double x1, double y0, double y1, Visit&& visit) const {
        if (count_ > 0 && !(x1 < minX_ || x0 > maxX_ || y1 < minY_ || y0 > maxY_)) {
            const int cx0 = cellX(x0), cx1 = cellX(x1), cy0 = cellY(y0), cy1 = cellY(y1);
            for (int cy = cy0; cy <= cy1; ++cy)
                for (int cx = cx0; cx <= cx1; ++cx) {
                    const std::size_t cell =
                        std::size_t(cy) * std::size_t(columns_) + std::size_t(cx);
                    for (std::uint32_t k = offsets_[cell]; k < offsets_[cell + 1]; ++k)
                        visit(std::size_t(items_[k]));
                }
        }
        std::size_t i = count_;
        points_.forEachFrom(count_, [&](const Point& p) {
            if (p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1) visit(i);
            ++i;
        });
    }

    int columns() const { return columns_; }
    int rows() const { return rows_; }

private:
    struct Point {
        double x = 0, y = 0;
    };
    void build();
    int cellX(double x) const;
    int cellY(double y) const;

    ChunkedVector<Point> points_;
    double minX_ = 0, maxX_ = 0, minY_ = 0, maxY_ = 0;
    double scaleX_ = 0, scaleY_ = 0;  // cells per data unit
    int columns_ = 0, rows_ = 0;
    std::size_t count_ = 0;               // points in the cell index
    std::vector<std::uint32_t> offsets_;  // columns·rows + 1
    std::vector<std::uint32_t> items_;    // point numbers, grouped by cell
};

}  // namespace tandem::ui
