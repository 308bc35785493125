// DesignSpaceChart and a multi-model search (issue 14): the y axis is the objective, the
// geometric mean of each model's throughput over its reference-chip throughput, and each point
// keeps every model's throughput for tooltips and the current-point bar.
#include <qcustomplot.h>

#include "ui/charts/design_space_chart.h"

namespace tandem::ui {

void DesignSpaceChart::setModelNames(const QStringList& names) {
    data_.setModelNames(names);
    plot_->yAxis->setLabel(data_.multiModel()
                               ? tr("Objective: geometric mean of throughput ÷ reference (×)")
                               : tr("Throughput (samples/s)"));
    refresh();
}

QString DesignSpaceChart::yAxisLabel() const {
    return plot_->yAxis->label();
}

std::vector<std::pair<QString, double>> DesignSpaceChart::modelThroughputsOf(
    qint64 pointIndex) const {
    const auto i = data_.recordOf(pointIndex);
    return i ? data_.modelThroughputs(*i) : std::vector<std::pair<QString, double>>{};
}

}  // namespace tandem::ui
