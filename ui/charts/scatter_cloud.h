#pragma once
// The design-space point cloud as one QCustomPlot layerable. Hundreds of thousands of markers
// cannot be drawn one by one at interactive rates (QCPGraph scatters took >1 s for PHAZE's
// 704,640 points), so the cloud maps each point to a cell of a 2-pixel grid over the axis rect,
// keeps one colour per cell (the highest bucket), stamps a small disc (or a grey cross for
// infeasible points) per occupied cell into an image and draws that image. Where markers overlap
// the higher bucket is on top, as if the buckets were drawn in order. Points outside the visible
// ranges are skipped.
//
// Drawing is incremental while points stream in: the image, the cell owners and the mapping are
// kept, and a replot after append() stamps only the points appended since the last draw — O(new
// points), not O(all points) — giving exactly the image a full draw would. Only a change of
// ranges, size, pixel ratio, colours or class buckets, or clear(), redraws every point
// (O(points) plus O(cells)).
//
// Each point carries a colour class (the chart uses the stable id of its colour value, see
// PointColouring) rather than a bucket, so a new colour value re-maps classes to buckets in
// O(classes) instead of touching every point. The QCustomPlot types stay in the .cpp (pimpl).
#include <QColor>
#include <cstdint>
#include <vector>

class QCustomPlot;

namespace tandem::ui {

class ScatterCloud {
public:
    static constexpr std::uint32_t kInfeasible = 0xFFFFFFFFu;  // class drawn as grey crosses
    static constexpr std::uint32_t kHidden = 0xFFFFFFFEu;      // class never drawn

    // Draws on `plot`'s main layer, inside its default axis rect.
    explicit ScatterCloud(QCustomPlot* plot);
    ~ScatterCloud();
    ScatterCloud(const ScatterCloud&) = delete;
    ScatterCloud& operator=(const ScatterCloud&) = delete;

    void clear();
    void append(double x, double y, std::uint32_t colourClass);
    // Bucket of each colour class (index = class; a class without a bucket, or with a negative
    // one, is not drawn) and colour of each bucket. Setting the tables they already hold is free.
    void setClassBuckets(std::vector<int> bucketOfClass);
    void setBucketColours(std::vector<QColor> colours);  // index = bucket
    std::size_t size() const;
    // Milliseconds the last draw took, and how many points it stamped (every point after a
    // change of view or colours; the ones appended since the draw before, otherwise).
    double lastDrawMilliseconds() const;
    std::size_t lastDrawnPoints() const;

private:
    class Layer;
    Layer* layer_;  // owned by the QCustomPlot
};

}  // namespace tandem::ui
