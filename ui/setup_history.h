#pragma once
// Undo and redo of set-up edits (Edit ▸ Undo, Ctrl+Z): every change of the set-up — a field, a
// preset, the model, the search space — is one step holding the whole set-up before and after
// (core::io::ProjectFile, a few kilobytes), so undoing restores exactly what was there,
// whichever editor made the change. Restoring goes through the owner (restoreRequested) and is
// not itself recorded. New and opened projects start a fresh history (reset).
#include <QObject>
#include <QUndoStack>

#include "core/io/project_file.h"

namespace tandem::ui {

class SetupHistory : public QObject {
    Q_OBJECT
public:
    explicit SetupHistory(QObject* parent = nullptr);

    // The set-up as it is now: a step from the last recorded state, unless equal or restoring.
    void record(const core::io::ProjectFile& now, const QString& what);
    // Forgets every step; `now` is the state undo cannot go before.
    void reset(const core::io::ProjectFile& now);

    QUndoStack* stack() { return &stack_; }
    bool restoring() const { return restoring_; }

signals:
    // The owner applies `project` to the set-up (its edits are not recorded meanwhile).
    void restoreRequested(const core::io::ProjectFile& project);

private:
    friend class SetupSnapshot;
    void restore(const core::io::ProjectFile& project);

    QUndoStack stack_;
    core::io::ProjectFile current_;
    bool restoring_ = false;
};

}  // namespace tandem::ui
