#include "ui/charts/calibration_chart.h"

#include <qcustomplot.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/units.h"

namespace tandem::ui {

namespace cal = core::calibration;

namespace {

const QColor kStart(0xB0, 0xB0, 0xB0);
const QColor kInSample(0x4E, 0x79, 0xA7);
const QColor kOutOfSample(0xE1, 0x57, 0x59);
const QColor kDiagonal(0x33, 0x33, 0x33);
constexpr double kBand = 0.10;      // the ±10 % lines
constexpr double kHitPixels = 7.0;  // how near a hover must be to a point

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// Log ticks at 1, 2 and 5 × 10^k (only 10^k over a wide range), labelled as plain seconds, so
// an axis spanning 10 to 80 ms still reads 0.01, 0.02, 0.05.
class SecondsLogTicker : public QCPAxisTickerLog {
protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        QVector<double> ticks;
        if (!(range.lower > 0) || !(range.upper > range.lower)) return ticks;
        const int from = int(std::floor(std::log10(range.lower)));
        const int to = int(std::ceil(std::log10(range.upper)));
        const bool wide = to - from > 4;
        for (int k = from; k <= to; ++k)
            for (const double m : {1.0, 2.0, 5.0}) {
                if (wide && m != 1.0) continue;
                const double v = m * std::pow(10.0, k);
                if (v >= range.lower && v <= range.upper) ticks << v;
            }
        if (ticks.size() < 2) return QCPAxisTickerLog::createTickVector(tickStep, range);
        return ticks;
    }
    QVector<double> createSubTickVector(int, const QVector<double>&) override { return {}; }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return QString::number(tick, 'g', 3);
    }
};

QCPCurve* scatter(QCustomPlot* plot, const QColor& colour, double size, const QString& name) {
    auto* curve = new QCPCurve(plot->xAxis, plot->yAxis);
    curve->setLineStyle(QCPCurve::lsNone);
    curve->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, colour.darker(120), colour, size));
    curve->setName(name);
    curve->setSelectable(QCP::stNone);
    return curve;
}

QCPGraph* line(QCustomPlot* plot, const QPen& pen, const QString& name) {
    auto* graph = plot->addGraph();
    graph->setPen(pen);
    graph->setName(name);
    graph->setSelectable(QCP::stNone);
    return graph;
}

QString errorText(double error) {
    return qs((error >= 0 ? "+" : "") + core::formatFixed(100 * error, 1) + " %");
}

}  // namespace

CalibrationChart::CalibrationChart(QWidget* parent) : ChartWidget(parent) {
    plot_->xAxis->setLabel(tr("Measured iteration time (s)"));
    plot_->yAxis->setLabel(tr("Predicted iteration time (s)"));
    diagonal_ = line(plot_, QPen(kDiagonal, 1.2), tr("Predicted = measured"));
    bandAbove_ = line(plot_, QPen(kDiagonal, 1, Qt::DashLine), tr("±10 %"));
    bandBelow_ = line(plot_, QPen(kDiagonal, 1, Qt::DashLine), {});
    bandBelow_->removeFromLegend();
    start_ = scatter(plot_, kStart, 5, tr("Start (before the fit)"));
    inSample_ = scatter(plot_, kInSample, 6, tr("Fitted (in sample)"));
    outOfSample_ = scatter(plot_, kOutOfSample, 6, tr("Cross-validated (out of fold)"));
    placeLegendAbove(3);
    message_ = addCentredMessage();
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    applyScale();
    clear(tr("No calibration yet"));
}

CalibrationChart::~CalibrationChart() = default;

QCPCurve* CalibrationChart::curveOf(Series series) const {
    switch (series) {
        case Series::Start:
            return start_;
        case Series::InSample:
            return inSample_;
        case Series::OutOfSample:
            return outOfSample_;
    }
    return inSample_;
}

