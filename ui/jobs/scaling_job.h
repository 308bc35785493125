#pragma once
// The Scaling tab's analysis (core::search::analyseScaling) off the GUI thread, on a JobRunner
// (latest only): start() cancels an older run; stop() asks the running one to finish early and
// still answers with the sizes it placed (result.cancelled set). Progress counts sizes.
// Destroying the job cancels the run and waits for it.
#include <QObject>
#include <QString>
#include <memory>
#include <vector>

#include "core/placement/model_placement.h"
#include "core/search/scaling.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

class ScalingJob : public QObject {
    Q_OBJECT
public:
    explicit ScalingJob(QObject* parent = nullptr);
    ~ScalingJob() override;

    quint64 start(core::placement::ModelPlacementRequest request, core::search::ScalingMode mode,
                  std::vector<std::int64_t> sizes);
    void stop();
    bool busy() const { return runner_.busy(); }
    void waitForDone() { runner_.waitForDone(); }

signals:
    void progress(quint64 id, double done, double total, QString message);
    void finished(quint64 id, std::shared_ptr<const tandem::core::search::ScalingResult> result);
    void failed(quint64 id, QString message);
    void busyChanged(bool busy);

private:
    JobRunner runner_;
};

}  // namespace tandem::ui

Q_DECLARE_METATYPE(std::shared_ptr<const tandem::core::search::ScalingResult>)
