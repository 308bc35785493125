#include "ui/charts/pipeline_chart.h"

#include <qcustomplot.h>
#include <QKeyEvent>
#include <algorithm>
#include <climits>
#include <cmath>

#include "core/common/units.h"
#include "core/placement/pipeline_timeline.h"
#include "ui/charts/pipeline_blocks.h"
#include "ui/charts/time_axis_ticker.h"

namespace tandem::ui {

namespace {

using core::placement::PipelineBlock;
using core::placement::PipelineTimeline;

// The default view ends when stage 0 has run the backward pass of this many microbatches: with
// equal stages that is S + 6 microbatch slots — every stage's warm-up and a few steady cycles.
constexpr int kDefaultBackwards = 6;
// A default view that would show nearly everything shows everything.
constexpr double kWholeIfAbove = 0.8;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

double makespan(const PipelineTimeline& t) {
    return std::max(t.makespanSeconds(), 1e-12);
}

}  // namespace

PipelineChart::PipelineChart(QWidget* parent) : ChartWidget(parent) {
    blocks_ = new PipelineBlocks(plot_->xAxis, plot_->yAxis);
    blocks_->setName(tr("Pipeline blocks"));
    plot_->yAxis->setLabel(tr("Pipeline stage"));
    plot_->yAxis->setRangeReversed(true);
    plot_->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));  // "1,500 ms"
    ticker_ = QSharedPointer<TimeAxisTicker>::create();
    plot_->xAxis->setTicker(ticker_);
    auto stageTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    stageTicker->setTickStep(1);
    stageTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot_->yAxis->setTicker(stageTicker);
    plot_->yAxis->grid()->setVisible(false);
    plot_->xAxis->grid()->setPen(QPen(QColor(0, 0, 0, 30), 0, Qt::DotLine));

    // Legend proxies: empty bars that only carry a name and a swatch.
    auto addSwatch = [this](const QString& name, const QColor& fill, const QColor& border) {
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setName(name);
        bars->setBrush(fill);
        bars->setPen(QPen(border));
        bars->setSelectable(QCP::stNone);
    };
    const QColor forward = PipelineBlocks::kForward, backward = PipelineBlocks::kBackward;
    addSwatch(tr("Forward pass"), forward, forward.darker(140));
    addSwatch(tr("Backward pass"), backward, backward.darker(140));
    addSwatch(tr("Idle (pipeline bubble)"), Qt::white, QColor(0x99, 0x99, 0x99));
    blocks_->removeFromLegend();
    // The legend sits in a row above the plot, left-aligned; the note takes the rest of the row,
    // right-aligned, in place of the empty element placeLegendAbove() puts there.
    placeLegendAbove();
    auto* row = qobject_cast<QCPLayoutGrid*>(plot_->plotLayout()->element(0, 0));
    note_ = new QCPTextElement(plot_, QString());
    note_->setTextFlags(Qt::AlignRight | Qt::AlignVCenter);
    note_->setTextColor(QColor(0x33, 0x33, 0x33));
    note_->setMargins(QMargins(6, 4, 10, 0));
    if (row && row->element(0, 1)) row->remove(row->element(0, 1));
    if (row) row->addElement(0, 1, note_);

    // The playhead: a line at its instant and a veil from there to the right edge.
    future_ = new QCPItemRect(plot_);
    future_->setPen(Qt::NoPen);
    future_->setBrush(QColor(255, 255, 255, 170));
    future_->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    future_->bottomRight->setType(QCPItemPosition::ptAxisRectRatio);
    future_->bottomRight->setCoords(1, 1);
    future_->setClipToAxisRect(true);
    playheadLine_ = new QCPItemStraightLine(plot_);
    playheadLine_->setPen(QPen(QColor(0xC6, 0x28, 0x28), 2));
    playheadLine_->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
    playheadLine_->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);
    for (QCPAbstractItem* item :
         {static_cast<QCPAbstractItem*>(future_), static_cast<QCPAbstractItem*>(playheadLine_)}) {
        item->setSelectable(false);
        item->setVisible(false);
    }

    message_ = addCentredMessage();
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    message_->setFont(big);

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    plot_->setMouseTracking(true);
    plot_->setFocusPolicy(Qt::StrongFocus);
    plot_->installEventFilter(this);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis})
        connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
                [this] { rangeChanged(); });
    clear(tr("No plan yet"));
}

