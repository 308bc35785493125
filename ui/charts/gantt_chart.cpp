#include "ui/charts/gantt_chart.h"

#include <qcustomplot.h>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/common/units.h"
#include "ui/charts/gantt_text.h"

namespace tandem::ui {

namespace sch = core::schedule;
using core::model::OpClass;

namespace {
constexpr double kHalfBar = 0.4;      // a bar fills 80 % of its row's height
constexpr double kMergePixels = 1.0;  // closer than this, sub-pixel bars merge into one
constexpr double kThinPixels = 2.0;   // bars narrower than this are candidates for merging

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// Vertical extent of a bar in row coordinates (rows grow downwards).
std::pair<double, double> barRows(const sch::GanttLayout& layout, const sch::GanttBar& bar) {
    if (bar.firstRow != bar.lastRow) return {bar.firstRow - kHalfBar, bar.lastRow + kHalfBar};
    const int n = layout.rows()[std::size_t(bar.firstRow)].subRows;
    const double h = 2 * kHalfBar / n;
    const double top = bar.firstRow - kHalfBar + h * bar.subRow;
    const double gap = n > 1 ? 0.12 * h : 0;  // keeps stacked sub-rows visibly apart
    return {top + gap / 2, top + h - gap / 2};
}
}  // namespace

GanttChart::GanttChart(QWidget* parent) : ChartWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    plot_->setFocusPolicy(Qt::ClickFocus);
    plot_->setMinimumSize(480, 300);
    plot_->installEventFilter(this);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->axisRect()->setRangeZoomFactor(0.85, 1.0);
    // Bars, then their names (a layer of their own: pooled items are drawn in creation order,
    // so a bar item created after a label would cover it), then the makespan and bound lines.
    plot_->addLayer("bars", plot_->layer("main"), QCustomPlot::limAbove);
    plot_->addLayer("labels", plot_->layer("bars"), QCustomPlot::limAbove);
    plot_->addLayer("marks", plot_->layer("labels"), QCustomPlot::limAbove);

    plot_->plotLayout()->insertRow(0);
    title_ = new QCPTextElement(plot_, QString(), QFont(font().family(), 11, QFont::Bold));
    plot_->plotLayout()->addElement(0, 0, title_);

    auto* y = plot_->yAxis;
    y->setRangeReversed(true);
    y->setSubTicks(false);
    y->setTickLength(0, 3);
    y->grid()->setVisible(false);
    y->setLabel(tr("Core"));
    rowTicker_ = QSharedPointer<QCPAxisTickerText>::create();
    y->setTicker(rowTicker_);
    plot_->xAxis->setLabel(tr("Time (ms)"));
    plot_->xAxis->grid()->setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 0, Qt::DotLine));

    // Legend below the plot so it never covers a bar.
    auto addKey = [this](const QString& name, const QColor& colour) {
        auto* key = new QCPBars(plot_->xAxis, plot_->yAxis);
        key->setName(name);
        key->setBrush(colour);
        key->setPen(QPen(colour.darker(140)));
        return key;
    };
    for (OpClass c :
         {OpClass::TensorCore, OpClass::VectorCore, OpClass::Fused, OpClass::Collective})
        classKeys_.push_back(addKey(ganttClassName(c), ganttClassColour(c)));
    mixedKey_ = addKey(tr("Several operators (zoom in)"), ganttMixedColour());
    // The two lines often coincide (a schedule proved optimal): the makespan is a wide dark line
    // and the bound a narrow dashed red one drawn over it, so both stay visible, there and in
    // the legend.
    makespanKey_ = plot_->addGraph();
    makespanKey_->setName(tr("Makespan"));
    makespanKey_->setPen(QPen(QColor(0x20, 0x20, 0x20), 5, Qt::SolidLine, Qt::FlatCap));
    boundKey_ = plot_->addGraph();
    boundKey_->setName(tr("Lower bound"));
    QPen boundPen(QColor(0xd0, 0x18, 0x18), 2, Qt::CustomDashLine, Qt::FlatCap);
    boundPen.setDashPattern({3, 2});
    boundKey_->setPen(boundPen);
    plot_->legend->setVisible(true);
    plot_->legend->setWrap(4);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(2, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(2, 0.001);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);

    for (QCPGraph* key : {makespanKey_, boundKey_}) {
        auto* line = new QCPItemStraightLine(plot_);
        line->setLayer("marks");
        line->setPen(key->pen());
        line->setSelectable(false);
        line->setVisible(false);
        (key == makespanKey_ ? makespanLine_ : boundLine_) = line;
    }

    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { onRangeChanged(); });
    connect(plot_, &QCustomPlot::afterLayout, this, [this] {
        // Merging depends on pixel widths, which are known only once the plot is laid out.
        if (plot_->axisRect()->width() != lastAxisWidth_) {
            lastAxisWidth_ = plot_->axisRect()->width();
            rebuildItems();
        }
    });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
    setLayout(nullptr);
}

