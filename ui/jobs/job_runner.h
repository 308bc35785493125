#pragma once
// The one way the app runs work off the GUI thread (ARCHITECTURE.md §4.1). Every run gets an
// id and a core::RunControl (cancel, throttled progress); it runs on the runner's private pool
// and its answer is delivered on the runner's thread, unless it has gone stale:
//   - LatestOnly (a view's answer): starting a run cancels the older ones and drops their
//     answers, so a slow answer for an old request never replaces a newer one;
//   - Every (files that must all be written): every run is answered, in order (one thread).
// cancel() cancels every run and drops their answers. Destroying the runner cancels, then waits
// for the running task: no answer and no work outlives it. busyChanged(false) comes before the
// last answer, so a dialog about it never sits over a busy indicator.
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

#include "core/common/run_control.h"
#include "ui/jobs/pool_handoff.h"

namespace tandem::ui {

class JobRunner : public QObject {
    Q_OBJECT
public:
    enum class Answers { LatestOnly, Every };
    // A run cancelled before its work started skips the work (UnlessCancelled), or does it
    // anyway (Always: a file that must be written even when its writer is being destroyed).
    enum class Work { UnlessCancelled, Always };

    explicit JobRunner(Answers answers, int threads = 1, QObject* parent = nullptr);
    ~JobRunner() override;

    // Runs `work(core::RunControl&)` on the pool, then `deliver(id, answer)` on this object's
    // thread if the run is still current. Returns the run's id (ids increase from 1).
    template <typename Task, typename Deliver>
    quint64 start(Task work, Deliver deliver, Work when = Work::UnlessCancelled);

    void cancel();
    void cancel(quint64 id);  // that run only: cancelled, its answer dropped
    // That run only: asked to stop (its RunControl cancelled), its answer still delivered — the
    // partial answer of work that stops early, such as a search's finished points. A run stopped
    // before its work started is answered only when it was started with Work::Always.
    void stop(quint64 id);
    quint64 latestId() const { return latestId_; }
    bool busy() const { return !runs_.empty(); }        // any run not finished, stale ones too
    bool hasCurrentRun() const;                         // a run whose answer is still wanted
    qint64 droppedAnswers() const { return dropped_; }  // answers computed, then not wanted
    // Blocks until no task runs (for tests and shutdown; answers still arrive as events).
    void waitForDone() { pool_.waitForDone(); }

signals:
    void busyChanged(bool busy);
    void progress(quint64 id, double done, double total, QString message);

private slots:
    // Runs on this object's thread: emits the latest progress of each current run, then the
    // posted hand-offs in the order they were posted.
    void drainMailbox();

private:
    struct Run {
        std::shared_ptr<core::RunControl> control;
        bool stale = false;
    };
    std::shared_ptr<core::RunControl> begin(quint64 id);
    // Bookkeeping of a finished run (`answered`: its work ran); true when its answer is to be
    // delivered.
    bool end(quint64 id, bool answered);
    bool current(quint64 id) const;
    // Called on a pool thread. What a worker hands to this object's thread goes through a
    // mailbox guarded by a std::mutex, and the queued event that wakes drainMailbox carries no
    // data: ThreadSanitizer sees the mutex, and Qt's own (uninstrumented, futex-based) event
    // queue orders nothing TSan has to know about. Progress is coalesced: only the latest
    // report of a run waits, and one wake-up event at most is pending.
    void postHandoff(std::function<void()> handoff);
    void postProgress(quint64 id, const core::Progress& progress);
    void wakeLocked();  // mailboxMutex_ held

    std::mutex mailboxMutex_;
    std::deque<std::function<void()>> handoffs_;  // guarded by mailboxMutex_
    std::map<quint64, core::Progress> progress_;  // guarded by mailboxMutex_
    bool wakePosted_ = false;                     // guarded by mailboxMutex_

    Answers answers_;
    QThreadPool pool_;
    quint64 latestId_ = 0;
    std::map<quint64, Run> runs_;
    qint64 dropped_ = 0;
};

template <typename Task, typename Deliver>
quint64 JobRunner::start(Task work, Deliver deliver, Work when) {
    using Answer = decltype(work(std::declval<core::RunControl&>()));
    // What goes back to this object's thread lives in one shared block, which the mailbox's
    // hand-off (a copyable std::function) holds while it waits.
    struct Delivery {
        Deliver deliver;
        std::optional<Answer> answer;
    };
    auto delivery = std::make_shared<Delivery>(Delivery{std::move(deliver), std::nullopt});
    const quint64 id = ++latestId_;
    std::shared_ptr<core::RunControl> control = begin(id);
    // The runner outlives every task (its destructor waits), and Qt drops events posted to an
    // object that is destroyed before they arrive: the raw pointer is safe on both threads.
    JobRunner* self = this;
    startOnPool(pool_, [self, id, control, when, delivery, work = std::move(work)]() mutable {
        if (when == Work::Always || !control->cancelled()) delivery->answer.emplace(work(*control));
        self->postHandoff([self, id, delivery] {
            if (self->end(id, delivery->answer.has_value()))
                delivery->deliver(id, std::move(*delivery->answer));
        });
    });
    return id;
}

}  // namespace tandem::ui
