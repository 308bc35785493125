#include "ui/jobs/job_runner.h"

#include <QMetaObject>

namespace tandem::ui {

JobRunner::JobRunner(Answers answers, int threads, QObject* parent)
    : QObject(parent), answers_(answers) {
    pool_.setMaxThreadCount(threads);
}

JobRunner::~JobRunner() {
    for (auto& [id, run] : runs_) run.control->cancel();
    pool_.waitForDone();
}

std::shared_ptr<core::RunControl> JobRunner::begin(quint64 id) {
    if (answers_ == Answers::LatestOnly)
        for (auto& [older, run] : runs_) {
            run.control->cancel();
            run.stale = true;
        }
    JobRunner* self = this;
    auto control = std::make_shared<core::RunControl>([self, id](const core::Progress& p) {
        const QString message = QString::fromStdString(p.message);
        QMetaObject::invokeMethod(
            self,
            [self, id, done = p.done, total = p.total, message] {
                if (self->current(id)) emit self->progress(id, done, total, message);
            },
            Qt::QueuedConnection);
    });
    const bool wasIdle = runs_.empty();
    runs_[id] = Run{control, false};
    if (wasIdle) emit busyChanged(true);
    return control;
}

bool JobRunner::current(quint64 id) const {
    const auto it = runs_.find(id);
    return it != runs_.end() && !it->second.stale;
}

bool JobRunner::hasCurrentRun() const {
    for (const auto& [id, run] : runs_)
        if (!run.stale) return true;
    return false;
}

bool JobRunner::end(quint64 id, bool answered) {
    const bool deliver = current(id) && answered;
    if (answered && !deliver) ++dropped_;
    runs_.erase(id);
    if (runs_.empty()) emit busyChanged(false);
    return deliver;
}

void JobRunner::cancel(quint64 id) {
    if (auto it = runs_.find(id); it != runs_.end()) {
        it->second.control->cancel();
        it->second.stale = true;
    }
}

void JobRunner::stop(quint64 id) {
    if (auto it = runs_.find(id); it != runs_.end()) it->second.control->cancel();
}

void JobRunner::cancel() {
    for (auto& [id, run] : runs_) {
        run.control->cancel();
        run.stale = true;
    }
}

}  // namespace tandem::ui
