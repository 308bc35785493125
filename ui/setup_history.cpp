#include "ui/setup_history.h"

#include <QUndoCommand>
#include <utility>

namespace tandem::ui {

// One step: the set-up before and after an edit.
class SetupSnapshot : public QUndoCommand {
public:
    SetupSnapshot(SetupHistory* history, core::io::ProjectFile before, core::io::ProjectFile after,
                  const QString& what)
        : QUndoCommand(what),
          history_(history),
          before_(std::move(before)),
          after_(std::move(after)) {}

    void undo() override { history_->restore(before_); }
    void redo() override {
        if (std::exchange(first_, false)) return;  // pushed after the edit was made
        history_->restore(after_);
    }

private:
    SetupHistory* history_;
    core::io::ProjectFile before_, after_;
    bool first_ = true;
};

SetupHistory::SetupHistory(QObject* parent) : QObject(parent) {
    stack_.setUndoLimit(200);
}

void SetupHistory::record(const core::io::ProjectFile& now, const QString& what) {
    if (restoring_ || now == current_) return;
    stack_.push(new SetupSnapshot(this, current_, now, what));
    current_ = now;
}

void SetupHistory::reset(const core::io::ProjectFile& now) {
    stack_.clear();
    current_ = now;
}

void SetupHistory::restore(const core::io::ProjectFile& project) {
    restoring_ = true;
    current_ = project;
    emit restoreRequested(project);
    restoring_ = false;
}

}  // namespace tandem::ui
