#include "ui/charts/memory_chart.h"

#include <qcustomplot.h>
#include <algorithm>
#include <cmath>

#include "core/common/units.h"
#include "core/placement/plan.h"

namespace tandem::ui {

namespace {

using core::placement::MemoryBreakdown;

constexpr double kGiB = double(std::int64_t(1) << 30);
constexpr double kBarWidth = 0.7;
const QColor kCapacity(0xC6, 0x28, 0x28);

struct Part {
    const char* name;
    QColor colour;
    double MemoryBreakdown::*bytes;
};

// Bottom to top: what every stage holds first, what depends on the microbatches in flight last.
const Part kParts[] = {
    {QT_TRANSLATE_NOOP("MemoryChart", "Weights"), QColor(0x4E, 0x79, 0xA7),
     &MemoryBreakdown::weightsBytes},
    {QT_TRANSLATE_NOOP("MemoryChart", "Gradients"), QColor(0xA0, 0xCB, 0xE8),
     &MemoryBreakdown::gradientsBytes},
    {QT_TRANSLATE_NOOP("MemoryChart", "Optimizer state"), QColor(0x59, 0xA1, 0x4F),
     &MemoryBreakdown::optimizerBytes},
    {QT_TRANSLATE_NOOP("MemoryChart", "Activations (one microbatch)"), QColor(0xF2, 0x8E, 0x2B),
     &MemoryBreakdown::activationsBytes},
    {QT_TRANSLATE_NOOP("MemoryChart", "Stash (in-flight microbatches)"), QColor(0xFF, 0xBE, 0x7D),
     &MemoryBreakdown::stashBytes},
};

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

}  // namespace

MemoryChart::MemoryChart(QWidget* parent) : ChartWidget(parent) {
    plot_->xAxis->setLabel(tr("Pipeline stage"));
    plot_->yAxis->setLabel(tr("Memory per device (GiB)"));
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setSubTicks(false);
    plot_->xAxis->grid()->setVisible(false);
    QCPBars* below = nullptr;
    for (const Part& part : kParts) {
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setName(tr(part.name));
        bars->setBrush(part.colour);
        bars->setPen(QPen(part.colour.darker(130), 0));
        bars->setWidth(kBarWidth);
        bars->setAntialiased(false);
        bars->setSelectable(QCP::stNone);
        if (below) bars->moveAbove(below);
        below = bars;
        parts_.push_back(bars);
    }
    capacity_ = plot_->addGraph();
    capacity_->setPen(QPen(kCapacity, 2, Qt::DashLine));
    capacity_->setSelectable(QCP::stNone);
    capacity_->setName(tr("HBM capacity"));

    // The legend sits in a row above the plot, left-aligned: an empty element beside it takes
    // the spare width.
    placeLegendAbove(2);

    message_ = addCentredMessage();

    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    clear(tr("No plan yet"));
}

MemoryChart::~MemoryChart() = default;

void MemoryChart::setPlan(std::shared_ptr<const core::placement::Plan> plan,
                          std::vector<QString> stageLayers) {
    if (!plan || plan->stages.empty()) {
        clear(tr("No plan"));
        return;
    }
    plan_ = std::move(plan);
    stageLayers_ = std::move(stageLayers);
    const int S = int(plan_->stages.size());
    double top = 0, capacity = 0;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
        QVector<double> keys, values;
        for (int k = 0; k < S; ++k) {
            keys << k;
            values << plan_->stages[std::size_t(k)].memory.*kParts[p].bytes / kGiB;
        }
        parts_[p]->setData(keys, values, true);
    }
    for (const auto& stage : plan_->stages) {
        top = std::max(top, stage.memory.totalBytes / kGiB);
        capacity = std::max(capacity, stage.memory.capacityBytes / kGiB);
    }
    capacity_->setData({-0.5, S - 0.5}, {capacity, capacity});
    capacity_->setName(tr("HBM capacity (%1)").arg(qs(core::formatBytes(capacity * kGiB))));
    capacity_->setVisible(true);
    message_->setVisible(false);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(true);
    plot_->legend->setVisible(true);
    plot_->xAxis->setRange(-0.6, S - 0.4);
    plot_->yAxis->setRange(0, std::max({top, capacity, 1e-9}) * 1.08);
    plot_->replot();
}

void MemoryChart::clear(const QString& reason) {
    plan_.reset();
    stageLayers_.clear();
    for (QCPBars* bars : parts_) bars->data()->clear();
    capacity_->data()->clear();
    capacity_->setName(tr("HBM capacity"));
    setMessage(message_, reason);
    message_->setVisible(true);
    // Only the reason: empty axes and a legend would suggest there is something to read.
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(false);
    plot_->legend->setVisible(false);
    plot_->xAxis->setRange(-0.5, 0.5);
    plot_->yAxis->setRange(0, 1);
    plot_->replot();
}

int MemoryChart::barCount() const {
    return parts_.front()->data()->size();
}

double MemoryChart::stackedGiB(int stage) const {
    double sum = 0;
    for (QCPBars* bars : parts_)
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            if (it->key == stage) sum += it->value;
    return sum;
}

double MemoryChart::capacityGiB() const {
    return capacity_->data()->isEmpty() ? 0 : capacity_->data()->constBegin()->value;
}

QPoint MemoryChart::barCentre(int stage) const {
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(stage))),
                  int(std::lround(plot_->yAxis->coordToPixel(stackedGiB(stage) / 2))));
}

QString MemoryChart::stageTextAt(const QPoint& position) const {
    if (!plan_) return {};
    const double key = plot_->xAxis->pixelToCoord(position.x());
    const int k = int(std::lround(key));
    if (k < 0 || k >= int(plan_->stages.size()) || std::abs(key - k) > kBarWidth / 2) return {};
    const auto& stage = plan_->stages[std::size_t(k)];
    const MemoryBreakdown& m = stage.memory;
    QString text = tr("Stage %1").arg(k);
    if (std::size_t(k) < stageLayers_.size()) text += " (" + stageLayers_[std::size_t(k)] + ")";
    text += tr(", %1 microbatches in flight%2")
                .arg(stage.inFlightMicrobatches)
                .arg(stage.recompute ? tr(", recomputes its forward pass") : QString());
    for (int p = int(std::size(kParts)) - 1; p >= 0; --p)
        text +=
            QString("\n%1: %2").arg(tr(kParts[p].name), qs(core::formatBytes(m.*kParts[p].bytes)));
    const double share = m.capacityBytes > 0 ? m.totalBytes / m.capacityBytes : 0;
    text += tr("\nTotal: %1 of %2 HBM (%3 %)")
                .arg(qs(core::formatBytes(m.totalBytes)), qs(core::formatBytes(m.capacityBytes)),
                     qs(core::formatFixed(100 * share, 1)));
    text += m.freeBytes >= 0 ? tr(", %1 free").arg(qs(core::formatBytes(m.freeBytes)))
                             : tr(", over by %1").arg(qs(core::formatBytes(-m.freeBytes)));
    return text;
}

bool MemoryChart::eventFilter(QObject* watched, QEvent* event) {
    if (const auto eaten = followToolTip(
            watched, event, [this](const QPoint& local) { return stageTextAt(local); }))
        return *eaten;
    return ChartWidget::eventFilter(watched, event);
}

}  // namespace tandem::ui