PipelineChart::~PipelineChart() = default;

void PipelineChart::setTimeline(std::shared_ptr<const core::placement::PipelineTimeline> timeline,
                                std::vector<QString> stageLabels) {
    if (!timeline) {
        clear(tr("No timeline"));
        return;
    }
    timeline_ = std::move(timeline);
    stageLabels_ = std::move(stageLabels);
    blocks_->setTimeline(timeline_.get());
    // The default view: until stage 0 ends the backward pass of microbatch kDefaultBackwards.
    const double end = makespan(*timeline_);
    const int last = int(std::min<std::int64_t>(timeline_->microbatchCount(), kDefaultBackwards));
    defaultEndSeconds_ = end;
    for (const PipelineBlock& b : timeline_->stageBlocks(0))
        if (!b.forward && b.microbatch == last - 1) defaultEndSeconds_ = b.endSeconds;
    if (defaultEndSeconds_ > kWholeIfAbove * end) defaultEndSeconds_ = end;
    message_->setVisible(false);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(true);
    plot_->legend->setVisible(true);
    playhead_ = -1;
    future_->setVisible(false);
    playheadLine_->setVisible(false);
    showStart();
}

void PipelineChart::setPlayhead(double seconds) {
    playhead_ = timeline_ ? seconds : -1;
    const bool shown = playhead_ >= 0;
    future_->setVisible(shown);
    playheadLine_->setVisible(shown);
    if (shown) {
        future_->topLeft->setCoords(playhead_, 0);
        playheadLine_->point1->setCoords(playhead_, 0);
        playheadLine_->point2->setCoords(playhead_, 1);
        // Outside the view: pan so the playhead sits a third of the way in.
        const QCPRange x = plot_->xAxis->range();
        if (playhead_ < x.lower || playhead_ > x.upper)
            plot_->xAxis->setRange(playhead_ - x.size() / 3, playhead_ + 2 * x.size() / 3);
    }
    plot_->replot();
}

void PipelineChart::clear(const QString& reason) {
    playhead_ = -1;
    future_->setVisible(false);
    playheadLine_->setVisible(false);
    blocks_->setTimeline(nullptr);
    timeline_.reset();
    stageLabels_.clear();
    defaultEndSeconds_ = 0;
    setMessage(message_, reason);
    message_->setVisible(true);
    // Only the reason: empty axes and a legend would suggest there is something to read.
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(false);
    plot_->legend->setVisible(false);
    plot_->xAxis->setRange(0, 1);
    plot_->yAxis->setRange(-0.5, 0.5);
    note_->setText(QString());
    plot_->replot();
}

int PipelineChart::blockCount() const {
    return timeline_ ? int(timeline_->blocks().size()) : 0;
}

int PipelineChart::drawnRectangleCount() const {
    return blocks_->drawnRectangles();
}

int PipelineChart::drawnLabelCount() const {
    return blocks_->drawnLabels();
}

void PipelineChart::resetView() {
    if (!timeline_) return;
    const double end = makespan(*timeline_);
    showRange(-0.01 * end, 1.01 * end, 0, timeline_->stageCount() - 1);
}

void PipelineChart::showStart() {
    if (!timeline_) return;
    const double pad = 0.01 * defaultEndSeconds_;
    showRange(-pad, defaultEndSeconds_ + pad, 0, timeline_->stageCount() - 1);
}

void PipelineChart::showEnd() {
    if (!timeline_) return;
    const double end = makespan(*timeline_), pad = 0.01 * defaultEndSeconds_;
    showRange(end - defaultEndSeconds_ - pad, end + pad, 0, timeline_->stageCount() - 1);
}

void PipelineChart::showRange(double startSeconds, double endSeconds, int firstStage,
                              int lastStage) {
    plot_->xAxis->setRange(startSeconds, endSeconds);
    plot_->yAxis->setRange(firstStage - 0.5, lastStage + 0.5);
    plot_->replot();
}

