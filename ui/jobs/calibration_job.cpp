#include "ui/jobs/calibration_job.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>

#include "core/validation/measured_run_set.h"
#include "core/validation/run_predictor.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/pool_handoff.h"

namespace tandem::ui {

namespace va = core::validation;

namespace {

constexpr int kPollIntervalMs = 100;
// Share of the progress bar for building the models; the fit takes the rest.
constexpr double kBuildShare = 0.1;

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

core::Expected<CalibrationOutcome> runCalibration(const CalibrationRequest& request,
                                                  core::RunControl* control,
                                                  std::atomic<int>* stage) {
    const auto enter = [stage](CalibrationStage s) {
        if (stage) stage->store(int(s), std::memory_order_relaxed);
    };
    enter(CalibrationStage::ReadingRuns);
    if (core::Status s = core::calibration::validateCalibrationOptions(request.options); !s)
        return core::Error{s.message()};
    auto set = request.runsFile.empty()
                   ? va::bundledRunSet(request.bundledSet)
                   : va::runSetFromCsvFile(request.runsFile, request.start.name);
    if (!set) return set.error();
    if (set->runs.empty()) return core::Error{"there are no measured runs to calibrate on"};
    if (control && control->cancelled()) return core::Error{"cancelled"};

    enter(CalibrationStage::BuildingModels);
    va::RunPredictorOptions predictorOptions;
    predictorOptions.threads = request.threads;
    auto predictor = va::RunPredictor::create(set->runs, predictorOptions, control);
    if (!predictor) return predictor.error();

    enter(CalibrationStage::Fitting);
    core::calibration::CalibrationOptions options = request.options;
    options.source =
        request.runsFile.empty() ? "the bundled set '" + set->name + "'" : request.runsFile;
    auto result = core::calibration::calibrate(**predictor, request.start, options, control);
    if (!result) return result.error();
    return CalibrationOutcome{std::move(result).value(), std::move(set->runs)};
}

// State shared by the GUI thread and the worker; everything but `control` and `stage` is
// guarded by `mutex`.
struct CalibrationJob::Run {
    explicit Run(quint64 runId)
        : id(runId), control([this](const core::Progress& p) { onProgress(p); }) {}

    // Called by RunControl on the worker, already throttled.
    void onProgress(const core::Progress& p) {
        const double share = p.total > 0 ? std::clamp(p.done / p.total, 0.0, 1.0) : 0.0;
        const bool building =
            stage.load(std::memory_order_relaxed) != int(CalibrationStage::Fitting);
        std::lock_guard lock(mutex);
        fraction = building ? kBuildShare * share : kBuildShare + (1 - kBuildShare) * share;
        message = p.message;
        progressed = true;
    }

    const quint64 id;
    std::atomic<int> stage{int(CalibrationStage::ReadingRuns)};
    core::RunControl control;
    std::mutex mutex;
    bool progressed = false;  // a report not yet emitted
    double fraction = 0;
    std::string message;
    bool done = false;  // the worker's last act: `outcome` or `error` is final
    std::shared_ptr<const CalibrationOutcome> outcome;
    std::string error;
};

CalibrationJob::CalibrationJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const CalibrationOutcome>>();
    pool_.setMaxThreadCount(1);
    pollTimer_.setInterval(kPollIntervalMs);
    connect(&pollTimer_, &QTimer::timeout, this, &CalibrationJob::poll);
}

CalibrationJob::~CalibrationJob() {
    if (current_) current_->control.cancel();
    pool_.clear();
    pool_.waitForDone();
}

quint64 CalibrationJob::start(CalibrationRequest request) {
    if (current_) current_->control.cancel();  // superseded: it stops and is never heard of
    pool_.clear();                             // one not yet started never starts
    auto run = std::make_shared<Run>(++latestId_);
    const bool wasRunning = current_ != nullptr;
    current_ = run;
    startOnPool(pool_, [run, request = std::move(request)] {
        lowerCurrentThreadPriority();  // before the predictor's pool exists: it inherits it
        std::shared_ptr<const CalibrationOutcome> outcome;
        std::string error;
        try {
            auto result = runCalibration(request, &run->control, &run->stage);
            if (result)
                outcome = std::make_shared<const CalibrationOutcome>(std::move(result).value());
            else
                error = result.message();
        } catch (const std::exception& e) {
            // core reports errors as values; this is resource exhaustion and the like.
            error = std::string("internal error during the calibration: ") + e.what();
        }
        std::lock_guard lock(run->mutex);
        run->outcome = std::move(outcome);
        run->error = std::move(error);
        run->done = true;
    });
    pollTimer_.start();
    if (!wasRunning) emit runningChanged(true);
    return run->id;
}

void CalibrationJob::cancel() {
    if (current_) current_->control.cancel();
}

void CalibrationJob::poll() {
    if (!current_) {
        pollTimer_.stop();
        return;
    }
    const std::shared_ptr<Run> run = current_;
    std::optional<std::pair<double, std::string>> report;
    bool done = false;
    std::shared_ptr<const CalibrationOutcome> outcome;
    std::string error;
    {
        std::lock_guard lock(run->mutex);
        if (std::exchange(run->progressed, false)) report.emplace(run->fraction, run->message);
        done = run->done;
        outcome = run->outcome;
        error = run->error;
    }
    if (report) emit progress(run->id, report->first, text(report->second));
    if (!done) return;
    pollTimer_.stop();
    current_.reset();
    emit runningChanged(false);
    if (outcome)
        emit finished(run->id, outcome);
    else
        emit failed(run->id, text(error));
}

}  // namespace tandem::ui
