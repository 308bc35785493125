#include "ui/jobs/sensitivity_job.h"

namespace tandem::ui {

namespace {
struct Answer {
    std::shared_ptr<const core::search::SensitivityResult> result;
    QString message;
};
}  // namespace

SensitivityJob::SensitivityJob(QObject* parent)
    : QObject(parent), runner_(JobRunner::Answers::LatestOnly, 1) {
    connect(&runner_, &JobRunner::progress, this, &SensitivityJob::progress);
    connect(&runner_, &JobRunner::busyChanged, this, &SensitivityJob::busyChanged);
}

SensitivityJob::~SensitivityJob() {
    runner_.cancel();
}

quint64 SensitivityJob::start(core::placement::ModelPlacementRequest request, double fraction) {
    return runner_.start(
        [request = std::move(request), fraction](core::RunControl& control) {
            Answer answer;
            if (control.cancelled()) {
                answer.message = QObject::tr("stopped before it began");
                return answer;
            }
            auto result = core::search::analyseSensitivity(request, fraction, &control);
            if (result)
                answer.result =
                    std::make_shared<const core::search::SensitivityResult>(std::move(*result));
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
        // Answered even when stopped before it began, so the view always hears back.
        JobRunner::Work::Always);
}

void SensitivityJob::stop() {
    if (runner_.latestId() != 0) runner_.stop(runner_.latestId());
}

}  // namespace tandem::ui
