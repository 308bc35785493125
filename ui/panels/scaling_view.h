#pragma once
// The "Scaling" tab: the shown point's model, chip and training placed again on clusters of
// other sizes (core::search::analyseScaling, in the background), as strong scaling (the same
// global batch) or weak scaling (the batch grows with the devices); the ScalingChart shows
// throughput against linear scaling, MFU, or days to train on the Summary's token budget.
#include <memory>

#include "core/search/scaling.h"
#include "ui/panels/point_analysis_view.h"

class QComboBox;

namespace tandem::ui {

class ScalingChart;

class ScalingView : public PointAnalysisView {
    Q_OBJECT
public:
    explicit ScalingView(QWidget* parent = nullptr);

    void setTokenBudget(double tokens);
    ScalingChart* chart() const { return chart_; }
    QComboBox* modeChooser() const { return mode_; }
    QComboBox* metricChooser() const { return metric_; }
    // The shown result when it answers the point shown now (else null: an earlier point's).
    std::shared_ptr<const core::search::ScalingResult> currentResult() const;

protected:
    void start(const core::placement::ModelPlacementRequest& request) override;

private:
    ScalingChart* chart_ = nullptr;
    QComboBox* mode_ = nullptr;
    QComboBox* metric_ = nullptr;
};

}  // namespace tandem::ui
