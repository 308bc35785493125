#include "ui/jobs/estimate_job.h"
#include "ui/jobs/pool_handoff.h"

#include <QMetaObject>
#include <QPointer>

#include "core/estimate/operator_estimator.h"

namespace tandem::ui {

EstimateJob::EstimateJob(QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(1);
}

EstimateJob::~EstimateJob() {
    pool_.clear();
    pool_.waitForDone();
}

quint64 EstimateJob::request(std::shared_ptr<const core::model::ModelGraph> graph,
                             const core::hardware::HardwarePoint& hardware) {
    const quint64 id = ++latestId_;
    pool_.clear();  // an estimate not yet started is superseded
    QPointer<EstimateJob> self(this);
    startOnPool(pool_, [self, id, graph = std::move(graph), hardware] {
        auto estimator =
            core::estimate::OperatorEstimator::create(hardware.accelerator, hardware.cluster);
        std::shared_ptr<const core::estimate::ModelEstimate> estimate;
        QString message;
        if (!graph)
            message = QObject::tr("no model graph to estimate");
        else if (!estimator)
            message = QString::fromStdString(estimator.message());
        else
            estimate = std::make_shared<const core::estimate::ModelEstimate>(
                core::estimate::estimateModel(*graph, *estimator));
        QMetaObject::invokeMethod(
            self.data(),
            [self, id, graph, estimate, message] {
                if (!self || id != self->latestId_) return;  // a newer point is shown
                if (estimate)
                    emit self->finished(id, graph, estimate);
                else
                    emit self->failed(id, message);
            },
            Qt::QueuedConnection);
    });
    return id;
}

}  // namespace tandem::ui
