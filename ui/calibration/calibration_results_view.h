#pragma once
// The right side of the calibration dialog: what a calibration found, only drawn (every number
// is core::calibration's). A summary line (start, training and cross-validated or held-out
// mean |error|, runs that do not fit), the parameter table (start → fitted value in the
// registry's units via formatParameterValue, physical bounds, and whether the runs pin the
// parameter down: Fitted, Flat — kept at its start, Varies across folds — kept), the
// predicted-vs-measured scatter (CalibrationChart, log or linear axes) and the runs with the
// largest validated |error|.
#include <QWidget>
#include <memory>

#include "ui/jobs/calibration_job.h"

class QCheckBox;
class QLabel;
class QTableWidget;

namespace tandem::ui {

class CalibrationChart;

class CalibrationResultsView : public QWidget {
    Q_OBJECT
public:
    // Rows of the worst-runs table.
    static constexpr int kWorstRuns = 8;
    // Columns of the parameter table.
    enum Column { Parameter, Start, Fitted, Bounds, Status, ColumnCount };

    explicit CalibrationResultsView(QWidget* parent = nullptr);

    void setOutcome(std::shared_ptr<const CalibrationOutcome> outcome);
    // No result: the tables empty, the chart showing `reason`.
    void clear(const QString& reason);

    std::shared_ptr<const CalibrationOutcome> outcome() const { return outcome_; }
    QLabel* summary() const { return summary_; }
    QTableWidget* parameterTable() const { return parameters_; }
    QTableWidget* worstRunsTable() const { return worst_; }
    CalibrationChart* chart() const { return chart_; }
    QCheckBox* logAxes() const { return logAxes_; }

private:
    void fillParameters(const core::calibration::CalibrationResult& r);
    void fillWorstRuns(const CalibrationOutcome& outcome);

    std::shared_ptr<const CalibrationOutcome> outcome_;
    QLabel* summary_ = nullptr;
    QTableWidget* parameters_ = nullptr;
    CalibrationChart* chart_ = nullptr;
    QCheckBox* logAxes_ = nullptr;
    QTableWidget* worst_ = nullptr;
};

}  // namespace tandem::ui
