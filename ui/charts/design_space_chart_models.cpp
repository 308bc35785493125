// DesignSpaceChart and a multi-model search (issue 14): the y axis is the objective, the
// geometric mean of each model's throughput over its reference-chip throughput, and each point
// keeps every model's throughput for tooltips and the current-point bar.
#include <qcustomplot.h>
#include <QComboBox>

#include "ui/charts/design_space_chart.h"

namespace tandem::ui {

namespace {
QString fromView(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
}  // namespace

void DesignSpaceChart::setModelNames(const QStringList& names) {
    data_.setModelNames(names);
    updateYAxisLabel();
    refresh();
}

QComboBox* DesignSpaceChart::makeRankBox() {
    auto* box = new QComboBox(this);
    for (core::search::SearchObjective objective : core::search::kSearchObjectives) {
        const QString title = fromView(core::search::objectiveTitle(objective));
        box->addItem(title.left(1).toUpper() + title.mid(1), int(objective));
    }
    box->setToolTip(
        tr("What the points are ranked and plotted by: throughput (samples/s), throughput per "
           "watt (samples per kJ of the plan's energy) or cost to train (samples per "
           "device-hour). The shown results are ranked again without searching; the Pareto "
           "front and the best point follow. Also Search space ▸ Rank by."));
    connect(box, &QComboBox::activated, this, [this, box](int row) {
        emit objectiveChosen(core::search::SearchObjective(box->itemData(row).toInt()));
    });
    return box;
}

void DesignSpaceChart::setObjective(core::search::SearchObjective objective) {
    if (const int row = rankBox_->findData(int(objective)); row >= 0) {
        const QSignalBlocker block(rankBox_);
        rankBox_->setCurrentIndex(row);
    }
    data_.setObjective(objective);
    updateYAxisLabel();
    placeReferenceOutcome();
    refresh();
}

void DesignSpaceChart::updateYAxisLabel() {
    const core::search::SearchObjective objective = data_.objective();
    const QString title = fromView(core::search::objectiveTitle(objective));
    QString label;
    if (data_.multiModel())
        label = tr("Objective: geometric mean of %1 ÷ reference (×)").arg(title);
    else if (objective == core::search::SearchObjective::Throughput)
        label = tr("Throughput (samples/s)");
    else
        label = tr("%1 (%2)").arg(title.left(1).toUpper() + title.mid(1),
                                  fromView(core::search::objectiveUnit(objective)));
    plot_->yAxis->setLabel(label);
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
