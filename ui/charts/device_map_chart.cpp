#include "ui/charts/device_map_chart.h"

#include <qcustomplot.h>
#include <QKeyEvent>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/common/units.h"
#include "core/placement/plan.h"
#include "ui/charts/device_map_layout.h"

namespace tandem::ui {

namespace {

using core::placement::Plan;

const QColor kIdle(0xD4, 0xD4, 0xD4);
const QColor kOutline(0x26, 0x26, 0x26);

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

}  // namespace

// Draws the visible cells; small cells merge into runs of one colour, outlines only when the
// tensor-parallel groups are big enough to see.
class DeviceMapChart::Cells : public QCPAbstractPlottable {
public:
    Cells(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis) {
        setSelectable(QCP::stNone);
        setAntialiased(false);
    }
    void setPlan(const Plan* plan) {
        plan_ = plan;
        layout_ = plan ? DeviceMapLayout::build(*plan) : DeviceMapLayout{};
    }
    const DeviceMapLayout& layout() const { return layout_; }
    int drawnRectangles() const { return drawn_; }

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override {
        found = plan_ != nullptr;
        return QCPRange(0, std::max(1, layout_.cols));
    }
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override {
        found = plan_ != nullptr;
        return QCPRange(0, std::max(1, layout_.rows));
    }

protected:
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}
    void draw(QCPPainter* painter) override {
        drawn_ = 0;
        if (!plan_ || layout_.cols == 0) return;
        const DeviceMapLayout& l = layout_;
        const QCPRange keys = mKeyAxis->range(), values = mValueAxis->range();
        const int c0 = std::clamp(int(std::floor(keys.lower)), 0, l.cols - 1);
        const int c1 = std::clamp(int(std::ceil(keys.upper)), 0, l.cols);
        const int r0 = std::clamp(int(std::floor(values.lower)), 0, l.rows - 1);
        const int r1 = std::clamp(int(std::ceil(values.upper)), 0, l.rows);
        const double cellW = std::abs(mKeyAxis->coordToPixel(1) - mKeyAxis->coordToPixel(0));
        const double cellH = std::abs(mValueAxis->coordToPixel(1) - mValueAxis->coordToPixel(0));
        const bool separate = cellW >= 5 && cellH >= 5;  // room for a 1 px gap between cells
        auto x = [&](int col) { return std::round(mKeyAxis->coordToPixel(col)); };
        double lastTop = -1e9;
        for (int row = r0; row < r1; ++row) {
            const double ya = std::round(mValueAxis->coordToPixel(row));
            const double yb = std::round(mValueAxis->coordToPixel(row + 1));
            const double top = std::min(ya, yb), height = std::max(1.0, std::abs(yb - ya));
            if (std::abs(yb - ya) < 1 && top == lastTop) continue;  // sub-pixel rows overlap
            lastTop = top;
            const int* cells = l.grid.data() + std::size_t(row) * std::size_t(l.cols);
            int runStart = c0, runClass = -3;
            auto classOf = [&](int col) {
                const int id = cells[col];
                return id < 0 ? -3
                              : (plan_->devices[std::size_t(id)].idle()
                                     ? -2
                                     : plan_->devices[std::size_t(id)].stage);
            };
            auto flush = [&](int end) {
                if (runClass == -3 || end <= runStart) return;
                const QColor colour = runClass == -2 ? kIdle : stageColour(runClass);
                const double left = x(runStart), right = std::max(left + 1, x(end));
                painter->fillRect(QRectF(left, top, right - left, height), colour);
                ++drawn_;
            };
            for (int col = c0; col < c1; ++col) {
                const int cls = classOf(col);
                if (separate) {
                    if (cls == -3) continue;
                    const double left = x(col), right = x(col + 1);
                    painter->fillRect(QRectF(left + 1, top + 1, right - left - 1, height - 1),
                                      cls == -2 ? kIdle : stageColour(cls));
                    ++drawn_;
                    continue;
                }
                if (cls != runClass) {
                    flush(col);
                    runStart = col, runClass = cls;
                }
            }
            if (!separate) flush(c1);
            drawOutlines(painter, row, top, height, cellW, c0, c1);
        }
    }

private:
    void drawOutlines(QCPPainter* painter, int row, double top, double height, double cellW, int c0,
                      int c1) const {
        const DeviceMapLayout& l = layout_;
        const int stage = l.rowStage[std::size_t(row)];
        if (stage < 0 || cellW * (l.block - 1) < 6 || height < 4) return;
        const int width = int(plan_->stages[std::size_t(stage)].devices);
        const int line = row / (l.stages + 1);
        const int replicas = std::min(l.perLine, int(plan_->dataParallel) - line * l.perLine);
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(kOutline, cellW >= 12 && height >= 12 ? 2 : 1));
        for (int r = std::max(0, c0 / l.block); r < replicas && r * l.block < c1; ++r) {
            const double left = std::round(mKeyAxis->coordToPixel(r * l.block));
            const double right = std::round(mKeyAxis->coordToPixel(r * l.block + width));
            painter->drawRect(QRectF(left, top, right - left, height));
        }
    }

    const Plan* plan_ = nullptr;
    DeviceMapLayout layout_;
    int drawn_ = 0;  // cell rectangles filled by the last draw
};

