#include "ui/jobs/estimate_job.h"

#include "core/estimate/operator_estimator.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

namespace {
struct Answer {
    std::shared_ptr<const core::estimate::ModelEstimate> estimate;
    QString message;
};
}  // namespace

EstimateJob::EstimateJob(QObject* parent)
    : QObject(parent), runner_(new JobRunner(JobRunner::Answers::LatestOnly, 1, this)) {}

EstimateJob::~EstimateJob() = default;

quint64 EstimateJob::latestId() const {
    return runner_->latestId();
}

void EstimateJob::waitForDone() {
    runner_->waitForDone();
}

quint64 EstimateJob::request(std::shared_ptr<const core::model::ModelGraph> graph,
                             const core::hardware::HardwarePoint& hardware) {
    return runner_->start(
        [graph, hardware](core::RunControl&) {
            Answer answer;
            auto estimator =
                core::estimate::OperatorEstimator::create(hardware.accelerator, hardware.cluster);
            if (!graph)
                answer.message = QObject::tr("no model graph to estimate");
            else if (!estimator)
                answer.message = QString::fromStdString(estimator.message());
            else
                answer.estimate = std::make_shared<const core::estimate::ModelEstimate>(
                    core::estimate::estimateModel(*graph, *estimator));
            return answer;
        },
        [this, graph](quint64 id, Answer answer) {
            if (answer.estimate)
                emit finished(id, graph, answer.estimate);
            else
                emit failed(id, answer.message);
        });
}

}  // namespace tandem::ui
