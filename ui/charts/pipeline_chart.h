#pragma once
// The Pipeline tab's chart: the 1F1B timeline of one pipeline replica, one row per
// stage (stage 0 on top), a forward and a backward block per microbatch in two colours, bubbles
// left empty, time in ms. The blocks come from core's PipelineTimeline; the chart only draws
// them. Drawing visits only the blocks inside the visible time range of the visible rows and
// merges runs of blocks narrower than a pixel, so 64 stages × 512 microbatches pan and zoom
// smoothly. Hovering a block shows its stage, microbatch, pass, start and duration. Keys: + / −
// zoom time, ← / → pan, Home shows everything.
#include <memory>
#include <string>
#include <vector>

#include "ui/charts/chart_widget.h"

class QCPItemText;

namespace tandem::core::placement {
class PipelineTimeline;
}

namespace tandem::ui {

class PipelineChart : public ChartWidget {
    Q_OBJECT
public:
    explicit PipelineChart(QWidget* parent = nullptr);
    ~PipelineChart() override;

    // Shows `timeline`; stageLabels (optional, one per stage) name the stage's layers in tooltips.
    void setTimeline(std::shared_ptr<const core::placement::PipelineTimeline> timeline,
                     std::vector<QString> stageLabels = {});
    // Shows nothing but `reason` in the plot area.
    void clear(const QString& reason);

    int blockCount() const;
    // Rectangles the last replot filled: visible blocks, with runs of sub-pixel ones merged.
    int drawnRectangleCount() const;
    const core::placement::PipelineTimeline* timeline() const { return timeline_.get(); }
    // Tooltip text for the block under the widget-relative point, empty when there is none.
    QString blockTextAt(const QPoint& plotPosition) const;
    // Shows the whole timeline / the given window (seconds, stages inclusive); both replot.
    void resetView();
    void showRange(double startSeconds, double endSeconds, int firstStage, int lastStage);
    // The centre of block `index` (in execution order) of `stage`, in plot() pixels.
    QPoint blockCentre(int stage, int index) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    class Blocks;  // the custom plottable, defined in the .cpp (it needs qcustomplot.h)
    void clampRanges();

    std::shared_ptr<const core::placement::PipelineTimeline> timeline_;
    std::vector<QString> stageLabels_;
    QCPItemText* message_ = nullptr;
    Blocks* blocks_ = nullptr;  // owned by plot_
};

}  // namespace tandem::ui
