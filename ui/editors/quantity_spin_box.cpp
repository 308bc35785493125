#include "ui/editors/quantity_spin_box.h"

namespace tandem::ui {

QString QuantitySpinBox::textFromValue(double value) const {
    QString text = QDoubleSpinBox::textFromValue(value);
    const QString point = locale().decimalPoint();
    if (!text.contains(point)) return text;
    while (text.endsWith('0')) text.chop(1);
    if (text.endsWith(point)) text.chop(point.size());
    return text;
}

}  // namespace tandem::ui