GanttChart::~GanttChart() = default;

int GanttChart::barCount() const {
    return layout_ ? int(layout_->bars().size()) : 0;
}
int GanttChart::operatorCount() const {
    return layout_ ? layout_->operatorCount() : 0;
}
int GanttChart::drawnItemCount() const {
    return rectsUsed_;
}

void GanttChart::setLayout(std::shared_ptr<const sch::GanttLayout> layout, const QString& title) {
    layout_ = std::move(layout);
    title_->setText(title);
    barOrder_.clear();
    rowTicker_->clear();
    const double makespan = layout_ ? layout_->makespanSeconds() : 0;
    scale_ = makespan > 0 && makespan < 1e-3 ? 1e6 : makespan < 10 ? 1e3 : 1;
    unitName_ = scale_ == 1e6   ? QStringLiteral("µs")
                : scale_ == 1e3 ? QStringLiteral("ms")
                                : QStringLiteral("s");
    plot_->xAxis->setLabel(tr("Time (%1)").arg(unitName_));
    int rows = 1;
    if (layout_) {
        rows = int(layout_->rows().size());
        for (int r = 0; r < rows; ++r)
            rowTicker_->addTick(r, qs(layout_->rows()[std::size_t(r)].label));
        barOrder_.resize(layout_->bars().size());
        std::iota(barOrder_.begin(), barOrder_.end(), 0);
        const auto& bars = layout_->bars();
        std::stable_sort(barOrder_.begin(), barOrder_.end(), [&bars](int a, int b) {
            const auto& x = bars[std::size_t(a)];
            const auto& y = bars[std::size_t(b)];
            return std::tie(x.firstRow, x.lastRow, x.subRow, x.startSeconds) <
                   std::tie(y.firstRow, y.lastRow, y.subRow, y.startSeconds);
        });
        const OpClass order[] = {OpClass::TensorCore, OpClass::VectorCore, OpClass::Fused,
                                 OpClass::Collective};
        for (std::size_t k = 0; k < classKeys_.size(); ++k) {
            const bool present = std::any_of(bars.begin(), bars.end(),
                                             [&](const auto& b) { return b.opClass == order[k]; });
            showInLegend(classKeys_[k], present);
        }
        for (auto* line : {makespanLine_, boundLine_}) {
            const double at = line == makespanLine_ ? makespan : layout_->lowerBoundSeconds();
            line->point1->setCoords(at * scale_, 0);
            line->point2->setCoords(at * scale_, 1);
        }
    }
    // The legend gives the lines' values.
    const auto value = [](double s) { return " " + qs(core::formatSeconds(s)); };
    makespanKey_->setName(tr("Makespan") + (layout_ ? value(makespan) : QString()));
    boundKey_->setName(tr("Lower bound") + (layout_ ? value(layout_->lowerBoundSeconds()) : ""));
    for (auto* line : {makespanLine_, boundLine_}) line->setVisible(layout_ && makespan > 0);
    plot_->yAxis->setRange(-0.6, rows - 0.4);
    resetView();
}

void GanttChart::showInLegend(QCPAbstractPlottable* key, bool show) {
    // Legend items are kept in a fixed order (kinds, then several, then the lines), so removing
    // and re-adding would shuffle them; re-adding everything in order keeps it stable.
    if (plot_->legend->hasItemWithPlottable(key) == show) return;
    legendWanted_[key] = show;
    plot_->legend->clearItems();
    for (int i = 0; i < plot_->plottableCount(); ++i) {
        auto* p = plot_->plottable(i);
        const auto it = legendWanted_.find(p);
        if (it == legendWanted_.end() || it->second) p->addToLegend();
    }
}

void GanttChart::resetView() {
    const double makespan = layout_ ? layout_->makespanSeconds() * scale_ : 0;
    const double span = makespan > 0 ? makespan : 1;
    plot_->xAxis->setRange(-0.01 * span, 1.03 * span);
    rebuildItems();
    plot_->replot();
}

