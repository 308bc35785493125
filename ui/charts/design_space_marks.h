#pragma once
// Everything the design-space chart draws on top of its point cloud, and its legend: the Pareto
// front as a step line, the best point (gold star), the reference chip (orange diamond), the
// selected point (red ring), and one legend entry per colour bucket plus the infeasible row
// (data-less graphs whose scatter style is the key; the cloud draws the points themselves).
// Kept out of DesignSpaceChart so that class is about data flow and interaction.
#include <QPointF>
#include <QStringList>
#include <QVector>
#include <optional>
#include <vector>

#include "ui/charts/design_space_data.h"

class QCustomPlot;
class QCPGraph;

namespace tandem::ui {

class DesignSpaceMarks {
public:
    // The best point's star, pixels across: drawn over the points beside it, so a click or a
    // hover within its radius means the best point.
    static constexpr double kBestStarPixels = 19;

    // Adds the "markers" layer and the mark graphs to `plot` (which owns them).
    explicit DesignSpaceMarks(QCustomPlot* plot);

    // One legend entry per bucket of `colouring` (replacing the previous ones).
    void setBuckets(const PointColouring& colouring);

    struct State {
        const DesignSpaceData* data = nullptr;
        std::optional<QPointF> referenceOverride;  // drawn instead of data->referenceRecord()
        std::optional<std::size_t> selected;       // record of the selected point
        const std::vector<std::int64_t>* bucketCounts = nullptr;
    };
    // Moves the marks to `state` and rebuilds the legend (names with counts, marks first).
    void update(const State& state);

    QVector<QPointF> frontLine() const;  // as drawn
    QStringList legendLabels() const;

private:
    QCustomPlot* plot_;
    std::vector<QCPGraph*> buckets_;
    QCPGraph* infeasible_ = nullptr;
    QCPGraph* front_ = nullptr;
    QCPGraph* best_ = nullptr;
    QCPGraph* reference_ = nullptr;
    QCPGraph* selected_ = nullptr;
};

}  // namespace tandem::ui
