#include "ui/charts/design_space_marks.h"

#include <qcustomplot.h>
#include <cmath>

#include "core/common/units.h"

namespace tandem::ui {

namespace {
QPainterPath starPath() {
    QPainterPath path;
    for (int i = 0; i < 10; ++i) {
        // QCustomPlot scales custom shapes by size / 6, so an outer radius of 3 spans the size.
        const double radius = (i % 2 == 0) ? 3.0 : 1.25;
        const double angle = M_PI / 2 + i * M_PI / 5;
        const QPointF p(radius * std::cos(angle), -radius * std::sin(angle));
        if (i == 0)
            path.moveTo(p);
        else
            path.lineTo(p);
    }
    path.closeSubpath();
    return path;
}

QCPGraph* markGraph(QCustomPlot* plot, const QString& layer, const QCPScatterStyle& style) {
    auto* graph = plot->addGraph();
    graph->setLayer(layer);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    graph->setSelectable(QCP::stNone);
    return graph;
}

QString count(std::int64_t n) {
    return QString::fromStdString(core::formatCount(double(n)));
}
}  // namespace

DesignSpaceMarks::DesignSpaceMarks(QCustomPlot* plot) : plot_(plot) {
    const QString markers = QStringLiteral("markers");
    plot_->addLayer(markers, plot_->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    infeasible_ = markGraph(plot_, QStringLiteral("main"),
                            QCPScatterStyle(QCPScatterStyle::ssCross, QColor(150, 150, 150), 6));
    front_ = markGraph(
        plot_, markers,
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.2), QBrush(Qt::white), 5));
    front_->setLineStyle(QCPGraph::lsStepLeft);
    front_->setPen(QPen(QColor(20, 20, 20), 1.8));
    reference_ = markGraph(plot_, markers,
                           QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.2),
                                           QBrush(QColor(255, 127, 14)), 13));
    best_ = markGraph(plot_, markers,
                      QCPScatterStyle(starPath(), QPen(Qt::black, 0.4), QBrush(QColor(255, 205, 0)),
                                      kBestStarPixels));
    selected_ = markGraph(plot_, markers,
                          QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(220, 20, 60), 2.5),
                                          Qt::NoBrush, 17));
}

void DesignSpaceMarks::setBuckets(const PointColouring& colouring) {
    for (auto* g : buckets_) plot_->removeGraph(g);
    buckets_.clear();
    for (int b = 0; b < colouring.bucketCount(); ++b) {
        auto* g = markGraph(plot_, QStringLiteral("main"),
                            QCPScatterStyle(QCPScatterStyle::ssDisc, colouring.bucketColour(b), 6));
        g->setName(colouring.bucketLabel(b));
        buckets_.push_back(g);
    }
}

void DesignSpaceMarks::update(const State& state) {
    const auto& data = *state.data;
    QVector<QCPGraphData> line;
    for (auto i : data.front())
        line.append(
            QCPGraphData(data.record(i).areaSquareMillimetres, data.record(i).plottedThroughput()));
    front_->data()->set(line, true);
    // Ring markers help on a short front; on a long one they merge into a thick band.
    auto style = front_->scatterStyle();
    style.setShape(line.size() <= 120 ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssNone);
    front_->setScatterStyle(style);
    const auto single = [](QCPGraph* g, std::optional<QPointF> p) {
        g->data()->clear();
        if (p) g->addData(p->x(), p->y());
    };
    const auto at = [&data](std::optional<std::size_t> i) -> std::optional<QPointF> {
        if (!i) return std::nullopt;
        const auto& r = data.record(*i);
        return QPointF(r.areaSquareMillimetres, r.plottedThroughput());
    };
    single(best_, at(data.best()));
    single(reference_,
           state.referenceOverride ? state.referenceOverride : at(data.referenceRecord()));
    single(selected_, at(state.selected));

    const auto bucketCount = [&state](std::size_t b) -> std::int64_t {
        return state.bucketCounts && b < state.bucketCounts->size() ? (*state.bucketCounts)[b] : 0;
    };
    for (std::size_t b = 0; b < buckets_.size(); ++b)
        buckets_[b]->setName(QStringLiteral("%1 (%2)").arg(data.colouring().bucketLabel(int(b)),
                                                           count(bucketCount(b))));
    const auto infeasible = std::int64_t(data.size()) - data.feasibleCount();
    infeasible_->setName(QStringLiteral("Infeasible, at 0 (%1)").arg(count(infeasible)));
    front_->setName(QStringLiteral("Pareto front (%1)").arg(count(std::int64_t(line.size()))));
    const QString name = data.referenceName();
    reference_->setName(name.isEmpty() ? QStringLiteral("Reference chip")
                                       : name.left(1).toUpper() + name.mid(1));
    best_->setName(QStringLiteral("Best point"));
    selected_->setName(QStringLiteral("Selected"));
    // Legend order: the marks a reader looks for first, then the colour key, then the rest.
    plot_->legend->clearItems();
    for (auto* g : {front_, best_, reference_, selected_})
        if (!g->data()->isEmpty()) g->addToLegend();
    // Only the values present: a space's value that no point has yet (or that these results
    // do not have) keeps its colour but is not listed.
    for (std::size_t b = 0; b < buckets_.size(); ++b)
        if (bucketCount(b) > 0) buckets_[b]->addToLegend();
    if (infeasible > 0) infeasible_->addToLegend();
    plot_->legend->setVisible(plot_->legend->itemCount() > 0);
}

QVector<QPointF> DesignSpaceMarks::frontLine() const {
    QVector<QPointF> out;
    for (auto it = front_->data()->constBegin(); it != front_->data()->constEnd(); ++it)
        out.append(QPointF(it->key, it->value));
    return out;
}

QStringList DesignSpaceMarks::legendLabels() const {
    QStringList out;
    for (int i = 0; i < plot_->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot_->legend->item(i)))
            out << item->plottable()->name();
    return out;
}

}  // namespace tandem::ui
