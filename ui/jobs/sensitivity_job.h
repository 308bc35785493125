#pragma once
// The Sensitivity tab's analysis (core::search::analyseSensitivity) off the GUI thread, on a
// JobRunner (latest only): start() cancels an older run; stop() asks the running one to finish
// early and still answers with what it measured (result.cancelled set). Progress counts
// placements. Destroying the job cancels the run and waits for it.
#include <QObject>
#include <QString>
#include <memory>

#include "core/placement/model_placement.h"
#include "core/search/sensitivity.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

class SensitivityJob : public QObject {
    Q_OBJECT
public:
    explicit SensitivityJob(QObject* parent = nullptr);
    ~SensitivityJob() override;

    quint64 start(core::placement::ModelPlacementRequest request, double fraction = 0.1);
    void stop();  // the latest run: stops early, answers with what it finished
    bool busy() const { return runner_.busy(); }
    void waitForDone() { runner_.waitForDone(); }

signals:
    void progress(quint64 id, double done, double total, QString message);
    void finished(quint64 id,
                  std::shared_ptr<const tandem::core::search::SensitivityResult> result);
    void failed(quint64 id, QString message);
    void busyChanged(bool busy);

private:
    JobRunner runner_;
};

}  // namespace tandem::ui

Q_DECLARE_METATYPE(std::shared_ptr<const tandem::core::search::SensitivityResult>)
