#include "core/placement/pipeline_timeline.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace tandem::core::placement {

namespace {

constexpr double kNotDone = -1;  // times are ≥ 0, so a negative end marks "not run yet"

Status checkTimes(const std::vector<double>& seconds, const char* field) {
    for (std::size_t k = 0; k < seconds.size(); ++k)
        if (!std::isfinite(seconds[k]) || seconds[k] < 0)
            return Error{"pipeline timeline: stage " + std::to_string(k) + " " + field + " = " +
                         std::to_string(seconds[k]) + " s; it must be finite and ≥ 0"};
    return {};
}

}  // namespace

Expected<PipelineTimeline> PipelineTimeline::build(const Plan& plan) {
    std::vector<double> forward, backward;
    for (const StagePlan& stage : plan.stages) {
        forward.push_back(stage.forwardSeconds);
        backward.push_back(stage.backwardSeconds);
    }
    return build(forward, backward, plan.microbatchesPerPipeline);
}

Expected<PipelineTimeline> PipelineTimeline::build(const std::vector<double>& forwardSeconds,
                                                   const std::vector<double>& backwardSeconds,
                                                   std::int64_t microbatches) {
    if (forwardSeconds.empty()) return Error{"pipeline timeline: the plan has no stages"};
    if (forwardSeconds.size() != backwardSeconds.size())
        return Error{"pipeline timeline: " + std::to_string(forwardSeconds.size()) +
                     " forward times but " + std::to_string(backwardSeconds.size()) +
                     " backward times; there must be one of each per stage"};
    if (microbatches < 1)
        return Error{"pipeline timeline: microbatches per pipeline = " +
                     std::to_string(microbatches) + "; it must be ≥ 1"};
    if (Status s = checkTimes(forwardSeconds, "forward"); !s) return Error{s.message()};
    if (Status s = checkTimes(backwardSeconds, "backward"); !s) return Error{s.message()};
    const auto S = std::int64_t(forwardSeconds.size());
    // Division first so the product cannot overflow before the comparison.
    if (microbatches > kMaxBlocks / 2 / S)
        return Error{"pipeline timeline: " + std::to_string(S) + " stages × " +
                     std::to_string(microbatches) + " microbatches need more than " +
                     std::to_string(kMaxBlocks) + " blocks to draw"};

    PipelineTimeline t;
    t.stages_ = int(S);
    t.microbatches_ = microbatches;
    const std::int64_t m = microbatches;
    const std::int64_t perStage = 2 * m;
    t.blocks_.resize(std::size_t(S * perStage));
    t.busy_.assign(std::size_t(S), 0.0);
    std::vector<double> forwardEnd(std::size_t(S * m), kNotDone);
    std::vector<double> backwardEnd(std::size_t(S * m), kNotDone);
    std::vector<std::int64_t> next(std::size_t(S), 0);  // next op index of each stage
    std::vector<double> free(std::size_t(S), 0.0);      // when each stage finishes its last op
    std::vector<int> queue;
    std::vector<char> queued(std::size_t(S), 1);
    for (int k = int(S) - 1; k >= 0; --k) queue.push_back(k);
    auto enqueue = [&](std::int64_t k) {
        if (k < 0 || k >= S || queued[std::size_t(k)]) return;
        queued[std::size_t(k)] = 1;
        queue.push_back(int(k));
    };

    std::int64_t done = 0;
    while (!queue.empty()) {
        const int k = queue.back();
        queue.pop_back();
        queued[std::size_t(k)] = 0;
        const std::int64_t warmup = std::min<std::int64_t>(S - k - 1, m);
        bool progressed = false;
        for (std::int64_t& j = next[std::size_t(k)]; j < perStage; ++j) {
            bool forward = false;
            std::int64_t i = 0;  // microbatch
            if (j < warmup) {
                forward = true, i = j;
            } else if (j < 2 * m - warmup) {
                const std::int64_t r = j - warmup;
                forward = r % 2 == 0;
                i = forward ? warmup + r / 2 : r / 2;
            } else {
                i = j - m;
            }
            const std::size_t self = std::size_t(k * m + i);
            double ready = 0;
            if (forward && k > 0)
                ready = forwardEnd[self - std::size_t(m)];
            else if (!forward && k + 1 < S)
                ready = backwardEnd[self + std::size_t(m)];
            else if (!forward)
                ready = forwardEnd[self];
            if (ready < 0) break;  // the dependency has not run yet
            const double start = std::max(free[std::size_t(k)], ready);
            const double length =
                forward ? forwardSeconds[std::size_t(k)] : backwardSeconds[std::size_t(k)];
            const double end = start + length;
            (forward ? forwardEnd : backwardEnd)[self] = end;
            free[std::size_t(k)] = end;
            t.busy_[std::size_t(k)] += length;
            t.blocks_[std::size_t(k * perStage + j)] =
                PipelineBlock{k, int(i), forward, start, end};
            progressed = true;
            ++done;
        }
        if (progressed) {
            enqueue(k - 1);
            enqueue(k + 1);
        }
    }
    if (done != S * perStage)
        return Error{"pipeline timeline: the 1F1B order stalled after " + std::to_string(done) +
                     " of " + std::to_string(S * perStage) + " blocks (internal error)"};
    t.makespan_ = *std::max_element(free.begin(), free.end());
    return t;
}

std::span<const PipelineBlock> PipelineTimeline::stageBlocks(int stage) const {
    const auto perStage = std::size_t(2 * microbatches_);
    return std::span<const PipelineBlock>(blocks_).subspan(std::size_t(stage) * perStage, perStage);
}

double PipelineTimeline::bubbleFraction(int stage) const {
    if (makespan_ <= 0) return 0;
    return 1 - busy_[std::size_t(stage)] / makespan_;
}

double PipelineTimeline::meanBubbleFraction() const {
    if (makespan_ <= 0 || stages_ == 0) return 0;
    double busy = 0;
    for (double b : busy_) busy += b;
    return 1 - busy / (double(stages_) * makespan_);
}

}  // namespace tandem::core::placement
