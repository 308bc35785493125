#include "ui/charts/pipeline_chart.h"

#include <qcustomplot.h>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "core/common/units.h"
#include "core/placement/pipeline_timeline.h"

namespace tandem::ui {

namespace {

using core::placement::PipelineBlock;
using core::placement::PipelineTimeline;

constexpr double kMs = 1e3;        // plot keys are milliseconds
constexpr double kHalfRow = 0.38;  // a stage row spans stage ± kHalfRow on the value axis
// Blocks narrower than this merge into runs: below ~3 px neither colour shading nor borders can
// be seen, and painting tens of thousands of 1–2 px rectangles is what makes zoomed-out replots
// slow.
constexpr double kMergeBelowPx = 3.0;
const QColor kForward(0x2F, 0x6D, 0xB5);   // blue
const QColor kBackward(0xE8, 0x7D, 0x12);  // orange: distinct from blue for colour-blind users

QColor blockColour(bool forward, int microbatch) {
    // Alternate shades tell neighbouring microbatches apart when blocks touch.
    const QColor base = forward ? kForward : kBackward;
    return microbatch % 2 ? base.lighter(118) : base;
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

}  // namespace

// Draws the blocks of the visible rows and time range; blocks narrower than kMergeBelowPx merge
// into runs (upper half forward colour, lower half backward colour when the run mixes both).
class PipelineChart::Blocks : public QCPAbstractPlottable {
public:
    Blocks(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis) {
        setSelectable(QCP::stNone);
        setAntialiased(false);
        setAntialiasedFill(false);
    }
    void setTimeline(const PipelineTimeline* timeline) { timeline_ = timeline; }
    int drawnRectangles() const { return drawn_; }

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override {
        found = timeline_ != nullptr;
        return found ? QCPRange(0, std::max(timeline_->makespanSeconds() * kMs, 1e-9)) : QCPRange();
    }
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override {
        found = timeline_ != nullptr;
        return found ? QCPRange(-0.5, timeline_->stageCount() - 0.5) : QCPRange();
    }

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}

private:
    struct Run {
        double x0 = 0, x1 = -1;
        bool forward = false, backward = false;
        bool active() const { return x1 >= x0; }
    };
    void flush(QCPPainter* painter, Run& run, double top, double height) const;

