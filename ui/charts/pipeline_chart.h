#pragma once
// The Pipeline tab's chart: the 1F1B timeline of one pipeline replica, one row per stage (stage 0
// on top), a forward and a backward block per microbatch in two colours, numbered from 1 where
// a block is wide enough, bubbles left empty. The blocks come from core's PipelineTimeline; the
// chart only draws them (PipelineBlocks), visiting only what is in view, so 64 stages × 512
// microbatches pan and zoom smoothly.
//
// A long pipeline opens readable: the default view runs from the start of the batch until stage
// 0 has finished the backward pass of its sixth microbatch — the warm-up of every stage and a few
// steady-state forward/backward cycles, blocks wide enough to number — and a note above the plot
// says which microbatches are in view of how many, and how to see the rest. The time axis reads
// in µs, ms, s or min, whichever suits the range in view. Hovering a block shows its stage,
// microbatch, pass, start and duration. Keys: + / − zoom time, ← / → pan, Home the start, End the
// end (the cool-down), 0 the whole batch.
//
// A playhead (setPlayhead) marks an instant of the batch for the tab's step-by-step playback: a
// red line, with what has not happened yet veiled in white; the view pans to keep it in sight.
#include <QRectF>
#include <QSharedPointer>
#include <QString>
#include <QtGlobal>
#include <memory>
#include <vector>

#include "ui/charts/chart_widget.h"

class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;

namespace tandem::core::placement {
class PipelineTimeline;
}

namespace tandem::ui {

class PipelineBlocks;
class TimeAxisTicker;

class PipelineChart : public ChartWidget {
    Q_OBJECT
public:
    explicit PipelineChart(QWidget* parent = nullptr);
    ~PipelineChart() override;

    // Shows `timeline` in the default view (showStart()); stageLabels (optional, one per stage)
    // name the stage's layers in tooltips.
    void setTimeline(std::shared_ptr<const core::placement::PipelineTimeline> timeline,
                     std::vector<QString> stageLabels = {});
    // Shows nothing but `reason` in the plot area.
    void clear(const QString& reason);

    int blockCount() const;
    // Rectangles the last replot filled: visible blocks, with runs of sub-pixel ones merged; and
    // the microbatch numbers it wrote into blocks.
    int drawnRectangleCount() const;
    int drawnLabelCount() const;
    const core::placement::PipelineTimeline* timeline() const { return timeline_.get(); }
    // Tooltip text for the block under the widget-relative point, empty when there is none.
    QString blockTextAt(const QPoint& plotPosition) const;

    // The views; each replots. resetView: the whole batch (key 0). showStart: the default view,
    // the start of the batch (Home). showEnd: as wide as the default view, at the end (End).
    // showRange: a window in seconds, stages inclusive.
    void resetView();
    void showStart();
    void showEnd();
    void showRange(double startSeconds, double endSeconds, int firstStage, int lastStage);
    // Only the time range (the stages in view stay): to keep a second chart on the same window.
    void showTimeRange(double startSeconds, double endSeconds);
    // The time range in view, in seconds, and the unit its axis reads in ("µs", "ms", "s", "min").
    double viewStartSeconds() const;
    double viewEndSeconds() const;
    QString timeUnit() const;
    // The note above the plot: which microbatches are in view and how to see the others; empty
    // when the whole batch is in view and the default view shows it too.
    QString viewNote() const;

    // The playback's instant, in seconds from the start of the batch; negative hides it. The
    // view pans (keeping its width) when the instant is outside it.
    void setPlayhead(double seconds);
    double playheadSeconds() const { return playhead_; }

    // Block `index` (in execution order) of `stage`, in plot() pixels: its rectangle and centre.
    QRectF blockRect(int stage, int index) const;
    QPoint blockCentre(int stage, int index) const;

signals:
    // The time range in view changed (pan, zoom, a playhead that moved the view).
    void timeRangeChanged(double startSeconds, double endSeconds);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void clampRanges();
    void rangeChanged();
    QString describeView() const;

    std::shared_ptr<const core::placement::PipelineTimeline> timeline_;
    std::vector<QString> stageLabels_;
    double defaultEndSeconds_ = 0;  // the default view ends here (the makespan when short)
    double playhead_ = -1;
    QCPItemStraightLine* playheadLine_ = nullptr;
    QCPItemRect* future_ = nullptr;  // the veil over what comes after the playhead
    QCPItemText* message_ = nullptr;
    QCPTextElement* note_ = nullptr;
    PipelineBlocks* blocks_ = nullptr;  // owned by plot_
    QSharedPointer<TimeAxisTicker> ticker_;
};

}  // namespace tandem::ui
