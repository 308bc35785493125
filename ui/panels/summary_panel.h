#pragma once
// The "Summary" page: what the chosen model is (parameters, layers, FLOPs per sample) and what
// the chosen hardware is (area against the budget, peak FLOP/s, memory, cluster), with units on
// every number; where the plan's time per batch goes (a BreakdownChart bar, with its
// throughput and MFU); and its energy, power and time to train (EnergyBudgetBox).
#include <QWidget>

#include "core/estimate/model_estimate.h"
#include "core/hardware/hardware_point.h"
#include "core/model/model_graph.h"
#include "core/placement/plan.h"

class QFormLayout;
class QLabel;
class QProgressBar;

namespace tandem::ui {

class ElidedLabel;

class BreakdownChart;
class EnergyBudgetBox;

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
    EnergyBudgetBox* energyBudget() const { return energy_; }
    QString planText() const;

private:
    ElidedLabel* addRow(QFormLayout* form, const QString& label, const QString& tooltip);

    QLabel* error_ = nullptr;
    ElidedLabel* modelName_ = nullptr;
    ElidedLabel* parameters_ = nullptr;
    ElidedLabel* layers_ = nullptr;
    ElidedLabel* sequence_ = nullptr;
    ElidedLabel* flopsPerSample_ = nullptr;
    ElidedLabel* hardwareName_ = nullptr;
    ElidedLabel* cores_ = nullptr;
    ElidedLabel* peak_ = nullptr;
    ElidedLabel* memory_ = nullptr;
    ElidedLabel* cluster_ = nullptr;
    ElidedLabel* area_ = nullptr;
    QProgressBar* areaBar_ = nullptr;
    QLabel* plan_ = nullptr;
    BreakdownChart* breakdown_ = nullptr;
    EnergyBudgetBox* energy_ = nullptr;
};

}  // namespace tandem::ui