    const PipelineTimeline* timeline_ = nullptr;
    mutable int drawn_ = 0;  // rectangles filled by the last draw
};

void PipelineChart::Blocks::flush(QCPPainter* painter, Run& run, double top, double height) const {
    if (!run.active()) return;
    const double x = std::floor(run.x0);
    const double width = std::max(1.0, std::ceil(run.x1) - x);
    if (run.forward && run.backward) {
        painter->fillRect(QRectF(x, top, width, height / 2), kForward);
        painter->fillRect(QRectF(x, top + height / 2, width, height - height / 2), kBackward);
        drawn_ += 2;
    } else {
        painter->fillRect(QRectF(x, top, width, height), run.forward ? kForward : kBackward);
        ++drawn_;
    }
    run = Run{};
}

void PipelineChart::Blocks::draw(QCPPainter* painter) {
    drawn_ = 0;
    if (!timeline_) return;
    const QCPRange keys = mKeyAxis->range();
    const QCPRange values = mValueAxis->range();
    const int S = timeline_->stageCount();
    const int first = std::max(0, int(std::ceil(values.lower - kHalfRow)));
    const int last = std::min(S - 1, int(std::floor(values.upper + kHalfRow)));
    const QFontMetrics metrics(mParentPlot->font());
    painter->setFont(mParentPlot->font());
    double lastRowPixel = -1e9;
    for (int k = first; k <= last; ++k) {
        const double y0 = mValueAxis->coordToPixel(k - kHalfRow);
        const double y1 = mValueAxis->coordToPixel(k + kHalfRow);
        const double top = std::round(std::min(y0, y1));
        const double height = std::max(1.0, std::round(std::abs(y1 - y0)));
        if (height <= 1 && top == lastRowPixel) continue;  // rows thinner than a pixel overlap
        lastRowPixel = top;
        const auto blocks = timeline_->stageBlocks(k);
        // Blocks of a stage never overlap, so their ends ascend with their starts.
        auto it = std::partition_point(blocks.begin(), blocks.end(), [&](const PipelineBlock& b) {
            return b.endSeconds * kMs < keys.lower;
        });
        Run run;
        for (; it != blocks.end() && it->startSeconds * kMs <= keys.upper; ++it) {
            const double x0 = mKeyAxis->coordToPixel(it->startSeconds * kMs);
            const double x1 = mKeyAxis->coordToPixel(it->endSeconds * kMs);
            if (x1 - x0 < kMergeBelowPx) {
                if (run.active() && x0 > run.x1 + 1.0) flush(painter, run, top, height);
                if (!run.active()) run.x0 = x0;
                run.x1 = std::max(run.x1, x1);
                (it->forward ? run.forward : run.backward) = true;
                continue;
            }
            flush(painter, run, top, height);
            const QRectF rect(x0, top, x1 - x0, height);
            const QColor colour = blockColour(it->forward, it->microbatch);
            painter->fillRect(rect, colour);
            ++drawn_;
            if (rect.width() >= 5 && height >= 5) {
                painter->setPen(QPen(colour.darker(140), 0));
                painter->setBrush(Qt::NoBrush);
                painter->drawRect(rect.adjusted(0, 0, -1, -1));
            }
            const QString label = QString::number(it->microbatch);
            if (rect.width() >= metrics.horizontalAdvance(label) + 6 &&
                height >= metrics.height()) {
                painter->setPen(Qt::white);
                painter->drawText(rect, Qt::AlignCenter, label);
            }
        }
        flush(painter, run, top, height);
    }
}

PipelineChart::PipelineChart(QWidget* parent) : ChartWidget(parent) {
    blocks_ = new Blocks(plot_->xAxis, plot_->yAxis);
    blocks_->setName(tr("Pipeline blocks"));
    plot_->xAxis->setLabel(tr("Time since the start of the batch (ms)"));
    plot_->yAxis->setLabel(tr("Pipeline stage"));
    plot_->yAxis->setRangeReversed(true);
    plot_->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));  // "100,000 ms"
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot_->yAxis->setTicker(ticker);
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
    addSwatch(tr("Forward pass"), kForward, kForward.darker(140));
    addSwatch(tr("Backward pass"), kBackward, kBackward.darker(140));
    addSwatch(tr("Idle (pipeline bubble)"), Qt::white, QColor(0x99, 0x99, 0x99));
    blocks_->removeFromLegend();
    // The legend sits in a row above the plot, left-aligned: an empty element beside it takes
    // the spare width.
    placeLegendAbove();

    message_ = addCentredMessage();
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    message_->setFont(big);

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    plot_->setMouseTracking(true);
    plot_->setFocusPolicy(Qt::StrongFocus);
    plot_->installEventFilter(this);
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { clampRanges(); });
    connect(plot_->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { clampRanges(); });
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
    message_->setVisible(false);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(true);
    plot_->legend->setVisible(true);
    resetView();
}

void PipelineChart::clear(const QString& reason) {
    blocks_->setTimeline(nullptr);
    timeline_.reset();
    stageLabels_.clear();
    message_->setText(reason);
    message_->setVisible(true);
    // Only the reason: empty axes and a legend would suggest there is something to read.
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(false);
    plot_->legend->setVisible(false);
    plot_->xAxis->setRange(0, 1);
    plot_->yAxis->setRange(-0.5, 0.5);
    plot_->replot();
}

int PipelineChart::blockCount() const {
    return timeline_ ? int(timeline_->blocks().size()) : 0;
}

int PipelineChart::drawnRectangleCount() const {
    return blocks_->drawnRectangles();
}

void PipelineChart::resetView() {
    if (!timeline_) return;
    const double end = std::max(timeline_->makespanSeconds() * kMs, 1e-9);
    plot_->xAxis->setRange(-0.01 * end, 1.01 * end);
    plot_->yAxis->setRange(-0.5, timeline_->stageCount() - 0.5);
    plot_->replot();
}

void PipelineChart::showRange(double startSeconds, double endSeconds, int firstStage,
                              int lastStage) {
    plot_->xAxis->setRange(startSeconds * kMs, endSeconds * kMs);
    plot_->yAxis->setRange(firstStage - 0.5, lastStage + 0.5);
    plot_->replot();
}

