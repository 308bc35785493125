#pragma once
// A uniform bucket grid over the data coordinates of the design-space points, so that hover and
// click find the nearest point by looking at the few cells under the cursor instead of scanning
// every point on each mouse move (a PHAZE search has 704,640 of them). Stored compactly (CSR:
// one offset per cell, one point index per point); rebuilt in O(n) when points were added since
// the last query, which happens at most once per streamed batch.
#include <cstdint>
#include <vector>

namespace tandem::ui {

struct DesignPointRecord;

class PointGrid {
public:
    // Indexes records[i] at (area, plotted throughput).
    void build(const std::vector<DesignPointRecord>& records);
    void clear();

    // Calls visit(i) for every record whose cell intersects [x0, x1] × [y0, y1] (data units);
    // the caller tests the exact distance.
    template <class Visit>
    void forEachNear(double x0, double x1, double y0, double y1, Visit&& visit) const {
        if (count_ == 0 || x1 < minX_ || x0 > maxX_ || y1 < minY_ || y0 > maxY_) return;
        const int cx0 = cellX(x0), cx1 = cellX(x1), cy0 = cellY(y0), cy1 = cellY(y1);
        for (int cy = cy0; cy <= cy1; ++cy)
            for (int cx = cx0; cx <= cx1; ++cx) {
                const std::size_t cell = std::size_t(cy) * std::size_t(columns_) + std::size_t(cx);
                for (std::uint32_t k = offsets_[cell]; k < offsets_[cell + 1]; ++k)
                    visit(std::size_t(items_[k]));
            }
    }

    std::size_t size() const { return count_; }
    int columns() const { return columns_; }
    int rows() const { return rows_; }

private:
    int cellX(double x) const;
    int cellY(double y) const;

    double minX_ = 0, maxX_ = 0, minY_ = 0, maxY_ = 0;
    double scaleX_ = 0, scaleY_ = 0;  // cells per data unit
    int columns_ = 0, rows_ = 0;
    std::size_t count_ = 0;
    std::vector<std::uint32_t> offsets_;  // columns·rows + 1
    std::vector<std::uint32_t> items_;    // record indices, grouped by cell
};

}  // namespace tandem::ui
