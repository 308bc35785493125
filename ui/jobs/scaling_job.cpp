#include "ui/jobs/scaling_job.h"

namespace tandem::ui {

namespace {
struct Answer {
    std::shared_ptr<const core::search::ScalingResult> result;
    QString message;
};
}  // namespace

ScalingJob::ScalingJob(QObject* parent)
    : QObject(parent), runner_(JobRunner::Answers::LatestOnly, 1) {
    connect(&runner_, &JobRunner::progress, this, &ScalingJob::progress);
    connect(&runner_, &JobRunner::busyChanged, this, &ScalingJob::busyChanged);
}

ScalingJob::~ScalingJob() {
    runner_.cancel();
}

quint64 ScalingJob::start(core::placement::ModelPlacementRequest request,
                          core::search::ScalingMode mode, std::vector<std::int64_t> sizes) {
    return runner_.start(
        [request = std::move(request), mode, sizes = std::move(sizes)](core::RunControl& control) {
            Answer answer;
            auto result = core::search::analyseScaling(request, mode, sizes, &control);
            if (result)
                answer.result =
                    std::make_shared<const core::search::ScalingResult>(std::move(*result));
            else
                answer.message = QString::fromStdString(result.message());
            return answer;
        },
        [this](quint64 id, Answer answer) {
            if (answer.result)
                emit finished(id, answer.result);
            else
                emit failed(id, answer.message);
        },
        // Answered even when stopped before it began (every size then reads "not evaluated").
        JobRunner::Work::Always);
}

void ScalingJob::stop() {
    if (runner_.latestId() != 0) runner_.stop(runner_.latestId());
}

}  // namespace tandem::ui