QPoint PipelineChart::blockCentre(int stage, int index) const {
    if (!timeline_ || stage < 0 || stage >= timeline_->stageCount()) return {-1, -1};
    const auto blocks = timeline_->stageBlocks(stage);
    if (index < 0 || std::size_t(index) >= blocks.size()) return {-1, -1};
    const auto& b = blocks[std::size_t(index)];
    return QPoint(
        int(std::lround(plot_->xAxis->coordToPixel((b.startSeconds + b.endSeconds) / 2 * kMs))),
        int(std::lround(plot_->yAxis->coordToPixel(stage))));
}

void PipelineChart::clampRanges() {
    if (!timeline_) return;
    // Keep the view on the data: no panning into empty space, no zooming past one microsecond.
    const double end = std::max(timeline_->makespanSeconds() * kMs, 1e-9);
    QCPRange x = plot_->xAxis->range();
    const double minWidth = std::min(1e-3, end);
    if (x.size() < minWidth) x = QCPRange(x.center() - minWidth / 2, x.center() + minWidth / 2);
    plot_->xAxis->setRange(x.bounded(-0.05 * end, 1.05 * end));
    QCPRange y = plot_->yAxis->range();
    if (y.size() < 1) y = QCPRange(y.center() - 0.5, y.center() + 0.5);
    plot_->yAxis->setRange(y.bounded(-0.5, timeline_->stageCount() - 0.5));
}

QString PipelineChart::blockTextAt(const QPoint& position) const {
    if (!timeline_) return {};
    const double key = plot_->xAxis->pixelToCoord(position.x());
    const double value = plot_->yAxis->pixelToCoord(position.y());
    const int k = int(std::lround(value));
    if (k < 0 || k >= timeline_->stageCount() || std::abs(value - k) > kHalfRow) return {};
    // Accept blocks within two pixels, so sub-pixel blocks can still be hovered.
    const double slack =
        2 * std::abs(plot_->xAxis->pixelToCoord(1) - plot_->xAxis->pixelToCoord(0));
    const auto blocks = timeline_->stageBlocks(k);
    auto it = std::partition_point(blocks.begin(), blocks.end(), [&](const PipelineBlock& b) {
        return b.endSeconds * kMs < key - slack;
    });
    if (it == blocks.end() || it->startSeconds * kMs > key + slack) {
        const double idle = timeline_->bubbleFraction(k);
        return tr("Stage %1: idle here (bubble: %2 % of the batch)")
            .arg(k)
            .arg(qs(core::formatFixed(100 * idle, 1)));
    }
    const PipelineBlock& b = *it;
    QString stage = tr("Stage %1").arg(b.stage);
    if (std::size_t(b.stage) < stageLabels_.size())
        stage += QString(" (%1)").arg(stageLabels_[std::size_t(b.stage)]);
    return tr("%1\nMicrobatch %2, %3 pass\nStart %4, duration %5, end %6")
        .arg(stage)
        .arg(b.microbatch)
        .arg(b.forward ? tr("forward") : tr("backward"))
        .arg(qs(core::formatSeconds(b.startSeconds)), qs(core::formatSeconds(b.durationSeconds())),
             qs(core::formatSeconds(b.endSeconds)));
}

bool PipelineChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched != plot_) return ChartWidget::eventFilter(watched, event);
    if (event->type() == QEvent::ToolTip ||
        (event->type() == QEvent::MouseMove && QToolTip::isVisible())) {
        // Hover help: the block under the mouse, else how to navigate.
        const QPoint local = event->type() == QEvent::ToolTip
                                 ? static_cast<QHelpEvent*>(event)->pos()
                                 : static_cast<QMouseEvent*>(event)->position().toPoint();
        QString text = blockTextAt(local);
        if (text.isEmpty())
            text = tr("Drag to pan, wheel to zoom; keys + / − zoom, ← / → pan, Home shows all.");
        QToolTip::showText(plot_->mapToGlobal(local), text, plot_);
        return event->type() == QEvent::ToolTip;
    } else if (event->type() == QEvent::KeyPress && timeline_) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key != Qt::Key_Home) return navigate(key, false);
        resetView();
        return true;
    }
    return false;
}

}  // namespace tandem::ui
