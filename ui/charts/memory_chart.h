#pragma once
// The Placement tab's memory chart: for each pipeline stage a stacked bar of what one
// of its devices holds — weights, gradients, optimizer state, one microbatch's activations and
// the stash of the other in-flight microbatches — in GiB, against the HBM capacity drawn as a
// horizontal line. The numbers are the plan's MemoryBreakdown; the chart only converts them to
// GiB. Hovering a stage shows every part with its unit, the total and the share of HBM.
#include <memory>
#include <vector>

#include "ui/charts/chart_widget.h"

class QCPBars;
class QCPGraph;
class QCPItemText;

namespace tandem::core::placement {
struct Plan;
}

namespace tandem::ui {

class MemoryChart : public ChartWidget {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    ~MemoryChart() override;

    // stageLayers (optional, one per stage) describe each stage's layers in tooltips.
    void setPlan(std::shared_ptr<const core::placement::Plan> plan,
                 std::vector<QString> stageLayers = {});
    // Shows nothing but `reason` in the plot area.
    void clear(const QString& reason);

    // Stages drawn, and the height of a stage's stacked bar as drawn (GiB).
    int barCount() const;
    double stackedGiB(int stage) const;
    // The HBM line's height as drawn (GiB), 0 without a plan.
    double capacityGiB() const;
    // The middle of a stage's bar in plot() pixels.
    QPoint barCentre(int stage) const;
    // Tooltip text for the stage under the point, empty when there is none.
    QString stageTextAt(const QPoint& plotPosition) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::shared_ptr<const core::placement::Plan> plan_;
    std::vector<QString> stageLayers_;
    std::vector<QCPBars*> parts_;  // bottom to top; owned by plot_
    QCPGraph* capacity_ = nullptr;
    QCPItemText* message_ = nullptr;
};

}  // namespace tandem::ui
