#include "ui/charts/scaling_chart.h"

#include <qcustomplot.h>
#include <cmath>
#include <limits>

#include "core/common/units.h"

namespace tandem::ui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPickRadius = 10;
QString qs(const std::string& text) {
    return QString::fromStdString(text);
}
}  // namespace

ScalingChart::ScalingChart(QWidget* parent) : ChartWidget(parent) {
    plot_->plotLayout()->insertRow(0);
    titleElement_ =
        new QCPTextElement(plot_, tr("Scaling"), QFont(font().family(), 10, QFont::Bold));
    plot_->plotLayout()->addElement(0, 0, titleElement_);
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(2);
    ticker->setSubTickCount(0);
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setNumberFormat("f");
    plot_->xAxis->setNumberPrecision(0);
    plot_->xAxis->setLabel(tr("Devices in the cluster"));
    measured_ = plot_->addGraph();
    measured_->setPen(QPen(QColor(0x4E, 0x79, 0xA7), 2.2));
    measured_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 8));
    ideal_ = plot_->addGraph();
    ideal_->setPen(QPen(QColor(0x80, 0x80, 0x80), 1.4, Qt::DashLine));
    ideal_->setName(tr("Linear scaling from the set-up's size"));
    unfit_ = plot_->addGraph();
    unfit_->setLineStyle(QCPGraph::lsNone);
    unfit_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QColor(0x90, 0x90, 0x90), 9));
    unfit_->setName(tr("Nothing fits"));
    for (QCPGraph* g : {measured_, ideal_, unfit_}) g->setSelectable(QCP::stNone);
    placeLegendAbove();
    message_ = addCentredMessage();
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    clear(tr("Press Analyse to place this set-up on clusters of other sizes"));
}

ScalingChart::~ScalingChart() = default;

void ScalingChart::setResult(std::shared_ptr<const core::search::ScalingResult> result,
                             const QString& title, double tokensPerSample) {
    result_ = std::move(result);
    title_ = title;
    tokensPerSample_ = tokensPerSample;
    redraw();
}

void ScalingChart::setMetric(Metric metric) {
    metric_ = metric;
    if (result_) redraw();
}

void ScalingChart::setTokenBudget(double tokens) {
    tokens_ = tokens;
    if (result_ && metric_ == Metric::DaysToTrain) redraw();
}

void ScalingChart::clear(const QString& reason) {
    result_.reset();
    for (QCPGraph* g : {measured_, ideal_, unfit_}) g->data()->clear();
    titleElement_->setText(tr("Scaling"));
    setMessage(message_, reason);
    message_->setVisible(true);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(false);
    plot_->legend->setVisible(false);
    plot_->replot();
}

double ScalingChart::valueOf(const core::search::ScalingPoint& p) const {
    if (!p.fits) return kNaN;
    switch (metric_) {
        case Metric::Throughput:
            return p.throughputSamplesPerSecond;
        case Metric::Mfu:
            return 100 * p.mfu;
        case Metric::DaysToTrain: {
            const double tokensPerIteration = double(p.globalBatch) * tokensPerSample_;
            if (!(tokensPerIteration > 0)) return kNaN;
            return tokens_ / tokensPerIteration * p.timePerBatchSeconds / 86400;
        }
    }
    return kNaN;
}

double ScalingChart::value(std::size_t i) const {
    return result_ && i < result_->points.size() ? valueOf(result_->points[i]) : kNaN;
}

double ScalingChart::idealValue(std::size_t i) const {
    if (!result_ || i >= result_->points.size() || metric_ != Metric::Throughput) return kNaN;
    for (const auto& base : result_->points)
        if (base.devices == result_->baseDevices && base.fits)
            return base.throughputSamplesPerSecond * double(result_->points[i].devices) /
                   double(base.devices);
    return kNaN;
}

