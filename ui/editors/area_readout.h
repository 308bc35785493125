#pragma once
// The live area readout of the hardware editor: the chip's silicon area from the core AreaModel
// against the search's area budget, as a bar with the numbers in mm² (green within the budget,
// red over it) and the per-component breakdown in the tooltip. A size outside the area tables
// is not guessed: the bar is disabled and the model's message (component, value, table range)
// is shown instead.
#include <QWidget>

#include "core/hardware/accelerator_config.h"

class QLabel;
class QProgressBar;

namespace tandem::ui {

class AreaReadout : public QWidget {
    Q_OBJECT
    Q_PROPERTY(bool overBudget READ overBudget)
public:
    explicit AreaReadout(QWidget* parent = nullptr);

    void setAccelerator(const core::hardware::AcceleratorConfig& accelerator);
    void setBudget(double squareMillimetres);
    void setAllowExtrapolation(bool allow);

    double budgetSquareMillimetres() const { return budget_; }
    // NaN when the area is unknown (a size outside the tables).
    double areaSquareMillimetres() const { return area_; }
    bool overBudget() const { return over_; }
    bool hasArea() const;
    QString text() const;     // the line above the bar
    QString barText() const;  // the text inside the bar
    QProgressBar* bar() const { return bar_; }

private:
    void refresh();

    core::hardware::AcceleratorConfig accelerator_;
    double budget_;
    double area_;
    bool over_ = false;
    bool extrapolate_ = false;
    QLabel* label_ = nullptr;
    QProgressBar* bar_ = nullptr;
};

}  // namespace tandem::ui
