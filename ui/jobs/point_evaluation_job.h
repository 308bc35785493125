#pragma once
// Re-evaluates the single design point the user is editing, in the background (ARCHITECTURE.md
// §4.3): every edit calls request(), which tags the request with a new id and restarts a debounce
// timer; when the timer fires only the latest request runs core::placement::placeModel on a
// JobRunner (latest only, two threads: a superseded run may still be unwinding from its
// cancellation point while the newest one starts), which cancels the run before it. Latest
// request wins: started / finished / failed are emitted on the GUI thread and only for the
// latest id, so a slow answer to an old edit can never overwrite a newer one; answers that
// arrive for an older id are dropped and counted (droppedResults()). Results are immutable
// snapshots (shared_ptr<const ModelPlacement>) that the views may keep as long as they like.
// Destroying the job cancels whatever runs and waits for it, so it may be deleted at any time.
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <optional>

#include "core/placement/model_placement.h"

namespace tandem::ui {

class JobRunner;

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
    qint64 droppedResults() const;

signals:
    void started(quint64 id);
    void finished(quint64 id,
                  std::shared_ptr<const tandem::core::placement::ModelPlacement> placement);
    void failed(quint64 id, QString message);
    void busyChanged(bool busy);

private:
    void launch();
    void updateBusy();

    JobRunner* runner_ = nullptr;
    QTimer debounce_;
    int debounceMs_ = kDefaultDebounceMs;
    std::optional<core::placement::ModelPlacementRequest> pending_;
    quint64 pendingId_ = 0;
    quint64 latestId_ = 0;
    bool busy_ = false;
};

}  // namespace tandem::ui

Q_DECLARE_METATYPE(std::shared_ptr<const tandem::core::placement::ModelPlacement>)
