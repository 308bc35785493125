#include "ui/widgets/field_undo_filter.h"

#include <QAbstractSpinBox>
#include <QKeyEvent>
#include <QLineEdit>

namespace tandem::ui {

FieldUndoFilter::FieldUndoFilter(QWidget* scope) : QObject(scope), scope_(scope) {}

bool FieldUndoFilter::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::ShortcutOverride) return false;
    auto* key = static_cast<QKeyEvent*>(event);
    const bool undo = key->matches(QKeySequence::Undo);
    const bool redo = key->matches(QKeySequence::Redo);
    if (!undo && !redo) return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || !scope_ || widget->window() != scope_->window()) return false;
    auto* edit = qobject_cast<QLineEdit*>(widget);
    if (!edit)
        if (auto* spin = qobject_cast<QAbstractSpinBox*>(widget))
            edit = spin->findChild<QLineEdit*>();
    if (!edit || edit->isReadOnly()) return false;
    if (undo ? edit->isUndoAvailable() : edit->isRedoAvailable()) return false;  // its typing
    key->ignore();  // not claimed: the window's shortcut handles it
    return true;
}

}  // namespace tandem::ui
