#include "ui/charts/breakdown_chart.h"

#include <qcustomplot.h>
#include <algorithm>

#include "core/common/units.h"
#include "core/placement/plan.h"

namespace tandem::ui {

namespace {

using core::placement::TimeBreakdown;

struct Part {
    const char* name;
    QColor colour;
    double TimeBreakdown::*seconds;
};

// Useful work first, then what communication and scheduling add.
const Part kParts[BreakdownChart::kPartCount] = {
    {QT_TRANSLATE_NOOP("BreakdownChart", "Compute"), QColor(0x4E, 0x79, 0xA7),
     &TimeBreakdown::computeSeconds},
    {QT_TRANSLATE_NOOP("BreakdownChart", "Recompute"), QColor(0xA0, 0xCB, 0xE8),
     &TimeBreakdown::recomputeSeconds},
    {QT_TRANSLATE_NOOP("BreakdownChart", "Tensor-parallel comm."), QColor(0xF2, 0x8E, 0x2B),
     &TimeBreakdown::tensorParallelCommSeconds},
    {QT_TRANSLATE_NOOP("BreakdownChart", "Pipeline transfers"), QColor(0xFF, 0xBE, 0x7D),
     &TimeBreakdown::pipelineP2pSeconds},
    {QT_TRANSLATE_NOOP("BreakdownChart", "Pipeline bubble"), QColor(0xBA, 0xB0, 0xAC),
     &TimeBreakdown::pipelineBubbleSeconds},
    {QT_TRANSLATE_NOOP("BreakdownChart", "Data-parallel sync"), QColor(0xE1, 0x57, 0x59),
     &TimeBreakdown::dataParallelSyncSeconds},
    {QT_TRANSLATE_NOOP("BreakdownChart", "Optimizer step"), QColor(0x59, 0xA1, 0x4F),
     &TimeBreakdown::optimizerSeconds},
};

}  // namespace

BreakdownChart::BreakdownChart(QWidget* parent) : ChartWidget(parent) {
    plot_->xAxis->setLabel(tr("Time per batch (s)"));
    plot_->yAxis->setRangeReversed(true);  // the first row on top
    plot_->yAxis->grid()->setVisible(false);
    plot_->yAxis->setTickLength(0, 0);
    plot_->yAxis->setSubTicks(false);
    QCPBars* below = nullptr;
    for (const Part& part : kParts) {
        auto* bars = new QCPBars(plot_->yAxis, plot_->xAxis);
        bars->setName(tr(part.name));
        bars->setBrush(part.colour);
        bars->setPen(QPen(part.colour.darker(130), 0));
        bars->setWidth(0.6);
        bars->setAntialiased(false);
        bars->setSelectable(QCP::stNone);
        if (below) bars->moveAbove(below);
        below = bars;
        parts_.push_back(bars);
    }
    placeLegendAbove(4);
    setMinimumHeight(150);
    clear();
}

void BreakdownChart::clear() {
    setRows({});
}

void BreakdownChart::setRows(const std::vector<Row>& rows) {
    for (QCPItemText* note : notes_) plot_->removeItem(note);
    notes_.clear();
    for (QCPBars* bars : parts_) bars->data()->clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double longest = 0;
    for (int r = 0; r < int(rows.size()); ++r) {
        const Row& row = rows[std::size_t(r)];
        ticker->addTick(r, row.label);
        double end = 0;
        if (row.plan) {
            for (int p = 0; p < kPartCount; ++p) {
                const double s = row.plan->breakdown.*kParts[p].seconds;
                parts_[std::size_t(p)]->addData(r, s);
                end += s;
            }
        }
        longest = std::max(longest, end);
        auto* note = new QCPItemText(plot_);
        note->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        note->position->setCoords(end, r);
        note->setPadding(QMargins(6, 0, 0, 0));
        QString text = row.missing.isEmpty() ? QString::fromUtf8("—") : row.missing;
        if (row.plan) {
            text = QString::fromStdString(core::formatSeconds(end));
            if (row.plan->mfu > 0)
                text +=
                    tr(" · MFU %1 %")
                        .arg(QString::fromStdString(core::formatFixed(100.0 * row.plan->mfu, 0)));
        }
        note->setText(text);
        notes_.push_back(note);
    }
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(-0.6, std::max<double>(1, double(rows.size())) - 0.4);
    // Room at the right for the notes.
    plot_->xAxis->setRange(0, longest > 0 ? longest * 1.3 : 1.0);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

double BreakdownChart::partSeconds(int row, int part) const {
    if (part < 0 || part >= kPartCount) return 0;
    const auto data = parts_[std::size_t(part)]->data();
    const auto it = data->findBegin(row, false);
    return it != data->constEnd() && it->key == row ? it->value : 0.0;
}

QStringList BreakdownChart::partNames() const {
    QStringList names;
    for (const QCPBars* bars : parts_) names << bars->name();
    return names;
}

QString BreakdownChart::rowNote(int row) const {
    return row >= 0 && row < rowCount() ? notes_[std::size_t(row)]->text() : QString();
}

}  // namespace tandem::ui
