#pragma once
// Hardware ▸ Calibrate from measurements… in the background (ARCHITECTURE.md §1.13, §4): start()
// hands a CalibrationRequest to the job's own JobRunner (one thread, at background priority, which
// the RunPredictor's worker threads inherit) that reads the measured runs (a CSV file or a bundled
// set), builds the RunPredictor and runs core::calibration::calibrate — the same chain as
// `tandem-cli calibrate`. Every start() gets a new id and cancels the run before it; only the
// latest id's progress and answer are emitted, so a cancelled or superseded run never
// overwrites a newer one (JobRunner's latest-wins). cancel() returns at once: a cancel while the
// predictor is being built answers failed(); a cancel during the fit answers finished() with
// the fit's best point so far (result.cancelled set, not validated). Destroying the job
// cancels the run and waits for it.
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/calibration/calibration.h"
#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/hardware/hardware_point.h"
#include "core/validation/measured_run.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

struct CalibrationRequest {
    std::string runsFile;    // a measured-runs CSV (run_csv_reader.h), or, when empty,
    std::string bundledSet;  // the name of a bundled set ("single-node-a100")
    core::hardware::HardwarePoint start;
    core::calibration::CalibrationOptions options;  // `source` is filled in from the runs
    int threads = 0;                                // of the RunPredictor; ≤ 0: one per core
};

// What a finished calibration shows: the result and the runs it is about (names, shapes and
// measured times, in the result's order).
struct CalibrationOutcome {
    core::calibration::CalibrationResult result;
    std::vector<core::validation::MeasuredRun> runs;
};

// Where runCalibration() is; its progress reports count in that stage's units.
enum class CalibrationStage { ReadingRuns, BuildingModels, Fitting };

// The whole chain on the calling thread: runs, predictor, calibrate. `control` and `stage`
// (set as each stage begins) may be null. Errors: the runs' file or set, the options, the
// predictor (a run it refuses), the fit, "cancelled".
core::Expected<CalibrationOutcome> runCalibration(const CalibrationRequest& request,
                                                  core::RunControl* control = nullptr,
                                                  std::atomic<int>* stage = nullptr);

class CalibrationJob : public QObject {
    Q_OBJECT
public:
    explicit CalibrationJob(QObject* parent = nullptr);
    ~CalibrationJob() override;  // cancels a running calibration and waits for it

    // Starts a calibration (cancelling the previous one) and returns its id.
    quint64 start(CalibrationRequest request);
    // Asks the latest calibration to stop; returns at once. No-op when nothing runs.
    void cancel();

    bool running() const { return runner_.hasCurrentRun(); }
    quint64 latestId() const { return runner_.latestId(); }
    // Waits until every started calibration has finished (the latest still answers through
    // the event loop), for tests.
    void waitForDone() { runner_.waitForDone(); }

signals:
    // `fraction` of the whole run in [0, 1]; `message` says what is being done.
    void progress(quint64 id, double fraction, QString message);
    void finished(quint64 id, std::shared_ptr<const tandem::ui::CalibrationOutcome> outcome);
    void failed(quint64 id, QString message);
    void runningChanged(bool running);

private:
    void progressed(quint64 id, double done, double total, const QString& message);

    JobRunner runner_{JobRunner::Answers::LatestOnly, 1};
    // The latest run's stage (runCalibration sets it on the worker), for its progress fraction.
    std::shared_ptr<std::atomic<int>> stage_;
};

}  // namespace tandem::ui

Q_DECLARE_METATYPE(std::shared_ptr<const tandem::ui::CalibrationOutcome>)
