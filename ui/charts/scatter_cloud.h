#pragma once
// The design-space point cloud as one QCustomPlot layerable. Hundreds of thousands of markers
// cannot be drawn one by one at interactive rates (QCPGraph scatters took >1 s for PHAZE's
// 704,640 points), so each replot maps every point once to a cell of a 2-pixel grid over the
// axis rect, keeps one colour per cell (the highest bucket, i.e. what drawing the buckets in
// order would leave on top), stamps a small disc (or a grey cross for infeasible points) per
// occupied cell into an image and draws that image. Work is O(points) plus O(visible cells),
// and the image is reused while neither data, colours, ranges nor size change. Points outside
// the visible ranges are skipped. The QCustomPlot types stay in the .cpp (pimpl).
#include <QColor>
#include <cstdint>
#include <memory>
#include <vector>

class QCustomPlot;

namespace tandem::ui {

class ScatterCloud {
public:
    static constexpr std::uint8_t kInfeasible = 255;  // bucket of points drawn as grey crosses

    // Draws on `plot`'s main layer, inside its default axis rect.
    explicit ScatterCloud(QCustomPlot* plot);
    ~ScatterCloud();
    ScatterCloud(const ScatterCloud&) = delete;
    ScatterCloud& operator=(const ScatterCloud&) = delete;

    void clear();
    void reserve(std::size_t points);
    void append(double x, double y, std::uint8_t bucket);
    // Re-colours point i (after a change of colour dimension).
    void setBucket(std::size_t i, std::uint8_t bucket);
    void setBucketColours(std::vector<QColor> colours);  // index = bucket
    std::size_t size() const;
    // Milliseconds the last draw took (for the performance test and tuning).
    double lastDrawMilliseconds() const;

private:
    class Layer;
    Layer* layer_;  // owned by the QCustomPlot
};

}  // namespace tandem::ui