void GanttChart::onRangeChanged() {
    // Keep the view on the schedule: zoom out no further than the whole makespan, pan no further
    // than its ends, and zoom in no further than a millionth of it.
    if (clamping_) return;
    const double makespan = layout_ ? layout_->makespanSeconds() * scale_ : 0;
    const double span = makespan > 0 ? makespan : 1;
    const double lo = -0.01 * span, hi = 1.03 * span;
    QCPRange r = plot_->xAxis->range();
    if (r.size() > hi - lo) r = QCPRange(lo, hi);
    if (r.size() < span * 1e-6) r = QCPRange(r.center() - span * 5e-7, r.center() + span * 5e-7);
    if (r.lower < lo) r = QCPRange(lo, lo + r.size());
    if (r.upper > hi) r = QCPRange(hi - r.size(), hi);
    if (r != plot_->xAxis->range()) {
        clamping_ = true;
        plot_->xAxis->setRange(r);
        clamping_ = false;
    }
    rebuildItems();
}

QCPItemRect* GanttChart::rectItem(int index) {
    while (int(rects_.size()) <= index) {
        auto* rect = new QCPItemRect(plot_);
        rect->setLayer("bars");
        rect->setSelectable(false);
        rects_.push_back(rect);
    }
    return rects_[std::size_t(index)];
}

QCPItemText* GanttChart::textItem(int index) {
    while (int(texts_.size()) <= index) {
        auto* text = new QCPItemText(plot_);
        text->setLayer("labels");
        text->setSelectable(false);
        text->setColor(Qt::white);
        text->setPositionAlignment(Qt::AlignCenter);
        texts_.push_back(text);
    }
    return texts_[std::size_t(index)];
}

void GanttChart::rebuildItems() {
    rectsUsed_ = 0;
    int textsUsed = 0;
    bool anyMixed = false;
    if (layout_ && !barOrder_.empty()) {
        const auto& bars = layout_->bars();
        const QCPRange view = plot_->xAxis->range();
        const double width = std::max(1, plot_->axisRect()->width());
        const double pxPerUnit = width / view.size();
        const double rowPx =
            std::max(1, plot_->axisRect()->height()) / plot_->yAxis->range().size();
        QFont labelFont = font();
        labelFont.setPointSizeF(std::max(7.0, labelFont.pointSizeF() - 1));
        const QFontMetrics metrics(labelFont);

        struct Cluster {
            int first = -1;             // bar index of the first member
            double start = 0, end = 0;  // display units
            int members = 0;
            bool mixed = false;
            bool thin = false;  // every member is narrower than kThinPixels
        } c;
        auto flush = [&] {
            if (c.members == 0) return;
            const auto& bar = bars[std::size_t(c.first)];
            const auto [top, bottom] = barRows(*layout_, bar);
            auto* rect = rectItem(rectsUsed_++);
            rect->topLeft->setCoords(c.start, top);
            rect->bottomRight->setCoords(c.end, bottom);
            const QColor colour = c.mixed ? ganttMixedColour() : ganttClassColour(bar.opClass);
            anyMixed |= c.mixed;
            rect->setBrush(colour);
            const bool parallel = c.members == 1 && bar.mode == sch::TaskMode::IntraOpParallel;
            rect->setPen(QPen(colour.darker(parallel ? 200 : 140), parallel ? 2 : 1));
            rect->setVisible(true);
            const double px = (c.end - c.start) * pxPerUnit;
            if (c.members == 1 && (bottom - top) * rowPx >= metrics.height()) {
                const QString name = qs(layout_->tasks()[std::size_t(bar.task)].name);
                if (metrics.horizontalAdvance(name) + 8 < px) {
                    auto* text = textItem(textsUsed++);
                    text->setFont(labelFont);
                    text->setText(name);
                    text->position->setCoords(
                        (std::max(c.start, view.lower) + std::min(c.end, view.upper)) / 2,
                        (top + bottom) / 2);
                    text->setVisible(true);
                }
            }
            c = Cluster{};
        };
        int group = -1;
        for (int index : barOrder_) {
            const auto& bar = bars[std::size_t(index)];
            const double s = bar.startSeconds * scale_, e = bar.endSeconds * scale_;
            if (e < view.lower || s > view.upper) continue;
            const int key = (bar.firstRow * 4099 + bar.lastRow) * 4099 + bar.subRow;
            // Only thin bars gather into a cluster: a bar wide enough to see keeps its own
            // rectangle and colour, however many slivers sit next to it.
            const bool thin = (e - s) * pxPerUnit < kThinPixels;
            const bool touching = c.members > 0 && (s - c.end) * pxPerUnit < kMergePixels;
            if (key != group || !touching || !thin || !c.thin) flush();
            group = key;
            if (c.members == 0) {
                c.first = index;
                c.start = s;
                c.end = e;
                c.thin = thin;
            } else {
                c.mixed |= bar.opClass != bars[std::size_t(c.first)].opClass;
                c.end = std::max(c.end, e);
            }
            ++c.members;
        }
        flush();
    }
    showInLegend(mixedKey_, anyMixed);
    for (std::size_t i = std::size_t(rectsUsed_); i < rects_.size(); ++i)
        rects_[i]->setVisible(false);
    for (std::size_t i = std::size_t(textsUsed); i < texts_.size(); ++i)
        texts_[i]->setVisible(false);
}

