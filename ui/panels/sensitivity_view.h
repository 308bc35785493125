#pragma once
// The "Sensitivity" tab: what limits the shown point. Analyse moves every hardware parameter
// ±10 % and places the model again (core::search::analyseSensitivity on a SensitivityJob, off
// the GUI thread, with a progress bar and Stop); the TornadoChart shows the change in throughput
// or in energy per sample, the most influential parameter on top. Analysing is on demand (dozens
// of placements); a result for an earlier point is kept but says so.
#include <QWidget>
#include <memory>
#include <optional>

#include "core/placement/model_placement.h"
#include "core/search/sensitivity.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace tandem::ui {

class SensitivityJob;
class TornadoChart;

class SensitivityView : public QWidget {
    Q_OBJECT
public:
    explicit SensitivityView(QWidget* parent = nullptr);
    ~SensitivityView() override;

    // The shown point and its one-line description ("gpt3-175b on 1,024 × tpuv4-like").
    void setPoint(core::placement::ModelPlacementRequest request, const QString& description);
    void analyse();
    void stop();

    TornadoChart* chart() const { return chart_; }
    SensitivityJob* job() const { return job_; }
    QString statusText() const;
    QPushButton* analyseButton() const { return analyse_; }
    QComboBox* metricChooser() const { return metric_; }

private:
    void finished(quint64 id, std::shared_ptr<const core::search::SensitivityResult> result);
    void setBusy(bool busy);

    SensitivityJob* job_ = nullptr;
    TornadoChart* chart_ = nullptr;
    QPushButton* analyse_ = nullptr;
    QPushButton* stop_ = nullptr;
    QComboBox* metric_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    std::optional<core::placement::ModelPlacementRequest> request_;
    QString description_;
    quint64 pointVersion_ = 0;     // bumped by setPoint
    quint64 analysedVersion_ = 0;  // the point the shown result answers
    quint64 runVersion_ = 0;       // the point the running analysis answers
    QString analysedDescription_;
};

}  // namespace tandem::ui
