#pragma once
// The Summary and Operators tabs' per-operator estimate of the shown point (core's
// estimateModel over the plan's model graph) in the background, on a JobRunner (latest only):
// every request() gets a new id and only the latest id's answer is emitted (on the GUI thread),
// so a slow estimate of an old point never replaces a newer one. Destroying the job waits for a
// running estimate.
#include <QObject>
#include <QString>
#include <memory>

#include "core/estimate/model_estimate.h"
#include "core/hardware/hardware_point.h"
#include "core/model/model_graph.h"

namespace tandem::ui {

class JobRunner;

class EstimateJob : public QObject {
    Q_OBJECT
public:
    explicit EstimateJob(QObject* parent = nullptr);
    ~EstimateJob() override;

    quint64 request(std::shared_ptr<const core::model::ModelGraph> graph,
                    const core::hardware::HardwarePoint& hardware);
    quint64 latestId() const;
    // Waits until the running estimate (if any) has finished, for tests.
    void waitForDone();

signals:
    void finished(quint64 id, std::shared_ptr<const tandem::core::model::ModelGraph> graph,
                  std::shared_ptr<const tandem::core::estimate::ModelEstimate> estimate);
    void failed(quint64 id, QString message);

private:
    JobRunner* runner_ = nullptr;
};

}  // namespace tandem::ui
