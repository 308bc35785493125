#include "core/validation/run_predictor.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <tuple>

#include "core/estimate/estimate_cache.h"
#include "core/estimate/operator_estimator.h"
#include "core/hardware/parameter_registry.h"
#include "core/schedule/model_schedule.h"
#include "core/validation/run_request.h"

namespace tandem::core::validation {

namespace {

// (hidden, heads, layers, sequence, padded vocabulary, tied embeddings)
using GptKey =
    std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, bool>;
// (source, t, microbatch, bytes per element, sequence parallel)
using GraphKey =
    std::tuple<std::size_t, std::int64_t, std::int64_t, std::int64_t, bool, bool, bool>;

}  // namespace

RunPredictor::~RunPredictor() = default;

Expected<std::unique_ptr<RunPredictor>> RunPredictor::create(std::vector<MeasuredRun> runs,
                                                             RunPredictorOptions options,
                                                             RunControl* control) {
    if (Status s = options.scheduleOptions.validate(); !s) return Error{s.message()};
    auto base = megatronGptSpec();
    if (!base) return base.error();
    auto pool = search::ThreadPool::create(options.threads);
    if (!pool) return pool.error();
    std::unique_ptr<RunPredictor> p(new RunPredictor());
    p->pool_ = std::move(pool).value();
    p->options_ = options;
    p->scheduler_ = std::make_unique<schedule::LayerScheduler>(options.scheduleOptions);
    p->runs_ = std::move(runs);

    // Model sources, graphs to build and hardware variants, keyed so runs share them.
    std::map<GptKey, std::size_t> sourceIndex;
    std::map<GraphKey, std::size_t> graphIndex;
    std::vector<std::pair<std::size_t, model::BuildOptions>> toBuild;  // (first run, options)
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> jobIndex;
    std::vector<model::ModelSourcePtr> sources;
    for (std::size_t r = 0; r < p->runs_.size(); ++r) {
        if (control && r % 256 == 0 && control->cancelled()) return Error{"cancelled"};
        const MeasuredRun& run = p->runs_[r];
        if (Status s = validateMeasuredRun(run); !s) return Error{run.name + ": " + s.message()};
        const GptKey gpt{run.model.hidden,
                         run.model.heads,
                         run.model.layers,
                         run.model.sequence,
                         paddedVocab(run.model, run.tensor),
                         run.model.tiedEmbeddings};
        auto [source, newSource] = sourceIndex.emplace(gpt, sources.size());
        if (newSource) {
            auto built = gptModelSource(run, *base);
            if (!built) return Error{run.name + ": " + built.message()};
            sources.push_back(std::move(built).value());
        }
        p->sources_.push_back(sources[source->second]);

        const VariantKey variant{run.gpus, run.bytesPerElement, run.precision};
        auto found = std::find(p->variants_.begin(), p->variants_.end(), variant);
        p->runVariant_.push_back(std::size_t(found - p->variants_.begin()));
        if (found == p->variants_.end()) p->variants_.push_back(variant);

        std::vector<Candidate> candidates;
        for (std::int64_t b : microbatchCandidates(run)) {
            const GraphKey key{source->second,      run.tensor,           b,
                               run.bytesPerElement, run.sequenceParallel, run.flashAttention,
                               run.tpCommOverlap};
            auto [graph, newGraph] = graphIndex.emplace(key, toBuild.size());
            if (newGraph) {
                model::BuildOptions build;
                build.microbatch = b;
                build.sequenceLength = run.model.sequence;
                build.tensorParallel = run.tensor;
                build.bytesPerElement = run.bytesPerElement;
                build.sequenceParallel = run.sequenceParallel;
                build.flashAttention = run.flashAttention;
                build.tpCommOverlap = run.tpCommOverlap;
                toBuild.emplace_back(r, build);
            }
            const std::pair jobKey{graph->second, p->runVariant_.back()};
            auto [job, newJob] = jobIndex.emplace(jobKey, p->jobs_.size());
            if (newJob) p->jobs_.push_back({jobKey.first, jobKey.second});
            candidates.push_back({b, graph->second, job->second});
        }
        p->candidates_.push_back(std::move(candidates));
    }

    p->graphs_.resize(toBuild.size());
    std::vector<std::optional<Error>> errors(toBuild.size());
    const std::string label = options.progressLabel.empty() ? "" : options.progressLabel + ": ";
    std::atomic<std::int64_t> built{0};
    p->pool_->parallelFor(std::int64_t(toBuild.size()), [&](std::int64_t i) {
        if (control && control->cancelled()) return;
        const auto& [run, build] = toBuild[std::size_t(i)];
        auto graph = p->sources_[run]->build(build);
        if (!graph)
            errors[std::size_t(i)] = Error{p->runs_[run].name + ": " + graph.message()};
        else
            p->graphs_[std::size_t(i)] =
                std::make_shared<const model::ModelGraph>(std::move(graph).value());
        if (control)
            control->report(double(++built), double(toBuild.size()), label + "building models");
    });
    if (control && control->cancelled()) return Error{"cancelled"};
    for (const auto& e : errors)
        if (e) return *e;
    return p;
}

Expected<RunPrediction> RunPredictor::predictRun(
    std::size_t r, const hardware::HardwarePoint& variant,
    const std::vector<placement::WidthInput>& widths) const {
    const MeasuredRun& run = runs_[r];
    placement::ModelPlacementRequest request;
    request.model = sources_[r];
    request.hardware = variant;
    request.costModel = options_.costModel;
    request.scheduleOptions = options_.scheduleOptions;
    RunPrediction best;
    best.reason = "no microbatch size fits in HBM";
    for (const Candidate& c : candidates_[r]) {
        request.training = runTraining(run, c.microbatch);
        auto evaluated = placement::evaluateStrategyOn(request, runStrategy(run), widths[c.job]);
        if (!evaluated) return Error{run.name + ": " + evaluated.message()};
        const placement::FixedStrategyResult& result = evaluated->result;
        if (!result.fits || !result.plan) {
            if (candidates_[r].size() == 1) best.reason = result.reason;
            continue;
        }
        if (!best.fits || result.plan->timePerBatchSeconds < best.predictedSeconds) {
            best.fits = true;
            best.reason.clear();
            best.microbatch = c.microbatch;
            best.predictedSeconds = result.plan->timePerBatchSeconds;
        }
    }
    if (best.fits) {
        best.predictedTflopsPerGpu = tflopsPerGpu(run, best.predictedSeconds);
        best.error = best.predictedSeconds / run.measuredSeconds - 1.0;
    }
    return best;
}

Expected<std::vector<RunPrediction>> RunPredictor::predict(const hardware::HardwarePoint& hardware,
                                                           RunControl* control) const {
    RunControl quiet(RunControl::SilentChildOf{control});
    const double total = double(jobs_.size() + runs_.size());
    std::atomic<std::int64_t> done{0};
    const std::string label = options_.progressLabel.empty() ? "" : options_.progressLabel + ": ";
    const auto report = [&](const char* what) {
        if (control) control->report(double(++done), total, label + what);
    };

    // One estimator per hardware variant, all sharing this call's estimate cache.
    auto cache = std::make_shared<estimate::EstimateCache>();
    std::vector<hardware::HardwarePoint> variants;
    std::vector<estimate::OperatorEstimator> estimators;
    for (const VariantKey& key : variants_) {
        MeasuredRun shape;
        shape.gpus = key.gpus;
        shape.bytesPerElement = key.bytesPerElement;
        shape.precision = key.precision;
        placement::ModelPlacementRequest request;
        request.hardware = runHardware(hardware, shape);
        if (Status s = hardware::acceleratorParameters().validate(request.hardware.accelerator); !s)
            return Error{"hardware '" + hardware.name + "' for runs in " +
                         std::string(key.precision ? toString(*key.precision) : "its precision") +
                         ": " + s.message()};
        request.costModel = options_.costModel;
        const hardware::HardwarePoint priced = placement::pricedHardware(request);
        auto estimator =
            estimate::OperatorEstimator::create(priced.accelerator, priced.cluster, cache);
        if (!estimator)
            return Error{"hardware '" + hardware.name + "' with " + std::to_string(key.gpus) +
                         " devices: " + estimator.message()};
        variants.push_back(request.hardware);
        estimators.push_back(std::move(estimator).value());
    }

    std::vector<placement::WidthInput> widths(jobs_.size());
    std::vector<std::optional<Error>> jobErrors(jobs_.size());
    pool_->parallelFor(std::int64_t(jobs_.size()), [&](std::int64_t i) {
        if (quiet.cancelled()) return;
        const Job& job = jobs_[std::size_t(i)];
        const auto& graph = graphs_[job.graph];
        auto schedules =
            schedule::scheduleModel(*graph, estimators[job.variant], *scheduler_, &quiet);
        if (!schedules) {
            jobErrors[std::size_t(i)] = schedules.error();
            return;
        }
        widths[std::size_t(i)] = {
            graph, std::make_shared<const schedule::ModelSchedule>(std::move(schedules).value())};
        report("scheduling layers");
    });
    if (quiet.cancelled()) return Error{"cancelled"};
    // Errors in index order, so the message does not depend on which thread failed first.
    for (std::size_t i = 0; i < jobs_.size(); ++i) {
        if (!jobErrors[i]) continue;
        for (std::size_t r = 0; r < runs_.size(); ++r)
            for (const Candidate& c : candidates_[r])
                if (c.job == i) return Error{runs_[r].name + ": " + jobErrors[i]->message};
    }

    std::vector<RunPrediction> out(runs_.size());
    std::vector<std::optional<Error>> runErrors(runs_.size());
    pool_->parallelFor(std::int64_t(runs_.size()), [&](std::int64_t i) {
        if (quiet.cancelled()) return;
        const std::size_t r = std::size_t(i);
        auto prediction = predictRun(r, variants[runVariant_[r]], widths);
        if (!prediction)
            runErrors[r] = prediction.error();
        else
            out[r] = std::move(prediction).value();
        report("predicting runs");
    });
    if (quiet.cancelled()) return Error{"cancelled"};
    for (const auto& e : runErrors)
        if (e) return *e;
    return out;
}

}  // namespace tandem::core::validation
