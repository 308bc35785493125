#pragma once
// Ctrl+Z (and Ctrl+Shift+Z / Ctrl+Y) for the window's Undo and Redo from any field. A focused
// QLineEdit, and so every spin box, claims those keys for its own typing history even when it
// has none: after a value typed into one spin box was committed with Tab, Ctrl+Z in the next
// field did nothing instead of undoing the set-up edit. Installed on the application, this filter
// lets a field keep the keys only while it has typing of its own to undo (or redo); otherwise the
// shortcut reaches the window's action. Only widgets in `scope`'s window are affected.
#include <QObject>
#include <QPointer>

class QWidget;

namespace tandem::ui {

class FieldUndoFilter : public QObject {
    Q_OBJECT
public:
    explicit FieldUndoFilter(QWidget* scope);

    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QPointer<QWidget> scope_;
};

}  // namespace tandem::ui
