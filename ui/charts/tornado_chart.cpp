#include "ui/charts/tornado_chart.h"

#include <qcustomplot.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/units.h"
#include "core/hardware/parameter_registry.h"

namespace tandem::ui {

namespace {

const QColor kLow(0x4E, 0x79, 0xA7);
const QColor kHigh(0xF2, 0x8E, 0x2B);
constexpr double kBarWidth = 0.38;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// The parameter's value as the registry shows it, with its unit.
QString valueText(const core::search::SensitivityEntry& e, double value) {
    const auto find = [&]() -> const core::hardware::ParameterSpec* {
        if (e.section == "cluster") {
            const auto* p = core::hardware::clusterParameters().find(e.key);
            return p ? &p->spec : nullptr;
        }
        const auto* p = core::hardware::acceleratorParameters().find(e.key);
        return p ? &p->spec : nullptr;
    };
    const auto* spec = find();
    const QString number = spec ? qs(spec->formatValue(value)) : QString::number(value);
    return e.unit.empty() ? number : number + " " + qs(e.unit);
}

}  // namespace

TornadoChart::TornadoChart(QWidget* parent) : ChartWidget(parent) {
    plot_->plotLayout()->insertRow(0);
    titleElement_ =
        new QCPTextElement(plot_, tr("Sensitivity"), QFont(font().family(), 10, QFont::Bold));
    plot_->plotLayout()->addElement(0, 0, titleElement_);
    low_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    high_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    for (auto [bars, colour] : {std::pair{low_, kLow}, std::pair{high_, kHigh}}) {
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(130), 0));
        bars->setWidth(kBarWidth);
        bars->setSelectable(QCP::stNone);
    }
    plot_->yAxis->setRangeReversed(true);  // the most influential on top
    plot_->yAxis->grid()->setVisible(false);
    plot_->xAxis->grid()->setZeroLinePen(QPen(QColor(40, 40, 40), 1.2));
    placeLegendAbove();
    message_ = addCentredMessage();
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    clear(tr("Press Analyse to measure what limits this point"));
}

TornadoChart::~TornadoChart() = default;

void TornadoChart::setResult(std::shared_ptr<const core::search::SensitivityResult> result,
                             const QString& title, int rows) {
    result_ = std::move(result);
    title_ = title;
    rows_ = rows;
    redraw();
}

void TornadoChart::setMetric(Metric metric) {
    metric_ = metric;
    if (result_) redraw();
}

void TornadoChart::clear(const QString& reason) {
    result_.reset();
    order_.clear();
    low_->data()->clear();
    high_->data()->clear();
    titleElement_->setText(tr("Sensitivity"));
    setMessage(message_, reason);
    message_->setVisible(true);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(false);
    plot_->legend->setVisible(false);
    plot_->replot();
}

const core::search::SensitivityEntry* TornadoChart::entryOfRow(int row) const {
    if (!result_ || row < 0 || row >= rowCount() || std::size_t(row) >= order_.size())
        return nullptr;
    return &result_->entries[order_[std::size_t(row)]];
}

int TornadoChart::rowCount() const {
    if (!result_) return 0;
    const int all = int(result_->entries.size());
    return rows_ > 0 ? std::min(rows_, all) : all;
}

QString TornadoChart::rowLabel(int row) const {
    const auto* e = entryOfRow(row);
    return e ? qs(e->label) : QString();
}

double TornadoChart::change(const core::search::SensitivityEntry& e, bool high) const {
    const auto& side = high ? e.high : e.low;
    if (!side.evaluated) return std::numeric_limits<double>::quiet_NaN();
    if (metric_ == Metric::Energy && !side.fits) return std::numeric_limits<double>::quiet_NaN();
    return 100 * (metric_ == Metric::Throughput ? e.throughputChange(side) : e.energyChange(side));
}

double TornadoChart::barPercent(int row, bool high) const {
    const auto* e = entryOfRow(row);
    return e ? change(*e, high) : std::numeric_limits<double>::quiet_NaN();
}

void TornadoChart::redraw() {
    if (!result_ || result_->entries.empty()) {
        clear(tr("No parameter was measured"));
        return;
    }
    order_.resize(result_->entries.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    const auto impact = [&](std::size_t i) {
        double most = 0;
        for (const bool high : {false, true})
            if (const double v = change(result_->entries[i], high); std::isfinite(v))
                most = std::max(most, std::abs(v));
        return most;
    };
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return impact(a) > impact(b); });
    const int n = rowCount();
    const double pct = 100 * result_->fraction;
    low_->setName(tr("parameter − %1 %").arg(pct, 0, 'f', 0));
    high_->setName(tr("parameter + %1 %").arg(pct, 0, 'f', 0));
    QVector<double> lowKeys, lowValues, highKeys, highValues;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double extent = 1;
    for (int row = 0; row < n; ++row) {
        ticker->addTick(row, rowLabel(row));
        for (const bool high : {false, true}) {
            const double v = barPercent(row, high);
            if (!std::isfinite(v)) continue;
            extent = std::max(extent, std::abs(v));
            (high ? highKeys : lowKeys) << row + (high ? kBarWidth / 2 : -kBarWidth / 2);
            (high ? highValues : lowValues) << v;
        }
    }
    low_->setData(lowKeys, lowValues);
    high_->setData(highKeys, highValues);
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(-0.7, n - 0.3);
    plot_->xAxis->setRange(-extent * 1.15, extent * 1.15);
    plot_->xAxis->setLabel(metric_ == Metric::Throughput ? tr("Change in throughput (%)")
                                                         : tr("Change in energy per sample (%)"));
    titleElement_->setText(title_);
    message_->setVisible(false);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(true);
    plot_->legend->setVisible(true);
    plot_->replot();
}

QString TornadoChart::titleText() const {
    return titleElement_->text();
}

QPoint TornadoChart::rowCentre(int row) const {
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(0))),
                  int(std::lround(plot_->yAxis->coordToPixel(row))));
}

QString TornadoChart::rowTextAt(const QPoint& position) const {
    if (!result_ || !plot_->axisRect()->rect().contains(position)) return {};
    const int row = int(std::lround(plot_->yAxis->pixelToCoord(position.y())));
    const auto* e = entryOfRow(row);
    if (!e) return {};
    QString text = tr("%1: %2 at this point").arg(qs(e->label), valueText(*e, e->base));
    for (const bool high : {false, true}) {
        const auto& side = high ? e->high : e->low;
        text += QStringLiteral("\n%1 %2: ").arg(high ? "+" : "−", valueText(*e, side.value));
        if (!side.evaluated) {
            text += tr("not evaluated (%1)").arg(qs(side.note.empty() ? "cancelled" : side.note));
        } else if (!side.fits) {
            text += tr("nothing fits (%1)").arg(qs(side.note));
        } else {
            text += tr("%1 (%2 %), %3 per sample (%4 %)")
                        .arg(qs(core::formatThroughput(side.throughputSamplesPerSecond)),
                             qs(core::formatFixed(100 * e->throughputChange(side), 1)),
                             qs(core::formatEnergy(side.joulesPerSample)),
                             qs(core::formatFixed(100 * e->energyChange(side), 1)));
        }
    }
    return text;
}

bool TornadoChart::eventFilter(QObject* watched, QEvent* event) {
    if (const auto eaten =
            followToolTip(watched, event, [this](const QPoint& local) { return rowTextAt(local); }))
        return *eaten;
    return ChartWidget::eventFilter(watched, event);
}

}  // namespace tandem::ui