QColor DeviceMapChart::stageColour(int stage) {
    // A qualitative palette without grey (grey means idle); adjacent stages always differ.
    static const QColor palette[] = {
        QColor(0x4E, 0x79, 0xA7), QColor(0xF2, 0x8E, 0x2B), QColor(0xE1, 0x57, 0x59),
        QColor(0x76, 0xB7, 0xB2), QColor(0x59, 0xA1, 0x4F), QColor(0xED, 0xC9, 0x48),
        QColor(0xB0, 0x7A, 0xA1), QColor(0xFF, 0x9D, 0xA7), QColor(0x9C, 0x75, 0x5F),
        QColor(0xA0, 0xCB, 0xE8), QColor(0xFF, 0xBE, 0x7D), QColor(0x8C, 0xD1, 0x7D)};
    constexpr int n = int(sizeof(palette) / sizeof(palette[0]));
    return palette[((stage % n) + n) % n];
}

DeviceMapChart::DeviceMapChart(QWidget* parent) : ChartWidget(parent) {
    cells_ = new Cells(plot_->xAxis, plot_->yAxis);
    cells_->setName(tr("Devices"));
    cells_->removeFromLegend();
    plot_->yAxis->setRangeReversed(true);
    plot_->xAxis->setLabel(tr("Data-parallel replica (tensor-parallel ranks side by side)"));
    plot_->yAxis->setLabel(tr("Pipeline stage"));
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
        axis->setTickLength(0, 3);
        axis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    }
    // The legend sits in a row above the map, left-aligned: an empty element beside it takes
    // the spare width.
    placeLegendAbove(2);

    message_ = addCentredMessage();

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setMouseTracking(true);
    plot_->setFocusPolicy(Qt::StrongFocus);
    plot_->installEventFilter(this);
    // Which labels fit depends on the laid-out size: re-label after each layout, and replot once
    // more when that changed them.
    connect(plot_, &QCustomPlot::afterLayout, this, [this] {
        if (updateTicks()) plot_->replot(QCustomPlot::rpQueuedReplot);
    });
    clear(tr("No plan yet"));
}

DeviceMapChart::~DeviceMapChart() = default;

void DeviceMapChart::setPlan(std::shared_ptr<const core::placement::Plan> plan,
                             std::vector<QString> stageLayers) {
    if (!plan) {
        clear(tr("No plan"));
        return;
    }
    plan_ = std::move(plan);
    stageLayers_ = std::move(stageLayers);
    cells_->setPlan(plan_.get());
    message_->setVisible(false);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(true);
    plot_->legend->setVisible(true);
    rebuildLegend();
    tickKey_ = {};
    resetView();
}

void DeviceMapChart::resetView() {
    const DeviceMapLayout& l = cells_->layout();
    plot_->xAxis->setRange(0, std::max(1, l.cols));
    plot_->yAxis->setRange(0, std::max(1, l.rows));
    updateTicks();
    plot_->replot();
}

void DeviceMapChart::clear(const QString& reason) {
    plan_.reset();
    stageLayers_.clear();
    cells_->setPlan(nullptr);
    setMessage(message_, reason);
    message_->setVisible(true);
    // Only the reason: empty axes and a legend would suggest there is something to read.
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(false);
    plot_->legend->setVisible(false);
    rebuildLegend();
    tickKey_ = {};
    updateTicks();
    plot_->replot();
}

int DeviceMapChart::cellCount() const {
    return plan_ ? int(plan_->devices.size()) : 0;
}

int DeviceMapChart::drawnRectangleCount() const {
    return cells_->drawnRectangles();
}

void DeviceMapChart::rebuildLegend() {
    for (int i = plot_->plottableCount() - 1; i >= 0; --i)
        if (plot_->plottable(i) != cells_) plot_->removePlottable(i);
    if (!plan_) return;
    auto swatch = [this](const QString& name, const QBrush& fill, const QPen& pen) {
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setName(name);
        bars->setBrush(fill);
        bars->setPen(pen);
        bars->setSelectable(QCP::stNone);
    };
    const int S = int(plan_->stages.size());
    if (S <= 4) {
        for (int k = 0; k < S; ++k) swatch(tr("Stage %1").arg(k), stageColour(k), Qt::NoPen);
    } else {
        // Rows are labelled with their stage, so one striped swatch explains the colours.
        QLinearGradient stripes(0, 0, 1, 0);
        stripes.setCoordinateMode(QGradient::ObjectBoundingMode);
        const int n = std::min(S, 6);
        for (int k = 0; k < n; ++k) {
            stripes.setColorAt(double(k) / n, stageColour(k));
            stripes.setColorAt((k + 1.0) / n - 1e-6, stageColour(k));
        }
        swatch(tr("Pipeline stage (row labels; %1 stages)").arg(S), QBrush(stripes), Qt::NoPen);
    }
    if (std::any_of(plan_->devices.begin(), plan_->devices.end(),
                    [](const auto& a) { return a.idle(); }))
        swatch(tr("Idle device"), kIdle, Qt::NoPen);
    swatch(tr("Tensor-parallel group (t = %1)").arg(plan_->tensorParallel), Qt::white,
           QPen(kOutline, 2));
}