void GanttChart::moveView(double zoom, double shift) {
    // Scale the time range by `zoom` about its centre, then move it by `shift` of its width.
    const QCPRange r = plot_->xAxis->range();
    const double centre = r.center() + shift * r.size(), half = r.size() * zoom / 2;
    plot_->xAxis->setRange(centre - half, centre + half);
    plot_->replot();
}

void GanttChart::keyPressEvent(QKeyEvent* event) {
    // + / − zoom by a fifth, ← / → pan by a tenth, Home and 0 show the whole makespan.
    const int key = event->key();
    if (key == Qt::Key_Home || key == Qt::Key_0) {
        resetView();
    } else if (key == Qt::Key_Plus || key == Qt::Key_Equal || key == Qt::Key_Minus) {
        moveView(key == Qt::Key_Minus ? 1.25 : 0.8, 0);
    } else if (key == Qt::Key_Left || key == Qt::Key_Right) {
        moveView(1, key == Qt::Key_Left ? -0.1 : 0.1);
    } else {
        ChartWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

bool GanttChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        QToolTip::showText(help->globalPos(), toolTipAt(help->pos()), plot_);  // empty: hides
        return true;
    }
    return ChartWidget::eventFilter(watched, event);
}

int GanttChart::barIndexAt(const QPoint& plotPos) const {
    if (!layout_ || !plot_->axisRect()->rect().contains(plotPos)) return -1;
    const double t = plot_->xAxis->pixelToCoord(plotPos.x()) / scale_;
    const double y = plot_->yAxis->pixelToCoord(plotPos.y());
    // Two pixels of slack so that a bar merged below a pixel can still be hovered.
    const double slack =
        2 * plot_->xAxis->range().size() / std::max(1, plot_->axisRect()->width()) / scale_;
    int best = -1;
    double bestDistance = slack;
    const auto& bars = layout_->bars();
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const auto [top, bottom] = barRows(*layout_, bars[i]);
        if (y < top || y > bottom) continue;
        const double d = t < bars[i].startSeconds ? bars[i].startSeconds - t
                         : t > bars[i].endSeconds ? t - bars[i].endSeconds
                                                  : 0;
        if (d < bestDistance || (d == 0 && best < 0)) {
            best = int(i);
            bestDistance = d;
        }
    }
    return best;
}

QString GanttChart::toolTipAt(const QPoint& pos) const {
    const int bar = barIndexAt(plot_->mapFrom(this, pos));
    return bar < 0 ? QString() : ganttBarDescription(*layout_, bar);
}

QPoint GanttChart::barCenter(int barIndex) const {
    if (!layout_ || barIndex < 0 || barIndex >= barCount()) return {-1, -1};
    const auto& bar = layout_->bars()[std::size_t(barIndex)];
    const QCPRange view = plot_->xAxis->range();
    const double s = std::max(bar.startSeconds * scale_, view.lower);
    const double e = std::min(bar.endSeconds * scale_, view.upper);
    if (s > e) return {-1, -1};
    const auto [top, bottom] = barRows(*layout_, bar);
    const QPointF inPlot(plot_->xAxis->coordToPixel((s + e) / 2),
                         plot_->yAxis->coordToPixel((top + bottom) / 2));
    return plot_->mapTo(this, inPlot.toPoint());
}

}  // namespace tandem::ui
