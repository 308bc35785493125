#include "ui/jobs/analysis_job.h"

namespace tandem::ui {

AnalysisJob::AnalysisJob(QObject* parent)
    : QObject(parent), runner_(JobRunner::Answers::LatestOnly, 1) {
    connect(&runner_, &JobRunner::progress, this, &AnalysisJob::progress);
    connect(&runner_, &JobRunner::busyChanged, this, &AnalysisJob::busyChanged);
}

AnalysisJob::~AnalysisJob() {
    runner_.cancel();
}

template <typename Result, typename Compute>
quint64 AnalysisJob::run(Compute compute,
                         void (AnalysisJob::*finished)(quint64, std::shared_ptr<const Result>)) {
    struct Answer {
        std::shared_ptr<const Result> result;
        QString message;
    };
    return runner_.start(
        [compute = std::move(compute)](core::RunControl& control) {
            Answer answer;
            if (control.cancelled()) {
                answer.message = QObject::tr("stopped before it began");
                return answer;
            }
            auto result = compute(control);
            if (result)
                answer.result = std::make_shared<const Result>(std::move(*result));
            else
                answer.message = QString::fromStdString(result.message());
            return answer;
        },
        [this, finished](quint64 id, Answer answer) {
            if (answer.result)
                emit(this->*finished)(id, answer.result);
            else
                emit failed(id, answer.message);
        },
        JobRunner::Work::Always);
}

quint64 AnalysisJob::startSensitivity(core::placement::ModelPlacementRequest request,
                                      double fraction) {
    return run<core::search::SensitivityResult>(
        [request = std::move(request), fraction](core::RunControl& control) {
            return core::search::analyseSensitivity(request, fraction, &control);
        },
        &AnalysisJob::sensitivityFinished);
}

quint64 AnalysisJob::startScaling(core::placement::ModelPlacementRequest request,
                                  core::search::ScalingMode mode, std::vector<std::int64_t> sizes) {
    return run<core::search::ScalingResult>(
        [request = std::move(request), mode, sizes = std::move(sizes)](core::RunControl& control) {
            return core::search::analyseScaling(request, mode, sizes, &control);
        },
        &AnalysisJob::scalingFinished);
}

void AnalysisJob::stop() {
    if (runner_.latestId() != 0) runner_.stop(runner_.latestId());
}

}  // namespace tandem::ui
