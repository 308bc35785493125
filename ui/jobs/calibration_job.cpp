#include "ui/jobs/calibration_job.h"

#include <algorithm>
#include <exception>
#include <utility>

#include "core/validation/measured_run_set.h"
#include "core/validation/run_predictor.h"
#include "ui/jobs/background_priority.h"

namespace tandem::ui {

namespace va = core::validation;

namespace {

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
    auto set = request.runsFile.empty() ? va::bundledRunSet(request.bundledSet)
                                        : va::runSetFromFile(request.runsFile, request.start.name);
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

CalibrationJob::CalibrationJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const CalibrationOutcome>>();
    connect(&runner_, &JobRunner::progress, this, &CalibrationJob::progressed);
}

// The runner's destructor cancels the calibration and waits for it; its answer is dropped.
CalibrationJob::~CalibrationJob() = default;

quint64 CalibrationJob::start(CalibrationRequest request) {
    const bool wasRunning = running();
    auto stage = std::make_shared<std::atomic<int>>(int(CalibrationStage::ReadingRuns));
    stage_ = stage;
    using Answer = std::pair<std::shared_ptr<const CalibrationOutcome>, std::string>;
    // Work::Always: a run stopped before it began answers "cancelled" instead of nothing.
    // Starting cancels the run before it (latest wins): it stops and is never heard of.
    const quint64 id = runner_.start(
        [stage, request = std::move(request)](core::RunControl& control) -> Answer {
            lowerCurrentThreadPriority();  // before the predictor's pool exists: it inherits it
            try {
                auto result = runCalibration(request, &control, stage.get());
                if (!result) return {nullptr, result.message()};
                return {std::make_shared<const CalibrationOutcome>(std::move(result).value()), {}};
            } catch (const std::exception& e) {
                // core reports errors as values; this is resource exhaustion and the like.
                return {nullptr, std::string("internal error during the calibration: ") + e.what()};
            }
        },
        [this](quint64 runId, Answer answer) {
            emit runningChanged(false);
            if (answer.first)
                emit finished(runId, answer.first);
            else
                emit failed(runId, text(answer.second));
        },
        JobRunner::Work::Always);
    if (!wasRunning) emit runningChanged(true);
    return id;
}

void CalibrationJob::cancel() {
    // The latest run stops; its answer still comes (failed, or the fit's best point so far).
    if (running()) runner_.stop(runner_.latestId());
}

// JobRunner's progress of the latest run (RunControl throttles it): building the models takes
// the first kBuildShare of the bar, the fit the rest.
void CalibrationJob::progressed(quint64 id, double done, double total, const QString& message) {
    if (id != runner_.latestId() || !stage_) return;
    const double share = total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0.0;
    const bool building = stage_->load(std::memory_order_relaxed) != int(CalibrationStage::Fitting);
    emit progress(id, building ? kBuildShare * share : kBuildShare + (1 - kBuildShare) * share,
                  message);
}

}  // namespace tandem::ui
