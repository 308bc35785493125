#include "ui/charts/roofline_chart.h"

#include <qcustomplot.h>
#include <algorithm>
#include <cmath>

#include "core/common/units.h"

namespace tandem::ui {

namespace {

using core::model::OpClass;

struct Series {
    const char* name;
    OpClass opClass;
    bool backward;
    QColor colour;
};

const Series kSeries[] = {
    {QT_TRANSLATE_NOOP("RooflineChart", "GEMM, forward"), OpClass::TensorCore, false,
     QColor(0x4E, 0x79, 0xA7)},
    {QT_TRANSLATE_NOOP("RooflineChart", "GEMM, backward"), OpClass::TensorCore, true,
     QColor(0x4E, 0x79, 0xA7)},
    {QT_TRANSLATE_NOOP("RooflineChart", "Fused GEMM, forward"), OpClass::Fused, false,
     QColor(0x59, 0xA1, 0x4F)},
    {QT_TRANSLATE_NOOP("RooflineChart", "Fused GEMM, backward"), OpClass::Fused, true,
     QColor(0x59, 0xA1, 0x4F)},
    {QT_TRANSLATE_NOOP("RooflineChart", "Vector, forward"), OpClass::VectorCore, false,
     QColor(0xF2, 0x8E, 0x2B)},
    {QT_TRANSLATE_NOOP("RooflineChart", "Vector, backward"), OpClass::VectorCore, true,
     QColor(0xF2, 0x8E, 0x2B)},
};

constexpr double kTera = 1e12;  // the y axis is in TFLOP/s
constexpr double kPickRadius = 8;
// An operator within this share of its roof is bound by that roof.
constexpr double kNearRoof = 0.5;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// What limits an operator: its roof when it comes close to it, else what the roofline leaves out
// (the vector cores' lanes for vector work; tiling and folds for a GEMM).
QString boundText(const core::estimate::Roofline& r, const core::estimate::RooflinePoint& p) {
    if (r.fractionOfRoof(p) >= kNearRoof)
        return r.memoryBound(p) ? RooflineChart::tr("memory-bound (HBM bandwidth limits it)")
                                : RooflineChart::tr("compute-bound (the tensor cores limit it)");
    if (p.opClass == OpClass::VectorCore)
        return RooflineChart::tr("under both roofs: the vector cores (lanes × clock) limit it");
    return RooflineChart::tr(
        "under both roofs: the array's tiling, folds or the global buffer limit it");
}

std::size_t seriesOf(const core::estimate::RooflinePoint& p) {
    for (std::size_t s = 0; s < std::size(kSeries); ++s)
        if (kSeries[s].opClass == p.opClass && kSeries[s].backward == p.backward) return s;
    return std::size(kSeries);
}

}  // namespace

RooflineChart::RooflineChart(QWidget* parent) : ChartWidget(parent) {
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        axis->setTicker(ticker);
        axis->setNumberFormat("g");
        axis->setNumberPrecision(6);
    }
    plot_->xAxis->setLabel(tr("Arithmetic intensity (FLOP per HBM byte)"));
    plot_->yAxis->setLabel(tr("Attained (TFLOP/s)"));
    plot_->plotLayout()->insertRow(0);
    title_ = new QCPTextElement(plot_, tr("Roofline"), QFont(font().family(), 10, QFont::Bold));
    plot_->plotLayout()->addElement(0, 0, title_);
    roof_ = plot_->addGraph();
    roof_->setPen(QPen(QColor(20, 20, 20), 2));
    roof_->setName(tr("Roofs: peak and HBM bandwidth"));
    roof_->setSelectable(QCP::stNone);
    for (const Series& s : kSeries) {
        QCPGraph* g = plot_->addGraph();
        g->setName(tr(s.name));
        g->setLineStyle(QCPGraph::lsNone);
        // Backward rings around forward discs: an operator's two passes often coincide.
        g->setScatterStyle(s.backward ? QCPScatterStyle(QCPScatterStyle::ssCircle,
                                                        QPen(s.colour, 1.6), Qt::NoBrush, 11)
                                      : QCPScatterStyle(QCPScatterStyle::ssDisc, s.colour, 7));
        g->setSelectable(QCP::stNone);
        classes_.push_back(g);
    }
    ridge_ = new QCPItemStraightLine(plot_);
    ridge_->setPen(QPen(QColor(0x80, 0x80, 0x80), 1, Qt::DashLine));
    ridgeLabel_ = new QCPItemText(plot_);
    ridgeLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    ridgeLabel_->setTextAlignment(Qt::AlignRight);
    ridgeLabel_->setColor(QColor(0x50, 0x50, 0x50));
    placeLegendAbove(4);
    message_ = addCentredMessage();
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    clear(tr("No layer estimated yet"));
}

RooflineChart::~RooflineChart() = default;

