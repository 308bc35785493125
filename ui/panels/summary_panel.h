#pragma once
// The "Summary" page: what the chosen model is (parameters, layers, FLOPs per sample) and what
// the chosen hardware is (area against the budget, peak FLOP/s, memory, cluster), with units on
// every number; and where the plan's time per batch goes (a BreakdownChart bar, with its
// throughput and MFU).
#include <QWidget>

#include "core/estimate/model_estimate.h"
#include "core/hardware/hardware_point.h"
#include "core/model/model_graph.h"
#include "core/placement/plan.h"

class QFormLayout;
class QLabel;
class QProgressBar;

namespace tandem::ui {

class BreakdownChart;

class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget* parent = nullptr);

    void showEvaluation(const core::model::ModelGraph& graph,
                        const core::hardware::HardwarePoint& hardware,
                        const core::estimate::ModelEstimate& estimate);
    void showError(const QString& message);
    // The plan's time breakdown, throughput and MFU; null: nothing fits (`why`).
    void showPlan(const core::placement::Plan* plan, const QString& why = {});
    BreakdownChart* breakdownChart() const { return breakdown_; }
    QString planText() const;

private:
    QLabel* addRow(QFormLayout* form, const QString& label, const QString& tooltip);

    QLabel* error_ = nullptr;
    QLabel* modelName_ = nullptr;
    QLabel* parameters_ = nullptr;
    QLabel* layers_ = nullptr;
    QLabel* sequence_ = nullptr;
    QLabel* flopsPerSample_ = nullptr;
    QLabel* hardwareName_ = nullptr;
    QLabel* cores_ = nullptr;
    QLabel* peak_ = nullptr;
    QLabel* memory_ = nullptr;
    QLabel* cluster_ = nullptr;
    QLabel* area_ = nullptr;
    QProgressBar* areaBar_ = nullptr;
    QLabel* plan_ = nullptr;
    BreakdownChart* breakdown_ = nullptr;
};

}  // namespace tandem::ui
