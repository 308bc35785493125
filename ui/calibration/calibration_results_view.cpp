#include "ui/calibration/calibration_results_view.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/calibration/calibration_parameter.h"
#include "core/common/units.h"
#include "ui/charts/calibration_chart.h"

namespace tandem::ui {

namespace cal = core::calibration;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString percent(double fraction, bool sign = false) {
    return qs((sign && fraction >= 0 ? "+" : "") + core::formatFixed(100 * fraction, 1) + " %");
}

QTableWidget* table(const QStringList& header, QWidget* parent) {
    auto* t = new QTableWidget(0, int(header.size()), parent);
    t->setHorizontalHeaderLabels(header);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    return t;
}

QTableWidgetItem* cell(const QString& text, bool right = false) {
    auto* item = new QTableWidgetItem(text);
    if (right) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// Tall enough for every row (and never shorter than three), so the chart gets the rest.
void fitRows(QTableWidget* t) {
    const int rows = std::max(t->rowCount(), 3);
    t->setMaximumHeight(t->horizontalHeader()->height() +
                        rows * t->verticalHeader()->defaultSectionSize() + 2 * t->frameWidth() +
                        t->horizontalScrollBar()->sizeHint().height());
}

}  // namespace

CalibrationResultsView::CalibrationResultsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(this);
    summary_->setObjectName("calibrationSummary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    parameters_ =
        table({tr("Parameter"), tr("Start"), tr("Fitted"), tr("Bounds"), tr("Status")}, this);
    parameters_->setObjectName("calibrationResultParameters");
    worst_ = table({tr("Worst runs"), tr("GPUs"), tr("P · T · D"), tr("Batch"), tr("Measured"),
                    tr("Predicted"), tr("Error")},
                   this);
    worst_->setObjectName("calibrationWorstRuns");
    worst_->horizontalHeader()->setStretchLastSection(false);

    auto* chartBox = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chartBox);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chart_ = new CalibrationChart(chartBox);
    chart_->setMinimumSize(360, 300);
    logAxes_ = new QCheckBox(tr("Logarithmic axes"), chartBox);
    logAxes_->setChecked(chart_->logarithmic());
    logAxes_->setToolTip(
        tr("Log axes show small and large runs alike; linear ones show the "
           "absolute differences"));
    chartLayout->addWidget(chart_, 1);
    chartLayout->addWidget(logAxes_);
    connect(logAxes_, &QCheckBox::toggled, chart_, &CalibrationChart::setLogarithmic);

    // The parameters across the top (a few rows), the worst runs and the scatter below.
    auto* below = new QSplitter(Qt::Horizontal, this);
    below->addWidget(worst_);
    below->addWidget(chartBox);
    below->setStretchFactor(0, 0);
    below->setStretchFactor(1, 1);
    below->setChildrenCollapsible(false);
    layout->addWidget(parameters_);
    layout->addWidget(below, 1);
    clear(tr("Choose the measured runs and press Run to fit."));
}

void CalibrationResultsView::clear(const QString& reason) {
    outcome_.reset();
    summary_->setText(reason);
    parameters_->setRowCount(0);
    worst_->setRowCount(0);
    chart_->clear(tr("No calibration yet"));
}

void CalibrationResultsView::setOutcome(std::shared_ptr<const CalibrationOutcome> outcome) {
    if (!outcome) {
        clear({});
        return;
    }
    outcome_ = std::move(outcome);
    const cal::CalibrationResult& r = outcome_->result;
    QString text = tr("Fitted <b>%1</b> to %2 (%3 runs).")
                       .arg(qs(r.start.name).toHtmlEscaped(), qs(r.source).toHtmlEscaped())
                       .arg(outcome_->runs.size());
    if (r.cancelled) text += tr(" <b>Interrupted</b>: the best point found so far, not validated.");
    text += tr("<br>Mean |error| of the iteration time: start %1 → fitted (training) <b>%2</b>")
                .arg(percent(r.startError.meanAbsError), percent(r.trainingError.meanAbsError));
    if (r.validationError && r.validation == cal::ValidationKind::KFold)
        text += tr(", cross-validated <b>%1</b> (%2 folds, seed %3)")
                    .arg(percent(r.validationError->meanAbsError))
                    .arg(r.folds)
                    .arg(r.seed);
    if (r.validationError && r.validation == cal::ValidationKind::Holdout)
        text += tr(", held out <b>%1</b>").arg(percent(r.validationError->meanAbsError));
    text += ".";
    const std::size_t notFitting = std::size_t(std::count_if(
        r.fittedRuns.begin(), r.fittedRuns.end(), [](const auto& o) { return !o.fits; }));
    if (notFitting > 0)
        text += tr("<br>%1 runs do not fit in HBM on the fitted hardware; each counts as a "
                   "100 % error and is not plotted.")
                    .arg(notFitting);
    text += tr("<br><span style='color:#666'>%1 predictions of the runs in %2 fits, %3.</span>")
                .arg(r.evaluations)
                .arg(r.fits)
                .arg(qs(core::formatSeconds(r.elapsedSeconds)));
    summary_->setText(text);
    fillParameters(r);
    fillWorstRuns(*outcome_);
    chart_->setSubject(tr("%1 fitted to the measured runs of %2 (%3 runs)")
                           .arg(qs(r.start.name), qs(r.source))
                           .arg(outcome_->runs.size()));
    chart_->setResult(r, outcome_->runs);
}