void RooflineChart::setRoofline(core::estimate::Roofline roofline, const QString& title) {
    if (!(roofline.peakFlopsPerSecond > 0) || !(roofline.bandwidthBytesPerSecond > 0)) {
        clear(tr("This chip has no compute or memory roof"));
        return;
    }
    roofline_ = std::move(roofline);
    const core::estimate::Roofline& r = *roofline_;
    double lo = r.ridgeIntensity, hi = r.ridgeIntensity, bottom = r.peakFlopsPerSecond;
    std::vector<QVector<double>> xs(classes_.size()), ys(classes_.size());
    for (const auto& p : r.points) {
        lo = std::min(lo, p.intensity);
        hi = std::max(hi, p.intensity);
        bottom = std::min(bottom, p.attainedFlopsPerSecond);
        const std::size_t s = seriesOf(p);
        if (s >= classes_.size()) continue;
        xs[s] << p.intensity;
        ys[s] << p.attainedFlopsPerSecond / kTera;
    }
    for (std::size_t s = 0; s < classes_.size(); ++s) classes_[s]->setData(xs[s], ys[s]);
    lo /= 4;
    hi *= 4;
    bottom = std::min(bottom, r.roofAt(lo)) / 2;
    roof_->setData({lo, r.ridgeIntensity, hi}, {r.roofAt(lo) / kTera, r.peakFlopsPerSecond / kTera,
                                                r.peakFlopsPerSecond / kTera});
    ridge_->point1->setCoords(r.ridgeIntensity, bottom / kTera);
    ridge_->point2->setCoords(r.ridgeIntensity, r.peakFlopsPerSecond / kTera);
    ridge_->setVisible(true);
    ridgeLabel_->position->setCoords(r.ridgeIntensity / 1.08, bottom / kTera * 1.3);
    ridgeLabel_->setText(tr("ridge: %1 FLOP/B\npeak %2, HBM %3")
                             .arg(qs(core::formatSignificant(r.ridgeIntensity)),
                                  qs(core::formatRate(r.peakFlopsPerSecond, "FLOP")),
                                  qs(core::formatRate(r.bandwidthBytesPerSecond, "B"))));
    ridgeLabel_->setVisible(true);
    title_->setText(title);
    message_->setVisible(r.points.empty());
    setMessage(message_, tr("No operator of this layer has both FLOPs and HBM bytes"));
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(true);
    plot_->legend->setVisible(true);
    plot_->xAxis->setRange(lo, hi);
    plot_->yAxis->setRange(bottom / kTera, r.peakFlopsPerSecond / kTera * 2);
    plot_->replot();
}

void RooflineChart::clear(const QString& reason) {
    roofline_.reset();
    roof_->data()->clear();
    for (QCPGraph* g : classes_) g->data()->clear();
    ridge_->setVisible(false);
    ridgeLabel_->setVisible(false);
    title_->setText(tr("Roofline"));
    setMessage(message_, reason);
    message_->setVisible(true);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setVisible(false);
    plot_->legend->setVisible(false);
    plot_->replot();
}

QString RooflineChart::titleText() const {
    return title_->text();
}

QPoint RooflineChart::pointPixel(std::size_t i) const {
    if (!roofline_ || i >= roofline_->points.size()) return {};
    const auto& p = roofline_->points[i];
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(p.intensity))),
                  int(std::lround(plot_->yAxis->coordToPixel(p.attainedFlopsPerSecond / kTera))));
}

std::optional<std::size_t> RooflineChart::pointAt(const QPoint& position) const {
    if (!roofline_) return std::nullopt;
    std::optional<std::size_t> best;
    double bestDistance = kPickRadius * kPickRadius;
    for (std::size_t i = 0; i < roofline_->points.size(); ++i) {
        const QPoint d = pointPixel(i) - position;
        const double distance = double(d.x()) * d.x() + double(d.y()) * d.y();
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
}

QString RooflineChart::pointTextAt(const QPoint& position) const {
    const auto i = pointAt(position);
    if (!i) return {};
    const core::estimate::Roofline& r = *roofline_;
    const auto& p = r.points[*i];
    const bool memory = r.memoryBound(p);
    return tr("%1 (%2, %3)\n%4, %5 of HBM traffic in %6\nIntensity %7 FLOP/B: %8 of the ridge\n"
              "Attained %9, %10 % of its roof: %11")
        .arg(qs(p.name), qs(std::string(core::model::toString(p.opClass))),
             p.backward ? tr("backward") : tr("forward"), qs(core::formatFlops(p.flops)),
             qs(core::formatBytes(p.bytes)), qs(core::formatSeconds(p.seconds)),
             qs(core::formatSignificant(p.intensity)), memory ? tr("left") : tr("right"))
        .arg(qs(core::formatRate(p.attainedFlopsPerSecond, "FLOP")),
             qs(core::formatFixed(100 * r.fractionOfRoof(p), 0)), boundText(r, p));
}

bool RooflineChart::eventFilter(QObject* watched, QEvent* event) {
    if (const auto eaten = followToolTip(
            watched, event, [this](const QPoint& local) { return pointTextAt(local); }))
        return *eaten;
    return ChartWidget::eventFilter(watched, event);
}

}  // namespace tandem::ui
