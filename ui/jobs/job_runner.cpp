#include "ui/jobs/job_runner.h"

#include <QMetaObject>
#include <utility>

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
    auto control = std::make_shared<core::RunControl>(
        [self, id](const core::Progress& p) { self->postProgress(id, p); });
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

void JobRunner::wakeLocked() {
    if (wakePosted_) return;
    wakePosted_ = true;
    // By name: the queued call carries no functor built on this thread.
    QMetaObject::invokeMethod(this, "drainMailbox", Qt::QueuedConnection);
}

void JobRunner::postHandoff(std::function<void()> handoff) {
    const std::lock_guard lock(mailboxMutex_);
    handoffs_.push_back(std::move(handoff));
    wakeLocked();
}

void JobRunner::postProgress(quint64 id, const core::Progress& progress) {
    const std::lock_guard lock(mailboxMutex_);
    progress_[id] = progress;
    wakeLocked();
}

void JobRunner::drainMailbox() {
    std::map<quint64, core::Progress> reports;
    {
        const std::lock_guard lock(mailboxMutex_);
        reports.swap(progress_);
        wakePosted_ = false;  // what arrives from now on wakes a drain of its own
    }
    for (const auto& [id, p] : reports)
        if (current(id)) emit progress(id, p.done, p.total, QString::fromStdString(p.message));
    // One hand-off at a time: an answer that opens a dialog (a nested event loop) lets later
    // drains deliver the rest, still in posting order.
    for (;;) {
        std::function<void()> handoff;
        {
            const std::lock_guard lock(mailboxMutex_);
            if (handoffs_.empty()) return;
            handoff = std::move(handoffs_.front());
            handoffs_.pop_front();
        }
        handoff();
    }
}

}  // namespace tandem::ui