bool DeviceMapChart::updateTicks() {
    auto xTicker = plot_->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    auto yTicker = plot_->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!xTicker || !yTicker) return false;
    const DeviceMapLayout& l = cells_->layout();
    // Label every n-th block or row so labels never overlap (about 44 px and 16 px apart).
    const double blockPx = l.block * plot_->axisRect()->width() / plot_->xAxis->range().size();
    const double rowPx = plot_->axisRect()->height() / plot_->yAxis->range().size();
    const int xStride = std::max(1, int(std::ceil(44 / std::max(blockPx, 1e-9))));
    const int yStride = std::max(1, int(std::ceil(16 / std::max(rowPx, 1e-9))));
    const auto key = std::make_tuple(plan_.get(), xStride, yStride);
    if (key == tickKey_) return false;
    tickKey_ = key;
    xTicker->clear();
    yTicker->clear();
    if (!plan_) return true;
    for (int r = 0; r < l.perLine && l.lines > 0; r += xStride)
        xTicker->addTick(r * l.block + (l.block - 1) / 2.0,
                         l.lines > 1 ? QString("+%1").arg(r) : QString("r%1").arg(r));
    for (int row = 0; row < l.rows; ++row) {
        const int stage = l.rowStage[std::size_t(row)];
        if (stage == -2) {
            if (row == 0 || l.rowStage[std::size_t(row - 1)] != -2)
                yTicker->addTick(row + 0.5, tr("idle"));
        } else if (stage >= 0 && stage % yStride == 0) {
            const int line = row / (l.stages + 1);
            const QString text = l.lines > 1 && stage == 0
                                     ? tr("r%1+ stage 0").arg(line * l.perLine)
                                     : tr("stage %1").arg(stage);
            yTicker->addTick(row + 0.5, text);
        }
    }
    return true;
}

int DeviceMapChart::deviceAt(const QPoint& position) const {
    if (!plan_) return -1;
    const DeviceMapLayout& l = cells_->layout();
    const double col = plot_->xAxis->pixelToCoord(position.x());
    const double row = plot_->yAxis->pixelToCoord(position.y());
    if (col < 0 || row < 0 || col >= l.cols || row >= l.rows) return -1;
    return l.grid[std::size_t(int(row)) * std::size_t(l.cols) + std::size_t(int(col))];
}

QPoint DeviceMapChart::cellCentre(int device) const {
    if (!plan_ || device < 0 || device >= cellCount()) return {-1, -1};
    const DeviceMapLayout& l = cells_->layout();
    const int cell = l.cellOf[std::size_t(device)];
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(cell % l.cols + 0.5))),
                  int(std::lround(plot_->yAxis->coordToPixel(cell / l.cols + 0.5))));
}

QString DeviceMapChart::deviceTextAt(const QPoint& position) const {
    const int id = deviceAt(position);
    if (id < 0) return {};
    const auto& a = plan_->devices[std::size_t(id)];
    if (a.idle() || std::size_t(a.stage) >= plan_->stages.size())
        return tr("Device %1: idle (this plan uses %2 of %3 devices)")
            .arg(id)
            .arg(plan_->devicesUsed)
            .arg(plan_->devices.size());
    const auto& stage = plan_->stages[std::size_t(a.stage)];
    const auto& memory = stage.memory;
    QString layers = std::size_t(a.stage) < stageLayers_.size()
                         ? stageLayers_[std::size_t(a.stage)]
                         : tr("%1 layers").arg(stage.layers.size());
    const double share = memory.capacityBytes > 0 ? memory.totalBytes / memory.capacityBytes : 0;
    return tr("Device %1\nReplica %2 of %3, stage %4 of %5, tensor-parallel rank %6 of %7\n"
              "Layers: %8\nMemory: %9 of %10 HBM (%11 %)")
        .arg(id)
        .arg(a.replica)
        .arg(plan_->dataParallel)
        .arg(a.stage)
        .arg(plan_->stages.size())
        .arg(a.tensorRank)
        .arg(stage.devices)
        .arg(layers)
        .arg(qs(core::formatBytes(memory.totalBytes)), qs(core::formatBytes(memory.capacityBytes)),
             qs(core::formatFixed(100 * share, 1)));
}

bool DeviceMapChart::eventFilter(QObject* watched, QEvent* event) {
    if (const auto eaten = followToolTip(watched, event, [this](const QPoint& local) {
            const QString text = deviceTextAt(local);
            return text.isEmpty() && plan_ ? tr("Drag to pan, wheel to zoom; keys + / − zoom, "
                                                "arrows pan, Home shows all.")
                                           : text;
        }))
        return *eaten;
    if (watched == plot_ && event->type() == QEvent::KeyPress && plan_) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key != Qt::Key_Home) return navigate(key, true);
        resetView();
        return true;
    }
    return ChartWidget::eventFilter(watched, event);
}

}  // namespace tandem::ui
