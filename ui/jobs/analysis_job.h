#pragma once
// The on-demand analyses of the shown point off the GUI thread — the Sensitivity tab's
// (core::search::analyseSensitivity) and the Scaling tab's (core::search::analyseScaling) — on
// a JobRunner (latest only): a start cancels an older run; stop() asks the running one to finish
// early and still answers with what it measured (the result's `cancelled` set). Every run is
// answered, even one stopped before it began (failed: "stopped before it began"), so a view
// always hears back. Progress counts placements. Destroying the job cancels and waits.
#include <QObject>
#include <QString>
#include <memory>
#include <vector>

#include "core/placement/model_placement.h"
#include "core/search/scaling.h"
#include "core/search/sensitivity.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

class AnalysisJob : public QObject {
    Q_OBJECT
public:
    explicit AnalysisJob(QObject* parent = nullptr);
    ~AnalysisJob() override;

    quint64 startSensitivity(core::placement::ModelPlacementRequest request, double fraction = 0.1);
    quint64 startScaling(core::placement::ModelPlacementRequest request,
                         core::search::ScalingMode mode, std::vector<std::int64_t> sizes);
    void stop();  // the latest run: stops early, answers with what it finished
    bool busy() const { return runner_.busy(); }
    void waitForDone() { runner_.waitForDone(); }

signals:
    void progress(quint64 id, double done, double total, QString message);
    void sensitivityFinished(quint64 id,
                             std::shared_ptr<const tandem::core::search::SensitivityResult> result);
    void scalingFinished(quint64 id,
                         std::shared_ptr<const tandem::core::search::ScalingResult> result);
    void failed(quint64 id, QString message);
    void busyChanged(bool busy);

private:
    // Runs `compute(control)` (an Expected<Result>) and emits `finished` or failed().
    template <typename Result, typename Compute>
    quint64 run(Compute compute,
                void (AnalysisJob::*finished)(quint64, std::shared_ptr<const Result>));

    JobRunner runner_;
};

}  // namespace tandem::ui

Q_DECLARE_METATYPE(std::shared_ptr<const tandem::core::search::SensitivityResult>)
Q_DECLARE_METATYPE(std::shared_ptr<const tandem::core::search::ScalingResult>)
