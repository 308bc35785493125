#include "ui/panels/energy_budget_box.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>

#include "core/common/units.h"
#include "core/placement/plan_activity.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
QLabel* valueLabel(QWidget* parent, const QString& tooltip) {
    auto* label = new QLabel(QStringLiteral("—"), parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setToolTip(tooltip);
    return label;
}
}  // namespace

EnergyBudgetBox::EnergyBudgetBox(QWidget* parent)
    : QGroupBox(tr("Energy and time to train"), parent) {
    auto* form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    energy_ = valueLabel(this, tr("Joules of one training iteration on every device in use: "
                                  "arithmetic (with the GEMMs' operand streams), HBM traffic, "
                                  "bytes over the links and static power (Guide ▸ Energy)"));
    form->addRow(tr("Energy:"), energy_);
    power_ = valueLabel(this, tr("Average power of a device in use over the iteration, and of "
                                 "all of them"));
    form->addRow(tr("Power:"), power_);
    tokens_ = new QDoubleSpinBox(this);
    tokens_->setObjectName("budgetTokens");
    tokens_->setRange(0.001, 1e9);
    tokens_->setDecimals(3);
    tokens_->setValue(300);
    tokens_->setSuffix(tr(" B tokens"));
    tokens_->setToolTip(
        tr("Tokens to train on, in billions (GPT-3 trained on 300 B; "
           "tandem-cli place --tokens)"));
    tokens_->setMaximumWidth(260);
    form->addRow(tr("Train on:"), tokens_);
    price_ = new QDoubleSpinBox(this);
    price_->setObjectName("budgetPrice");
    price_->setRange(0, 1e6);
    price_->setDecimals(2);
    price_->setSpecialValueText(tr("no price"));
    price_->setSuffix(tr(" per device-hour"));
    price_->setToolTip(
        tr("What one device costs for an hour, in any currency; 0: no cost shown "
           "(tandem-cli place --price-per-device-hour)"));
    price_->setMaximumWidth(260);
    form->addRow(tr("Price:"), price_);
    training_ = valueLabel(this, tr("Iterations = tokens ÷ (global batch × sequence length), "
                                    "each taking the plan's time per batch on its devices in use"));
    form->addRow(tr("To train:"), training_);
    for (QDoubleSpinBox* box : {tokens_, price_})
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            updateTraining();
            if (!setting_) emit budgetChanged();
        });
}

void EnergyBudgetBox::setTokensPerSample(double tokens) {
    tokensPerSample_ = tokens;
    updateTraining();
}

void EnergyBudgetBox::showPlan(const core::placement::Plan* plan) {
    plan_.reset();
    if (plan) plan_ = *plan;
    if (!plan || !plan->energy.known) {
        energy_->setText(plan ? tr("not known for this plan") : QStringLiteral("—"));
        power_->setText(QStringLiteral("—"));
    } else {
        const core::energy::EnergyEstimate& e = plan->energy;
        energy_->setText(tr("%1 per iteration (%2)")
                             .arg(text(core::formatEnergy(e.totalJoules())),
                                  text(core::energy::energySharesText(e))));
        power_->setText(
            tr("%1 per device on average, %2 for the %3 devices in use")
                .arg(text(core::formatPower(e.averagePowerWatts)),
                     text(core::formatPower(e.averagePowerWatts * double(plan->devicesUsed))),
                     text(core::formatCount(double(plan->devicesUsed)))));
    }
    updateTraining();
}

double EnergyBudgetBox::tokens() const {
    return tokens_->value() * 1e9;
}

double EnergyBudgetBox::pricePerDeviceHour() const {
    return price_->value();
}

void EnergyBudgetBox::setBudget(double tokens, double pricePerDeviceHour) {
    setting_ = true;
    if (tokens > 0) tokens_->setValue(tokens / 1e9);
    if (pricePerDeviceHour >= 0) price_->setValue(pricePerDeviceHour);
    setting_ = false;
    updateTraining();
}

QString EnergyBudgetBox::energyText() const {
    return energy_->text() + QLatin1Char('\n') + power_->text();
}

QString EnergyBudgetBox::trainingText() const {
    return training_->text();
}

void EnergyBudgetBox::updateTraining() {
    if (!plan_) {
        training_->setText(QStringLiteral("—"));
        return;
    }
    core::energy::TrainingBudget budget;
    budget.tokens = tokens();
    budget.pricePerDeviceHour = price_->value() > 0 ? price_->value() : -1.0;
    const auto cost = core::placement::planTrainingCost(*plan_, budget, tokensPerSample_);
    if (!cost) {
        training_->setText(tr("not known (%1)").arg(text(cost.message())));
        return;
    }
    QString line = text(core::energy::trainingCostText(*cost, plan_->energy.known, " · "));
    line += tr(" (%1 iterations)").arg(text(core::formatCount(cost->iterations)));
    training_->setText(line);
}

}  // namespace tandem::ui
