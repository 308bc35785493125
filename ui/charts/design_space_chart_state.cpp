// DesignSpaceChart: whose results these are (model and chip in the title), whether they still
// answer the set-up (stale points fade and cannot be selected), and the searched space's value
// lists that fix the colours before the first point arrives.
#include <qcustomplot.h>
#include <QGraphicsOpacityEffect>

#include "ui/charts/design_space_chart.h"

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

}  // namespace tandem::ui
