#include "ui/jobs/point_evaluation_job.h"

#include <exception>
#include <utility>

#include "ui/jobs/background_priority.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

namespace pl = core::placement;

namespace {
struct Answer {
    std::shared_ptr<const pl::ModelPlacement> placement;
    QString message;
};
}  // namespace

PointEvaluationJob::PointEvaluationJob(QObject* parent)
    : QObject(parent), runner_(new JobRunner(JobRunner::Answers::LatestOnly, 2, this)) {
    qRegisterMetaType<std::shared_ptr<const pl::ModelPlacement>>();
    debounce_.setSingleShot(true);
    connect(&debounce_, &QTimer::timeout, this, &PointEvaluationJob::launch);
}

PointEvaluationJob::~PointEvaluationJob() {
    debounce_.stop();  // the runner, a child, cancels and waits for its runs
}

quint64 PointEvaluationJob::request(pl::ModelPlacementRequest request) {
    pending_ = std::move(request);
    pendingId_ = ++latestId_;
    // Whatever runs now answers an older request and would be dropped: stop wasting cores on it.
    runner_->cancel();
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
    runner_->cancel();
    updateBusy();
}

void PointEvaluationJob::setDebounceMs(int milliseconds) {
    debounceMs_ = std::max(0, milliseconds);
}

bool PointEvaluationJob::busy() const {
    return pending_.has_value() || runner_->hasCurrentRun();
}

qint64 PointEvaluationJob::droppedResults() const {
    return runner_->droppedAnswers();
}

void PointEvaluationJob::launch() {
    debounce_.stop();
    if (!pending_) return;
    const quint64 id = pendingId_;
    pl::ModelPlacementRequest request = std::move(*pending_);
    pending_.reset();
    emit started(id);
    runner_->start(
        [request = std::move(request)](core::RunControl& control) {
            lowerCurrentThreadPriority();
            Answer answer;
            try {
                auto placed = pl::placeModel(request, &control);
                if (placed)
                    answer.placement =
                        std::make_shared<const pl::ModelPlacement>(std::move(placed).value());
                else
                    answer.message = QString::fromStdString(placed.message());
            } catch (const std::exception& e) {
                // core reports errors as values; this only catches resource exhaustion and the
                // like, which must not take the whole application down with a background thread.
                answer.message =
                    tr("Internal error while evaluating: %1").arg(QString::fromUtf8(e.what()));
            }
            return answer;
        },
        [this, id](quint64, Answer answer) {
            if (answer.placement)
                emit finished(id, std::move(answer.placement));
            else
                emit failed(id, answer.message);
            updateBusy();
        });
    updateBusy();
}

void PointEvaluationJob::updateBusy() {
    const bool now = busy();
    if (now == busy_) return;
    busy_ = now;
    emit busyChanged(now);
}

}  // namespace tandem::ui