void CalibrationChart::setResult(const cal::CalibrationResult& r,
                                 const std::vector<core::validation::MeasuredRun>& runs) {
    dots_.clear();
    pointText_.clear();
    notDrawn_ = 0;
    const std::size_t n = std::min({runs.size(), r.startRuns.size(), r.validatedRuns.size()});
    const bool validated = !r.cancelled && r.validation != cal::ValidationKind::None;
    const auto outOfSample = [&](std::size_t i) {
        return validated && (r.validation == cal::ValidationKind::KFold ||
                             (i < r.training.size() && !r.training[i]));
    };
    const QString fittedName = r.validation == cal::ValidationKind::Holdout && validated
                                   ? tr("Fitted on (in sample)")
                                   : tr("Fitted (in sample)");
    const QString validatedName = r.validation == cal::ValidationKind::KFold
                                      ? tr("Cross-validated (out of fold)")
                                      : tr("Held out (out of sample)");
    for (const Series series : {Series::Start, Series::InSample, Series::OutOfSample}) {
        for (std::size_t i = 0; i < n; ++i) {
            const bool start = series == Series::Start;
            if (!start && (series == Series::OutOfSample) != outOfSample(i)) continue;
            const cal::RunOutcome& o = start ? r.startRuns[i] : r.validatedRuns[i];
            if (!o.fits || !(o.predictedSeconds > 0)) {
                if (!start) ++notDrawn_;
                continue;
            }
            const auto& run = runs[i];
            dots_.push_back({i, run.measuredSeconds, o.predictedSeconds, series});
            const QString kind = start                        ? tr("Start")
                                 : series == Series::InSample ? fittedName
                                                              : validatedName;
            pointText_.push_back(
                tr("%1 — %2 GPUs, P %3 · T %4 · D %5, batch %6\nMeasured %7\n%8 %9 (%10)")
                    .arg(qs(run.name))
                    .arg(run.gpus)
                    .arg(run.pipeline)
                    .arg(run.tensor)
                    .arg(run.data)
                    .arg(run.globalBatch)
                    .arg(qs(core::formatSeconds(run.measuredSeconds)), kind,
                         qs(core::formatSeconds(o.predictedSeconds)), errorText(o.error)));
        }
    }
    double low = std::numeric_limits<double>::infinity(), high = 0;
    for (const Series series : {Series::Start, Series::InSample, Series::OutOfSample}) {
        QVector<double> t, x, y;
        for (const Dot& d : dots_) {
            if (d.series != series) continue;
            t << double(t.size());
            x << d.measuredSeconds;
            y << d.predictedSeconds;
            low = std::min({low, d.measuredSeconds, d.predictedSeconds});
            high = std::max({high, d.measuredSeconds, d.predictedSeconds});
        }
        curveOf(series)->setData(t, x, y);
    }
    inSample_->setName(fittedName);
    outOfSample_->setName(validatedName);
    for (const Series series : {Series::Start, Series::InSample, Series::OutOfSample}) {
        QCPCurve* curve = curveOf(series);
        const bool shown = !curve->data()->isEmpty();
        curve->setVisible(shown);
        if (shown)
            curve->addToLegend();
        else
            curve->removeFromLegend();
    }
    if (dots_.empty()) {
        clear(tr("No run fits in HBM on this hardware: nothing to plot"));
        notDrawn_ = int(n);
        return;
    }
    low_ = low;
    high_ = high;
    message_->setVisible(false);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(true);
    plot_->legend->setVisible(true);
    applyScale();
}

void CalibrationChart::clear(const QString& reason) {
    dots_.clear();
    pointText_.clear();
    notDrawn_ = 0;
    for (QCPCurve* curve : {start_, inSample_, outOfSample_}) curve->data()->clear();
    setMessage(message_, reason);
    message_->setVisible(true);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(false);
    plot_->legend->setVisible(false);
    plot_->replot();
}

void CalibrationChart::setLogarithmic(bool logarithmic) {
    logarithmic_ = logarithmic;
    applyScale();
}

void CalibrationChart::applyScale() {
    // The same range on both axes, so the diagonal is the diagonal of the plot area.
    double lo = 0, hi = 0;
    if (logarithmic_) {
        lo = low_ / 1.25;
        hi = high_ * 1.25;
    } else {
        lo = 0;
        hi = high_ * 1.08;
    }
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(logarithmic_ ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        if (logarithmic_)
            axis->setTicker(QSharedPointer<SecondsLogTicker>::create());
        else
            axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis->setRange(lo, hi);
    }
    // Lines from far below to far above the range: straight in either scale.
    const double from = logarithmic_ ? lo / 100 : 0, to = hi * 100;
    diagonal_->setData({from, to}, {from, to}, true);
    bandAbove_->setData({from, to}, {from * (1 + kBand), to * (1 + kBand)}, true);
    bandBelow_->setData({from, to}, {from * (1 - kBand), to * (1 - kBand)}, true);
    plot_->replot();
}

std::vector<QPointF> CalibrationChart::drawnPoints(Series series) const {
    std::vector<QPointF> out;
    const QCPCurve* curve = curveOf(series);
    for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
        out.emplace_back(it->key, it->value);
    return out;
}

QString CalibrationChart::seriesName(Series series) const {
    const QCPCurve* curve = curveOf(series);
    return curve->visible() && !curve->data()->isEmpty() ? curve->name() : QString();
}

QPoint CalibrationChart::pixelOf(const Dot& dot) const {
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(dot.measuredSeconds))),
                  int(std::lround(plot_->yAxis->coordToPixel(dot.predictedSeconds))));
}

QString CalibrationChart::pointTextAt(const QPoint& position) const {
    // The nearest dot, fitted ones before the start's (drawn on top of them).
    double best = kHitPixels * kHitPixels;
    int found = -1;
    for (int i = int(dots_.size()) - 1; i >= 0; --i) {
        const QPoint p = pixelOf(dots_[std::size_t(i)]) - position;
        const double d = double(p.x()) * p.x() + double(p.y()) * p.y();
        if (d < best) {
            best = d;
            found = i;
        }
    }
    return found < 0 ? QString() : pointText_[std::size_t(found)];
}

bool CalibrationChart::eventFilter(QObject* watched, QEvent* event) {
    if (const auto eaten = followToolTip(
            watched, event, [this](const QPoint& local) { return pointTextAt(local); }))
        return *eaten;
    return ChartWidget::eventFilter(watched, event);
}

}  // namespace tandem::ui
