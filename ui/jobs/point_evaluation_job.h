#pragma once
// Re-evaluates the single design point the user is editing, in the background (ARCHITECTURE.md
// §4.3): every edit calls request(), which tags the request with a new id and restarts a debounce
// timer; when the timer fires only the latest request runs core::placement::placeModel on a
// private thread pool, and the run before it is cancelled through its RunControl. Latest
// request wins: started / finished / failed are emitted on the GUI thread and only for the
// latest id, so a slow answer to an old edit can never overwrite a newer one; answers that
// arrive for an older id are dropped and counted (droppedResults()). Results are immutable
// snapshots (shared_ptr<const ModelPlacement>) that the views may keep as long as they like.
// Destroying the job cancels whatever runs and waits for it, so it may be deleted at any time.
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>
#include <map>
#include <memory>
#include <optional>

#include "core/common/run_control.h"
#include "core/placement/model_placement.h"

namespace tandem::ui {

class PointEvaluationJob : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultDebounceMs = 250;

    explicit PointEvaluationJob(QObject* parent = nullptr);
    ~PointEvaluationJob() override;  // cancels every run and waits for it

    // Queues `request` as the latest one and (re)starts the debounce timer; returns its id
    // (1, 2, 3, … per job). A request that is superseded before its timer fires never runs.
    quint64 request(core::placement::ModelPlacementRequest request);
    // Runs the pending request at once, skipping the debounce; returns its id, or 0 when there
    // is nothing pending (the latest request already runs or has answered).
    quint64 evaluateNow();
    // Drops the pending request and cancels the running one; nothing more is emitted for them.
    void cancel();

    void setDebounceMs(int milliseconds);  // < 0 is treated as 0 (run on the next event loop turn)
    int debounceMs() const { return debounceMs_; }

    // True from request() until the latest id has answered (or was cancelled).
    bool busy() const;
    quint64 latestId() const { return latestId_; }
    // Answers (results or errors, including cancellations) that arrived for an id that was no
    // longer the latest, and were therefore not emitted.
    qint64 droppedResults() const { return dropped_; }

signals:
    void started(quint64 id);
    void finished(quint64 id,
                  std::shared_ptr<const tandem::core::placement::ModelPlacement> placement);
    void failed(quint64 id, QString message);
    void busyChanged(bool busy);

private:
    void launch();
    void deliver(quint64 id, std::shared_ptr<const core::placement::ModelPlacement> placement,
                 QString message);
    void updateBusy();

    QThreadPool pool_;
    QTimer debounce_;
    int debounceMs_ = kDefaultDebounceMs;
    std::optional<core::placement::ModelPlacementRequest> pending_;
    quint64 pendingId_ = 0;
    quint64 latestId_ = 0;
    quint64 abandonedId_ = 0;  // cancel(): ids up to this one are never emitted
    // Runs still on the pool, by id; the RunControl is shared with the worker.
    std::map<quint64, std::shared_ptr<core::RunControl>> running_;
    qint64 dropped_ = 0;
    bool busy_ = false;
};

}  // namespace tandem::ui

Q_DECLARE_METATYPE(std::shared_ptr<const tandem::core::placement::ModelPlacement>)