void CalibrationResultsView::fillParameters(const cal::CalibrationResult& r) {
    parameters_->setRowCount(int(r.parameters.size()));
    for (int row = 0; row < int(r.parameters.size()); ++row) {
        const cal::FittedParameter& p = r.parameters[std::size_t(row)];
        const auto* spec = cal::registrySpec(p.parameter);
        const QString key = qs(std::string(p.parameter.key));
        auto* name = cell(spec ? qs(std::string(spec->label)) : key);
        name->setData(Qt::UserRole, key);
        name->setToolTip(key + "\n" + qs(std::string(p.parameter.why)));
        parameters_->setItem(row, Parameter, name);
        parameters_->setItem(row, Start,
                             cell(qs(cal::formatParameterValue(p.parameter, p.start)), true));
        auto* fitted = cell(qs(cal::formatParameterValue(p.parameter, p.fitted)), true);
        if (p.pinned()) {
            QFont bold = fitted->font();
            bold.setBold(true);
            fitted->setFont(bold);
        }
        parameters_->setItem(row, Fitted, fitted);
        parameters_->setItem(
            row, Bounds,
            cell(qs(cal::formatParameterValue(p.parameter, p.parameter.lower) + " – " +
                    cal::formatParameterValue(p.parameter, p.parameter.upper)),
                 true));
        QString status, why;
        switch (p.identifiability) {
            case cal::Identifiability::Pinned:
                status = r.cancelled ? tr("Fitted (not checked)") : tr("Fitted");
                why = r.cancelled ? tr("Interrupted before the runs' sensitivity was checked")
                                  : tr("The runs pin it down: moving it alone changes the "
                                       "training error by up to %1 pp")
                                        .arg(qs(core::formatFixed(100 * p.sensitivity, 2)));
                break;
            case cal::Identifiability::Flat:
                status = tr("Flat — kept at start");
                why = tr("Moving it across its bounds changes the training error by %1 pp "
                         "(< %2 pp), so the runs cannot tell its value; it keeps the start's")
                          .arg(qs(core::formatFixed(100 * p.sensitivity, 2)),
                               qs(core::formatFixed(100 * r.flatThreshold, 2)));
                break;
            case cal::Identifiability::VariesAcrossFolds: {
                status = tr("Varies across folds — kept at start");
                const auto [lo, hi] = std::minmax_element(p.foldValues.begin(), p.foldValues.end());
                if (lo != p.foldValues.end())
                    why = tr("The folds' fits range from %1 to %2 (more than %3 % of its "
                             "bounds); it keeps the start's value")
                              .arg(qs(cal::formatParameterValue(p.parameter, *lo)),
                                   qs(cal::formatParameterValue(p.parameter, *hi)),
                                   qs(core::formatFixed(100 * r.foldSpreadThreshold, 0)));
                break;
            }
        }
        auto* statusCell = cell(status);
        statusCell->setToolTip(why);
        parameters_->setItem(row, Status, statusCell);
    }
    fitRows(parameters_);
}

void CalibrationResultsView::fillWorstRuns(const CalibrationOutcome& outcome) {
    const cal::CalibrationResult& r = outcome.result;
    const std::size_t n = std::min(outcome.runs.size(), r.validatedRuns.size());
    const auto key = [&](std::size_t i) {
        const auto& v = r.validatedRuns[i];
        return v.fits ? std::fabs(v.error) : cal::kNoFitError;
    };
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
    order.resize(std::min<std::size_t>(order.size(), kWorstRuns));
    const bool outOfSample = !r.cancelled && r.validation == cal::ValidationKind::KFold;
    worst_->setHorizontalHeaderItem(
        5, new QTableWidgetItem(outOfSample ? tr("Out of fold") : tr("Predicted")));
    worst_->setRowCount(int(order.size()));
    for (int row = 0; row < int(order.size()); ++row) {
        const std::size_t i = order[std::size_t(row)];
        const auto& run = outcome.runs[i];
        const cal::RunOutcome& v = r.validatedRuns[i];
        auto* name = cell(qs(run.name));
        name->setData(Qt::UserRole, qulonglong(i));
        worst_->setItem(row, 0, name);
        worst_->setItem(row, 1, cell(QString::number(run.gpus), true));
        worst_->setItem(
            row, 2,
            cell(QStringLiteral("%1 · %2 · %3").arg(run.pipeline).arg(run.tensor).arg(run.data),
                 true));
        worst_->setItem(row, 3, cell(QString::number(run.globalBatch), true));
        worst_->setItem(row, 4, cell(qs(core::formatSeconds(run.measuredSeconds)), true));
        auto* predicted =
            cell(v.fits ? qs(core::formatSeconds(v.predictedSeconds)) : tr("does not fit"), true);
        if (!v.fits) predicted->setToolTip(qs(v.reason));
        worst_->setItem(row, 5, predicted);
        worst_->setItem(row, 6, cell(v.fits ? percent(v.error, true) : tr("—"), true));
    }
    // Every column readable: the chart beside it takes what is left.
    worst_->resizeColumnsToContents();
    int width = 2 * worst_->frameWidth() + worst_->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < worst_->columnCount(); ++c)
        width += std::max(worst_->columnWidth(c), worst_->horizontalHeader()->sectionSizeHint(c));
    worst_->setMinimumWidth(width);
}

}  // namespace tandem::ui
