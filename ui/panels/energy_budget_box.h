#pragma once
// The Summary's "Energy and time to train" group: the shown plan's joules per iteration (split
// into arithmetic, HBM, links and static power), its average power per device and for all its
// devices, and — for the token budget and price per device-hour set here — the days, device-hours,
// MWh and cost to train (core::placement::planTrainingCost, as `place --tokens` prints them).
// Editing the budget re-prices the shown plan at once (no evaluation runs).
#include <QGroupBox>
#include <optional>

#include "core/placement/plan.h"

class QDoubleSpinBox;
class QLabel;

namespace tandem::ui {

class EnergyBudgetBox : public QGroupBox {
    Q_OBJECT
public:
    explicit EnergyBudgetBox(QWidget* parent = nullptr);

    // The plan (null: nothing fits).
    void showPlan(const core::placement::Plan* plan);
    // The tokens of one sample (the model's sequence length).
    void setTokensPerSample(double tokens);
    // Tokens to train on (> 0) and the price of a device-hour (0: no price).
    double tokens() const;
    double pricePerDeviceHour() const;
    void setBudget(double tokens, double pricePerDeviceHour);

    QString energyText() const;
    QString trainingText() const;

signals:
    void budgetChanged();  // a user edit (not setBudget)

private:
    void updateTraining();

    QLabel* energy_ = nullptr;
    QLabel* power_ = nullptr;
    QDoubleSpinBox* tokens_ = nullptr;  // billions
    QDoubleSpinBox* price_ = nullptr;
    QLabel* training_ = nullptr;
    std::optional<core::placement::Plan> plan_;
    double tokensPerSample_ = 0;
    bool setting_ = false;
};

}  // namespace tandem::ui
