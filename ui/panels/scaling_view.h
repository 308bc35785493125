#pragma once
// The "Scaling" tab: the shown point's model, chip and training placed again on clusters of
// other sizes (core::search::analyseScaling on a ScalingJob, off the GUI thread, with a progress
// bar and Stop), as strong scaling (the same global batch) or weak scaling (the batch grows with
// the devices); the ScalingChart shows throughput against linear scaling, MFU, or days to train
// on the Summary's token budget. Analysing is on demand; a result for an earlier point says so.
#include <QWidget>
#include <memory>
#include <optional>

#include "core/placement/model_placement.h"
#include "core/search/scaling.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace tandem::ui {

class ScalingChart;
class ScalingJob;

class ScalingView : public QWidget {
    Q_OBJECT
public:
    explicit ScalingView(QWidget* parent = nullptr);
    ~ScalingView() override;

    void setPoint(core::placement::ModelPlacementRequest request, const QString& description);
    void setTokenBudget(double tokens);
    void analyse();
    void stop();

    ScalingChart* chart() const { return chart_; }
    ScalingJob* job() const { return job_; }
    QString statusText() const;
    // The shown result when it answers the point shown now (else null: an earlier point's).
    std::shared_ptr<const core::search::ScalingResult> currentResult() const;
    QPushButton* analyseButton() const { return analyse_; }
    QComboBox* modeChooser() const { return mode_; }
    QComboBox* metricChooser() const { return metric_; }

private:
    void finished(std::shared_ptr<const core::search::ScalingResult> result);
    void setBusy(bool busy);

    ScalingJob* job_ = nullptr;
    ScalingChart* chart_ = nullptr;
    QPushButton* analyse_ = nullptr;
    QPushButton* stop_ = nullptr;
    QComboBox* mode_ = nullptr;
    QComboBox* metric_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    std::optional<core::placement::ModelPlacementRequest> request_;
    QString description_;
    quint64 pointVersion_ = 0;
    quint64 runVersion_ = 0;
    quint64 analysedVersion_ = 0;  // the point the shown result answers
    bool analysed_ = false;
};

}  // namespace tandem::ui
