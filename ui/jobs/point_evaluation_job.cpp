#include "ui/jobs/point_evaluation_job.h"

#include <QMetaObject>
#include <exception>
#include <utility>

#include "ui/jobs/background_priority.h"
#include "ui/jobs/pool_handoff.h"

namespace tandem::ui {

namespace pl = core::placement;

PointEvaluationJob::PointEvaluationJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const pl::ModelPlacement>>();
    // Two threads: a superseded run may still be unwinding from its cancellation point while
    // the newest one already starts.
    pool_.setMaxThreadCount(2);
    debounce_.setSingleShot(true);
    connect(&debounce_, &QTimer::timeout, this, &PointEvaluationJob::launch);
}

PointEvaluationJob::~PointEvaluationJob() {
    debounce_.stop();
    for (auto& [id, control] : running_) control->cancel();
    // The workers post their answers to this object; once they are done, ~QObject discards
    // the answers that were not delivered yet.
    pool_.waitForDone();
}

quint64 PointEvaluationJob::request(pl::ModelPlacementRequest request) {
    pending_ = std::move(request);
    pendingId_ = ++latestId_;
    // Whatever runs now answers an older request and would be dropped: stop wasting cores on it.
    for (auto& [id, control] : running_) control->cancel();
    debounce_.start(std::max(0, debounceMs_));
    updateBusy();
    return pendingId_;
}

quint64 PointEvaluationJob::evaluateNow() {
    if (!pending_) return 0;
    const quint64 id = pendingId_;
    launch();
    return id;
}

void PointEvaluationJob::cancel() {
    debounce_.stop();
    pending_.reset();
    abandonedId_ = latestId_;
    for (auto& [id, control] : running_) control->cancel();
    updateBusy();
}

void PointEvaluationJob::setDebounceMs(int milliseconds) {
    debounceMs_ = std::max(0, milliseconds);
}

bool PointEvaluationJob::busy() const {
    return pending_.has_value() ||
           (latestId_ > abandonedId_ && running_.find(latestId_) != running_.end());
}

void PointEvaluationJob::launch() {
    debounce_.stop();
    if (!pending_) return;
    const quint64 id = pendingId_;
    pl::ModelPlacementRequest request = std::move(*pending_);
    pending_.reset();
    for (auto& [older, control] : running_) control->cancel();
    auto control = std::make_shared<core::RunControl>();
    running_.emplace(id, control);
    emit started(id);

    startOnPool(pool_, [this, id, request = std::move(request), control] {
        lowerCurrentThreadPriority();
        std::shared_ptr<const pl::ModelPlacement> placement;
        QString message;
        try {
            auto placed = pl::placeModel(request, control.get());
            if (placed)
                placement = std::make_shared<const pl::ModelPlacement>(std::move(placed).value());
            else
                message = QString::fromStdString(placed.message());
        } catch (const std::exception& e) {
            // core reports errors as values; this only catches resource exhaustion and the like,
            // which must not take the whole application down with a background thread.
            message = tr("Internal error while evaluating: %1").arg(QString::fromUtf8(e.what()));
        }
        QMetaObject::invokeMethod(
            this,
            // Copies, not moves: the worker thread may destroy this functor after the GUI
            // thread ran it, ordered by Qt's reference count, which TSan cannot see.
            [this, id, placement = std::move(placement), message = std::move(message)] {
                deliver(id, placement, message);
            },
            Qt::QueuedConnection);
    });
    updateBusy();
}

void PointEvaluationJob::deliver(quint64 id, std::shared_ptr<const pl::ModelPlacement> placement,
                                 QString message) {
    running_.erase(id);
    if (id != latestId_ || id <= abandonedId_) {
        ++dropped_;
    } else if (placement) {
        emit finished(id, std::move(placement));
    } else {
        emit failed(id, message);
    }
    updateBusy();
}

void PointEvaluationJob::updateBusy() {
    const bool now = busy();
    if (now == busy_) return;
    busy_ = now;
    emit busyChanged(now);
}

}  // namespace tandem::ui
