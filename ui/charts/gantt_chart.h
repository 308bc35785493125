#pragma once
// The Schedule tab's Gantt chart: draws a core::schedule::GanttLayout — one row per tensor core,
// vector core and the link (or per aggregated range of cores), time on x in µs or ms chosen from
// the makespan, bars coloured by operator kind with a legend, intra-operator-parallel bars
// spanning their rows, named where wide enough, and the makespan and lower-bound lines (a wide
// dark line under a narrow dashed red one, so both show where they coincide; the legend gives
// their values). Hover shows an operator's name, start, duration, FLOPs and mode. The wheel zooms
// and dragging pans the time axis (also + / −, ← / →, Home for the keyboard). Only the bars inside
// the visible time range are turned into plot items, and bars narrower than a pixel that touch are
// merged into one, so a layer with thousands of operators stays responsive at any zoom.
#include <map>
#include <memory>
#include <vector>

#include <QPoint>
#include <QSharedPointer>
#include <QString>

#include "core/schedule/gantt_layout.h"
#include "ui/charts/chart_widget.h"

class QCPAbstractPlottable;
class QCPAxisTickerText;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;

namespace tandem::ui {

class GanttChart : public ChartWidget {
    Q_OBJECT
public:
    explicit GanttChart(QWidget* parent = nullptr);
    ~GanttChart() override;

    // Shows `layout` (nullptr clears the chart) under `title`, e.g. "transformer block — forward".
    void setLayout(std::shared_ptr<const core::schedule::GanttLayout> layout,
                   const QString& title = {});
    const core::schedule::GanttLayout* layout() const { return layout_.get(); }

    int barCount() const;        // bars of the layout the chart draws (a Fused op gives two)
    int operatorCount() const;   // distinct operators among them
    int drawnItemCount() const;  // rectangles on screen now, after culling and merging
    QString timeUnit() const { return unitName_; }  // "µs", "ms" or "s"

    // The tooltip text for a widget position, or empty when no bar is under it.
    QString toolTipAt(const QPoint& pos) const;
    // Where bar `barIndex` of the layout is drawn (widget coordinates, the middle of its visible
    // part), or (−1, −1) when it is outside the view; for tests and keyboard-driven tooltips.
    QPoint barCenter(int barIndex) const;

public slots:
    void resetView();  // the whole makespan

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuildItems();
    void onRangeChanged();
    void moveView(double zoom, double shift);
    int barIndexAt(const QPoint& plotPos) const;
    QCPItemRect* rectItem(int index);
    void showInLegend(QCPAbstractPlottable* key, bool show);
    QCPItemText* textItem(int index);

    std::shared_ptr<const core::schedule::GanttLayout> layout_;
    std::vector<int> barOrder_;  // bar indices grouped by (rows, sub-row), then by start
    double scale_ = 1e3;         // display units per second
    QString unitName_ = QStringLiteral("ms");
    QCPTextElement* title_ = nullptr;
    QSharedPointer<QCPAxisTickerText> rowTicker_;
    std::vector<QCPAbstractPlottable*> classKeys_;  // legend keys, one per operator class
    QCPAbstractPlottable* mixedKey_ = nullptr;
    std::map<QCPAbstractPlottable*, bool> legendWanted_;
    QCPGraph* makespanKey_ = nullptr;  // legend keys of the two lines
    QCPGraph* boundKey_ = nullptr;
    QCPItemStraightLine* makespanLine_ = nullptr;
    QCPItemStraightLine* boundLine_ = nullptr;
    std::vector<QCPItemRect*> rects_;  // pools reused across redraws
    std::vector<QCPItemText*> texts_;
    int rectsUsed_ = 0;
    int lastAxisWidth_ = 0;
    bool clamping_ = false;
};

}  // namespace tandem::ui
