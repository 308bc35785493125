#pragma once
// The base of the tabs that analyse the shown point on demand (Sensitivity, Scaling): a row with
// Analyse, Stop, the tab's own choosers, a progress bar and a status line above the tab's chart,
// and an AnalysisJob that runs the analysis off the GUI thread. It keeps the shown point's
// request; a result answers the point it was started for, and once the shown point changes the
// status says so and answersShownPoint() turns false (an exported report leaves it out).
#include <QWidget>
#include <optional>

#include "core/placement/model_placement.h"

class QBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace tandem::ui {

class AnalysisJob;

class PointAnalysisView : public QWidget {
    Q_OBJECT
public:
    // The shown point and its one-line description ("gpt3-175b on 1,024 × tpuv4-like").
    void setPoint(core::placement::ModelPlacementRequest request, const QString& description);
    void analyse();
    void stop();

    AnalysisJob* job() const { return job_; }
    QString statusText() const;
    QPushButton* analyseButton() const { return analyse_; }
    // The shown result answers the point shown now.
    bool answersShownPoint() const { return answered_ && analysedVersion_ == pointVersion_; }

protected:
    // `analyseTip` says what Analyse does.
    PointAnalysisView(const QString& analyseTip, QWidget* parent);
    // Starts the tab's analysis of `request` on job().
    virtual void start(const core::placement::ModelPlacementRequest& request) = 0;
    // A chooser (or any control) in the row, after Stop; the chart below the row.
    void addControl(QWidget* control);
    void setChart(QWidget* chart);
    // Called by the tab when its result arrived: the status says `summary` (or that the point
    // changed meanwhile).
    void answered(const QString& summary);
    void setStatus(const QString& text);
    const std::optional<core::placement::ModelPlacementRequest>& request() const {
        return request_;
    }
    const QString& description() const { return description_; }
    bool analysedOnce() const { return answered_; }

private:
    void setBusy(bool busy);

    AnalysisJob* job_ = nullptr;
    QBoxLayout* row_ = nullptr;
    QBoxLayout* layout_ = nullptr;
    QPushButton* analyse_ = nullptr;
    QPushButton* stop_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    std::optional<core::placement::ModelPlacementRequest> request_;
    QString description_;
    quint64 pointVersion_ = 0;     // bumped by setPoint
    quint64 runVersion_ = 0;       // the point the running analysis answers
    quint64 analysedVersion_ = 0;  // the point the shown result answers
    bool answered_ = false;
};

}  // namespace tandem::ui