void PipelineChart::showTimeRange(double startSeconds, double endSeconds) {
    const QCPRange x = plot_->xAxis->range();
    const double slack = 1e-9 * std::max(std::abs(x.upper), std::abs(x.lower));
    if (std::abs(x.lower - startSeconds) <= slack && std::abs(x.upper - endSeconds) <= slack)
        return;  // already there: no replot, and no echo back to a chart kept in step
    plot_->xAxis->setRange(startSeconds, endSeconds);
    plot_->replot();
}

double PipelineChart::viewStartSeconds() const {
    return plot_->xAxis->range().lower;
}

double PipelineChart::viewEndSeconds() const {
    return plot_->xAxis->range().upper;
}

QString PipelineChart::timeUnit() const {
    return ticker_->unit().name;
}

QString PipelineChart::viewNote() const {
    return note_->text();
}

QRectF PipelineChart::blockRect(int stage, int index) const {
    if (!timeline_ || stage < 0 || stage >= timeline_->stageCount()) return {};
    const auto blocks = timeline_->stageBlocks(stage);
    if (index < 0 || std::size_t(index) >= blocks.size()) return {};
    const auto& b = blocks[std::size_t(index)];
    const double h = PipelineBlocks::kHalfRow;
    return QRectF(QPointF(plot_->xAxis->coordToPixel(b.startSeconds),
                          plot_->yAxis->coordToPixel(stage - h)),
                  QPointF(plot_->xAxis->coordToPixel(b.endSeconds),
                          plot_->yAxis->coordToPixel(stage + h)))
        .normalized();
}

QPoint PipelineChart::blockCentre(int stage, int index) const {
    const QRectF rect = blockRect(stage, index);
    return rect.isNull() ? QPoint(-1, -1) : rect.center().toPoint();
}

void PipelineChart::clampRanges() {
    // Keep the view on the data: no panning into empty space, no zooming past a microsecond.
    const double end = makespan(*timeline_);
    QCPRange x = plot_->xAxis->range();
    const double minWidth = std::min(1e-6, end);
    if (x.size() < minWidth) x = QCPRange(x.center() - minWidth / 2, x.center() + minWidth / 2);
    plot_->xAxis->setRange(x.bounded(-0.05 * end, 1.05 * end));
    QCPRange y = plot_->yAxis->range();
    if (y.size() < 1) y = QCPRange(y.center() - 0.5, y.center() + 0.5);
    plot_->yAxis->setRange(y.bounded(-0.5, timeline_->stageCount() - 0.5));
}

void PipelineChart::rangeChanged() {
    if (!timeline_) return;
    clampRanges();
    const TimeAxisTicker::Unit unit = TimeAxisTicker::unitFor(plot_->xAxis->range().size());
    ticker_->setUnit(unit);
    plot_->xAxis->setLabel(tr("Time since the start of the batch (%1)").arg(unit.name));
    note_->setText(describeView());
    emit timeRangeChanged(plot_->xAxis->range().lower, plot_->xAxis->range().upper);
}

QString PipelineChart::describeView() const {
    const QCPRange x = plot_->xAxis->range();
    const double end = makespan(*timeline_);
    const auto m = timeline_->microbatchCount();
    if (x.lower <= 0 && x.upper >= end)
        return defaultEndSeconds_ < end ? tr("All %1 microbatches · Home: zoom to the start").arg(m)
                                        : QString();
    // Forward numbers ascend in a stage's execution order, and so do backward numbers: the
    // lowest and highest in view are among the first and last block of each pass in view.
    int lo = INT_MAX, hi = -1;
    const QCPRange y = plot_->yAxis->range();
    const int first = std::max(0, int(std::ceil(y.lower - PipelineBlocks::kHalfRow)));
    const int last =
        std::min(timeline_->stageCount() - 1, int(std::floor(y.upper + PipelineBlocks::kHalfRow)));
    for (int k = first; k <= last; ++k) {
        const auto blocks = timeline_->stageBlocks(k);
        const auto i0 = std::partition_point(blocks.begin(), blocks.end(),
                                             [&](const auto& b) { return b.endSeconds < x.lower; });
        const auto i1 = std::partition_point(
            i0, blocks.end(), [&](const auto& b) { return b.startSeconds <= x.upper; });
        for (bool forward : {true, false}) {
            auto a = std::find_if(i0, i1, [&](const auto& b) { return b.forward == forward; });
            if (a == i1) continue;
            auto z = std::find_if(std::make_reverse_iterator(i1), std::make_reverse_iterator(a),
                                  [&](const auto& b) { return b.forward == forward; });
            lo = std::min(lo, a->microbatch);
            hi = std::max(hi, z->microbatch);
        }
    }
    // Short: it shares its row with the legend, and neither may be cut.
    if (hi < 0) return tr("No microbatch in view · 0: the whole batch");
    const QString which = lo == hi ? tr("Microbatch %1").arg(lo + 1)
                                   : tr("Microbatches %1–%2").arg(lo + 1).arg(hi + 1);
    return tr("%1 of %2 · 0: all · Home / End: start / end").arg(which).arg(m);
}

