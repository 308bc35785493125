#include "ui/editors/field_frame.h"

#include <QHBoxLayout>
#include <QStyle>

namespace tandem::ui {

FieldFrame::FieldFrame(QWidget* field, QWidget* parent) : QFrame(parent), field_(field) {
    setObjectName("fieldFrame");
    // A transparent border while valid keeps the field from moving when it turns red.
    setStyleSheet(
        "#fieldFrame { border: 2px solid transparent; border-radius: 3px; }"
        "#fieldFrame[invalid=\"true\"] { border-color: #c62828;"
        " background-color: #fdecea; }");
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);  // the 2 px style-sheet border is the margin
    field->setParent(this);
    layout->addWidget(field);
    setFocusProxy(field);
}

void FieldFrame::setInvalid(bool invalid) {
    for (QWidget* w : {static_cast<QWidget*>(this), field_}) {
        w->setProperty("invalid", invalid);
        w->style()->unpolish(w);
        w->style()->polish(w);
    }
}

bool FieldFrame::isInvalid() const {
    return property("invalid").toBool();
}

}  // namespace tandem::ui
