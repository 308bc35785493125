#pragma once
// The Placement tab's device map: every device of the cluster as one cell, grouped by
// data-parallel replica (columns) and pipeline stage (rows), the tensor-parallel ranks of a stage
// side by side and outlined as a group, coloured by stage; devices the plan leaves idle form grey
// rows at the bottom. When there are many replicas they wrap into several bands so the map stays
// roughly as wide as it is tall. Drawing visits only visible cells and merges cells smaller than
// a few pixels into runs, so a million devices stay responsive. Hovering a cell shows its device
// id, replica, stage, tensor-parallel rank, the stage's layers and its memory use against HBM.
#include <memory>
#include <tuple>
#include <vector>

#include "ui/charts/chart_widget.h"

class QCPItemText;

namespace tandem::core::placement {
struct Plan;
}

namespace tandem::ui {

class DeviceMapChart : public ChartWidget {
    Q_OBJECT
public:
    explicit DeviceMapChart(QWidget* parent = nullptr);
    ~DeviceMapChart() override;

    // `plan->devices` must hold one entry per device of the cluster (core assignDevices()).
    // stageLayers (optional, one per stage) describe each stage's layers, e.g. "layers 3–14".
    void setPlan(std::shared_ptr<const core::placement::Plan> plan,
                 std::vector<QString> stageLayers = {});
    // Shows nothing but `reason` in the plot area.
    void clear(const QString& reason);

    int cellCount() const;
    // Cell rectangles the last replot filled: visible cells, with runs of small ones merged.
    int drawnRectangleCount() const;
    // Shows the whole cluster and replots.
    void resetView();
    // The device under a point of plot(), −1 for none; the centre of a device's cell.
    int deviceAt(const QPoint& plotPosition) const;
    QPoint cellCentre(int device) const;
    // Tooltip text for the device under the point, empty when there is none.
    QString deviceTextAt(const QPoint& plotPosition) const;
    // The colour a stage's cells are drawn in (the legend uses the same).
    static QColor stageColour(int stage);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    class Cells;         // the custom plottable, defined in the .cpp (it needs qcustomplot.h)
    bool updateTicks();  // true when the labels changed
    void rebuildLegend();

    std::shared_ptr<const core::placement::Plan> plan_;
    std::vector<QString> stageLayers_;
    Cells* cells_ = nullptr;  // owned by plot_
    QCPItemText* message_ = nullptr;
    std::tuple<const void*, int, int> tickKey_{nullptr, 0, 0};  // plan and label strides shown
};

}  // namespace tandem::ui
