// DesignSpaceChart: whose results these are (model and chip in the title), whether they still
// answer the set-up (stale points fade and cannot be selected), and the searched space's value
// lists that fix the colours before the first point arrives; and the reference chip, marked
// at the plotted objective.
#include <qcustomplot.h>
#include <QGraphicsOpacityEffect>

#include "core/search/search_objective.h"
#include "ui/charts/design_space_chart.h"
#include "ui/charts/point_text.h"

namespace tandem::ui {

void DesignSpaceChart::setSpace(const core::search::SearchSpace& space) {
    data_.setSpace(space);
    rebuildScatter();
    refresh();
}

void DesignSpaceChart::clearSpace() {
    data_.clearSpace();
    rebuildScatter();
    refresh();
}

void DesignSpaceChart::setOwner(const QString& owner) {
    owner_ = owner;
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void DesignSpaceChart::setStale(const QString& why) {
    if (why == stale_) return;
    stale_ = why;
    if (!stale_.isEmpty()) selectPoint(-1);
    // Stale points are drawn faded: they answer another set-up.
    auto* fade = qobject_cast<QGraphicsOpacityEffect*>(plot_->graphicsEffect());
    if (!fade) {
        fade = new QGraphicsOpacityEffect(plot_);
        fade->setOpacity(0.4);
        plot_->setGraphicsEffect(fade);
    }
    fade->setEnabled(!stale_.isEmpty());
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void DesignSpaceChart::setReferencePoint(const core::hardware::AcceleratorConfig& chip,
                                         const QString& name) {
    referenceExplicit_.reset();
    referenceOutcome_.reset();
    data_.setReferenceChip(chip, name);
    refresh();
}

void DesignSpaceChart::setReferenceOutcome(const core::search::BaselineOutcome& outcome,
                                           const QString& name) {
    data_.setReferenceChip(std::nullopt, name);
    referenceOutcome_ = outcome;
    placeReferenceOutcome();
    refresh();
}

void DesignSpaceChart::placeReferenceOutcome() {
    referenceExplicit_.reset();
    referenceTooltip_.clear();
    if (!referenceOutcome_) return;
    const core::search::BaselineOutcome& outcome = *referenceOutcome_;
    // At the plotted objective: another than throughput needs the plan's figures (without
    // them the reference is not drawn rather than drawn at its throughput on another axis).
    const auto objective = data_.objective();
    const double y = objective == core::search::SearchObjective::Throughput
                         ? outcome.throughputSamplesPerSecond
                     : outcome.plan ? core::search::objectiveValue(objective, *outcome.plan) *
                                          core::search::objectiveDisplayScale(objective)
                                    : 0.0;
    if (outcome.available && y > 0) {
        referenceExplicit_ = QPointF(outcome.point.areaSquareMillimetres, y);
        referenceTooltip_ =
            QStringLiteral("<b>%1</b><br>%2<br>%3 · %4")
                .arg(data_.referenceName().toHtmlEscaped(), chipText(outcome.point.accelerator),
                     areaText(outcome.point.areaSquareMillimetres),
                     throughputText(outcome.throughputSamplesPerSecond));
    }
}

}  // namespace tandem::ui
