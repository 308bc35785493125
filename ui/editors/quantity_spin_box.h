#pragma once
// A QDoubleSpinBox that drops trailing zeros ("1200 GB/s", "1.05 GHz", "4.295 GB/s" rather
// than "1200.000 GB/s"), so quantities shown in converted units read like the CLI's output
// while the box still takes as many decimals as the unit needs.
#include <QDoubleSpinBox>

namespace tandem::ui {

class QuantitySpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    using QDoubleSpinBox::QDoubleSpinBox;

    QString textFromValue(double value) const override;
};

}  // namespace tandem::ui
