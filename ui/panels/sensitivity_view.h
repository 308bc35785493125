#pragma once
// The "Sensitivity" tab: what limits the shown point. Analyse moves every hardware parameter
// ±10 % and places the model again (core::search::analyseSensitivity, in the background); the
// TornadoChart shows the change in throughput or in energy per sample, the most influential
// parameter on top.
#include <memory>

#include "core/search/sensitivity.h"
#include "ui/panels/point_analysis_view.h"

class QComboBox;

namespace tandem::ui {

class TornadoChart;

class SensitivityView : public PointAnalysisView {
    Q_OBJECT
public:
    explicit SensitivityView(QWidget* parent = nullptr);

    TornadoChart* chart() const { return chart_; }
    QComboBox* metricChooser() const { return metric_; }

protected:
    void start(const core::placement::ModelPlacementRequest& request) override;

private:
    TornadoChart* chart_ = nullptr;
    QComboBox* metric_ = nullptr;
};

}  // namespace tandem::ui