void ScalingChart::redraw() {
    if (!result_ || result_->points.empty()) {
        clear(tr("No size was placed"));
        return;
    }
    // Log-log for throughput and days (linear scaling is then a straight line), linear for MFU.
    const bool logarithmic = metric_ != Metric::Mfu;
    QVector<double> xs, ys, idealX, idealY, unfitX, unfitY;
    double top = 0, bottom = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < result_->points.size(); ++i) {
        const double v = value(i);
        if (std::isfinite(v) && v > 0) {
            top = std::max(top, v);
            bottom = std::min(bottom, v);
        }
    }
    if (!std::isfinite(bottom)) bottom = 1;
    const double floor = logarithmic ? bottom / 2 : 0.0;  // where sizes that do not fit sit
    for (std::size_t i = 0; i < result_->points.size(); ++i) {
        const auto& p = result_->points[i];
        const double v = value(i);
        if (std::isfinite(v)) {
            xs << double(p.devices);
            ys << v;
        } else if (p.evaluated) {
            unfitX << double(p.devices);
            unfitY << floor;
        }
        if (const double ideal = idealValue(i); std::isfinite(ideal)) {
            idealX << double(p.devices);
            idealY << ideal;
        }
    }
    if (logarithmic) {
        plot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
        plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        plot_->yAxis->setNumberFormat("g");
    } else {
        plot_->yAxis->setScaleType(QCPAxis::stLinear);
        plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    measured_->setData(xs, ys);
    ideal_->setData(idealX, idealY);
    ideal_->setVisible(!idealX.isEmpty());
    unfit_->setData(unfitX, unfitY);
    const bool strong = result_->mode == core::search::ScalingMode::Strong;
    measured_->setName(strong ? tr("Strong scaling (global batch %1)")
                                    .arg(qs(core::formatCount(double(result_->baseGlobalBatch))))
                              : tr("Weak scaling (batch grows with the devices)"));
    switch (metric_) {
        case Metric::Throughput:
            plot_->yAxis->setLabel(tr("Throughput (samples/s)"));
            break;
        case Metric::Mfu:
            plot_->yAxis->setLabel(tr("Model FLOPs utilisation (%)"));
            break;
        case Metric::DaysToTrain:
            plot_->yAxis->setLabel(
                tr("Days to train on %1 tokens").arg(qs(core::formatCount(tokens_))));
            break;
    }
    const double first = double(result_->points.front().devices);
    const double last = double(result_->points.back().devices);
    plot_->xAxis->setRange(first / 1.4, last * 1.4);
    if (logarithmic)
        plot_->yAxis->setRange(floor / 1.5, std::max(top, bottom) * 2);
    else
        plot_->yAxis->setRange(0, std::max(top, 1e-9) * 1.12);
    titleElement_->setText(title_);
    message_->setVisible(xs.isEmpty());
    setMessage(message_, tr("Nothing fits at any of these sizes"));
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(true);
    plot_->legend->setVisible(true);
    plot_->replot();
}

QString ScalingChart::titleText() const {
    return titleElement_->text();
}

QPoint ScalingChart::pointPixel(std::size_t i) const {
    if (!result_ || i >= result_->points.size()) return {};
    const double v = value(i);
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(double(result_->points[i].devices)))),
                  int(std::lround(plot_->yAxis->coordToPixel(std::isfinite(v) ? v : 0.0))));
}

QString ScalingChart::pointTextAt(const QPoint& position) const {
    if (!result_) return {};
    for (std::size_t i = 0; i < result_->points.size(); ++i) {
        const QPoint d = pointPixel(i) - position;
        if (double(d.x()) * d.x() + double(d.y()) * d.y() > kPickRadius * kPickRadius) continue;
        const auto& p = result_->points[i];
        QString text = tr("%1 devices, global batch %2")
                           .arg(qs(core::formatCount(double(p.devices))),
                                qs(core::formatCount(double(p.globalBatch))));
        if (!p.evaluated)
            return text + tr("\nnot placed (%1)").arg(qs(p.note.empty() ? "stopped" : p.note));
        if (!p.fits) return text + tr("\nnothing fits: %1").arg(qs(p.note));
        text += tr("\nt %1, d %2, %3 stages on %4 devices in use")
                    .arg(p.tensorParallel)
                    .arg(p.dataParallel)
                    .arg(p.stages)
                    .arg(qs(core::formatCount(double(p.devicesUsed))));
        text += tr("\n%1 · %2 per batch · MFU %3 %")
                    .arg(qs(core::formatThroughput(p.throughputSamplesPerSecond)),
                         qs(core::formatSeconds(p.timePerBatchSeconds)),
                         qs(core::formatFixed(100 * p.mfu, 1)));
        if (tokensPerSample_ > 0)
            text += tr("\n%1 days to train on %2 tokens")
                        .arg(qs(core::formatSignificant(tokens_ /
                                                        (double(p.globalBatch) * tokensPerSample_) *
                                                        p.timePerBatchSeconds / 86400)),
                             qs(core::formatCount(tokens_)));
        if (const double e = result_->efficiency(p); e > 0)
            text +=
                tr("\nscaling efficiency %1 % of linear").arg(qs(core::formatFixed(100 * e, 0)));
        return text;
    }
    return {};
}

bool ScalingChart::eventFilter(QObject* watched, QEvent* event) {
    if (const auto eaten = followToolTip(
            watched, event, [this](const QPoint& local) { return pointTextAt(local); }))
        return *eaten;
    return ChartWidget::eventFilter(watched, event);
}

}  // namespace tandem::ui