QString PipelineChart::blockTextAt(const QPoint& position) const {
    if (!timeline_) return {};
    const double key = plot_->xAxis->pixelToCoord(position.x());
    const double value = plot_->yAxis->pixelToCoord(position.y());
    const int k = int(std::lround(value));
    if (k < 0 || k >= timeline_->stageCount() || std::abs(value - k) > PipelineBlocks::kHalfRow)
        return {};
    // Accept blocks within two pixels, so sub-pixel blocks can still be hovered.
    const double slack =
        2 * std::abs(plot_->xAxis->pixelToCoord(1) - plot_->xAxis->pixelToCoord(0));
    const auto blocks = timeline_->stageBlocks(k);
    auto it = std::partition_point(blocks.begin(), blocks.end(), [&](const PipelineBlock& b) {
        return b.endSeconds < key - slack;
    });
    if (it == blocks.end() || it->startSeconds > key + slack) {
        return tr("Stage %1: idle here (in the simulated batch this stage idles %2 % of the time)")
            .arg(k)
            .arg(qs(core::formatFixed(100 * timeline_->bubbleFraction(k), 1)));
    }
    const PipelineBlock& b = *it;
    QString stage = tr("Stage %1").arg(b.stage);
    if (std::size_t(b.stage) < stageLabels_.size())
        stage += QString(" (%1)").arg(stageLabels_[std::size_t(b.stage)]);
    const QString pass = b.forward ? tr("forward") : tr("backward");
    return tr("%1\nMicrobatch %2 of %3, %4 pass\nStart %5, duration %6, end %7")
        .arg(stage)
        .arg(b.microbatch + 1)
        .arg(timeline_->microbatchCount())
        .arg(timeline_->chunkCount() > 1 ? tr("model chunk %1 of %2, %3")
                                               .arg(b.chunk + 1)
                                               .arg(timeline_->chunkCount())
                                               .arg(pass)
                                         : pass)
        .arg(qs(core::formatSeconds(b.startSeconds)), qs(core::formatSeconds(b.durationSeconds())),
             qs(core::formatSeconds(b.endSeconds)));
}

bool PipelineChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched != plot_) return ChartWidget::eventFilter(watched, event);
    // Hover help: the block under the mouse, else how to navigate.
    if (const auto eaten = followToolTip(watched, event, [this](const QPoint& local) {
            const QString text = blockTextAt(local);
            return text.isEmpty() ? tr("Drag to pan, wheel to zoom; keys + / − zoom, ← / → pan, "
                                       "Home the start, End the end, 0 the whole batch.")
                                  : text;
        }))
        return *eaten;
    if (event->type() == QEvent::KeyPress && timeline_) {
        switch (static_cast<QKeyEvent*>(event)->key()) {
            case Qt::Key_0:
                resetView();
                return true;
            case Qt::Key_Home:
                showStart();
                return true;
            case Qt::Key_End:
                showEnd();
                return true;
            default:
                return navigate(static_cast<QKeyEvent*>(event)->key(), false);
        }
    }
    return false;
}

}  // namespace tandem::ui
