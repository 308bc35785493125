#pragma once
// Predicts a set of measured runs on a hardware description, repeatedly and cheaply
// (`tandem-cli validate`, and a calibration that predicts the same runs for many hardware
// descriptions). A run's prediction is placement::evaluateStrategy() of its request
// (run_request.h) — bit for bit: the work is only shared, never approximated.
// - create() builds every model graph the runs need once (one per distinct GPT × t ×
//   microbatch candidate × precision × sequence parallelism) and keeps them;
// - predict(hardware) schedules each distinct (graph, hardware variant) once — the variants
//   are the hardware with each run's GPU count and precision — with one estimate cache for the
//   call and the process-wide layer-schedule cache, then evaluates every run's strategy on
//   those schedules; both phases run on the predictor's thread pool, each run writing its own
//   slot, so results do not depend on the thread count or timing (ARCHITECTURE.md §3.8).
// A run that does not fit in HBM at any microbatch is a prediction with fits = false and the
// reason. predict() reports progress (schedules + runs) on `control` and stops within about a
// second of a cancel with the Error "cancelled". One predict() at a time per predictor.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/hardware/hardware_point.h"
#include "core/model/model_graph.h"
#include "core/model/model_source.h"
#include "core/placement/cost_model_kind.h"
#include "core/placement/model_placement.h"
#include "core/schedule/layer_scheduler.h"
#include "core/schedule/schedule_options.h"
#include "core/search/thread_pool.h"
#include "core/validation/measured_run.h"

namespace tandem::core::validation {

struct RunPrediction {
    bool fits = false;
    std::string reason;                // why nothing fits (fits = false)
    std::int64_t microbatch = 0;       // the run's, or the fastest candidate that fits
    double predictedSeconds = 0;       // iteration time
    double predictedTflopsPerGpu = 0;  // megatronIterationFlops over the predicted time
    double error = 0;                  // predictedSeconds / measuredSeconds − 1
};

struct RunPredictorOptions {
    int threads = 0;  // ≤ 0: one per core
    placement::CostModelKind costModel = placement::CostModelKind::Native;
    schedule::ScheduleOptions scheduleOptions;
    std::string progressLabel;  // prefixes predict()'s progress messages ("single-node-a100")
};

class RunPredictor {
public:
    // Errors: a run that validateMeasuredRun() refuses or whose model cannot be built (both
    // naming the run), invalid options, a thread pool that cannot start, "cancelled" (`control`
    // is polled between graphs; progress: "building models").
    static Expected<std::unique_ptr<RunPredictor>> create(std::vector<MeasuredRun> runs,
                                                          RunPredictorOptions options = {},
                                                          RunControl* control = nullptr);
    ~RunPredictor();

    // One prediction per run, in the runs' order. Errors: hardware the estimator refuses, a
    // run the strategy evaluation refuses (naming it), "cancelled".
    Expected<std::vector<RunPrediction>> predict(const hardware::HardwarePoint& hardware,
                                                 RunControl* control = nullptr) const;

    const std::vector<MeasuredRun>& runs() const { return runs_; }
    std::size_t graphCount() const { return graphs_.size(); }
    int threadCount() const { return pool_->threadCount(); }

private:
    struct Candidate {
        std::int64_t microbatch = 0;
        std::size_t graph = 0;  // into graphs_
        std::size_t job = 0;    // into jobs_: (graph, variant) scheduled per predict()
    };
    struct Job {
        std::size_t graph = 0, variant = 0;
    };
    struct VariantKey {
        std::int64_t gpus = 0, bytesPerElement = 0;
        std::optional<hardware::Precision> precision;
        bool operator==(const VariantKey&) const = default;
    };

    RunPredictor() = default;
    Expected<RunPrediction> predictRun(std::size_t run, const hardware::HardwarePoint& variant,
                                       const std::vector<placement::WidthInput>& widths) const;

    std::vector<MeasuredRun> runs_;
    RunPredictorOptions options_;
    std::vector<model::ModelSourcePtr> sources_;  // per run (shared between runs of one GPT)
    std::vector<std::shared_ptr<const model::ModelGraph>> graphs_;
    std::vector<std::vector<Candidate>> candidates_;  // per run, ascending microbatch
    std::vector<VariantKey> variants_;
    std::vector<std::size_t> runVariant_;  // per run, into variants_
    std::vector<Job> jobs_;
    std::unique_ptr<schedule::LayerScheduler> scheduler_;
    std::unique_ptr<search::ThreadPool> pool_;
};

}  // namespace tandem::core::validation
