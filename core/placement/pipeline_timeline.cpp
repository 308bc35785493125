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

const char* scheduleName(PipelineSchedule schedule) {
    return schedule == PipelineSchedule::GPipe ? "GPipe" : "1F1B";
}

Expected<PipelineTimeline> PipelineTimeline::build(const Plan& plan, PipelineSchedule schedule) {
    std::vector<double> forward, backward;
    for (const StagePlan& stage : plan.stages) {
        forward.push_back(stage.forwardSeconds);
        backward.push_back(stage.backwardSeconds);
    }
    return build(forward, backward, plan.microbatchesPerPipeline,
                 schedule == PipelineSchedule::GPipe ? 1 : plan.interleave, schedule);
}

namespace {

struct Op {
    bool forward = true;
    std::int64_t chunk = 0;
    std::int64_t microbatch = 0;
};

// The j-th operation of stage k (of S, m microbatches, V chunks). V = 1: PipeDream-Flush's
// w = min(S − k − 1, m) warm-up forwards, one forward and one backward alternately, the w
// backwards left. V > 1: Megatron-LM's interleaved order over the m·V chunk-microbatches —
// w = min(2(S − k − 1) + (V − 1)·S, m·V) warm-up forwards, then forward/backward pairs; the q-th
// forward runs chunk (q / S) mod V of microbatch (q / (S·V))·S + q mod S, the q-th backward
// the chunks in reverse order. GPipe: the m forwards, then the m backwards last one first.
Op opAt(std::int64_t j, std::int64_t k, std::int64_t S, std::int64_t m, std::int64_t V,
        PipelineSchedule schedule) {
    if (schedule == PipelineSchedule::GPipe)
        return j < m ? Op{true, 0, j} : Op{false, 0, 2 * m - 1 - j};
    const std::int64_t total = m * V;
    const std::int64_t warmup =
        V == 1 ? std::min(S - k - 1, m) : std::min(2 * (S - k - 1) + (V - 1) * S, total);
    bool forward = true;
    std::int64_t q = 0;
    if (j < warmup) {
        q = j;
    } else if (j < 2 * total - warmup) {
        const std::int64_t r = j - warmup;
        forward = r % 2 == 0;
        q = forward ? warmup + r / 2 : r / 2;
    } else {
        forward = false;
        q = j - total;
    }
    if (V == 1) return Op{forward, 0, q};
    const std::int64_t round = (q / S) % V;
    return Op{forward, forward ? round : V - 1 - round, (q / (S * V)) * S + q % S};
}

}  // namespace

Expected<PipelineTimeline> PipelineTimeline::build(const std::vector<double>& forwardSeconds,
                                                   const std::vector<double>& backwardSeconds,
                                                   std::int64_t microbatches, std::int64_t chunks,
                                                   PipelineSchedule schedule) {
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
    const std::int64_t V = chunks;
    if (V < 1 || V > kMaxBlocks)
        return Error{"pipeline timeline: " + std::to_string(V) +
                     " model chunks per stage; it must be ≥ 1"};
    if (V > 1 && schedule == PipelineSchedule::GPipe)
        return Error{"pipeline timeline: GPipe runs one model chunk per stage, not " +
                     std::to_string(V)};
    if (V > 1 && (S < 2 || microbatches % S != 0))
        return Error{"pipeline timeline: interleaved 1F1B with " + std::to_string(V) +
                     " chunks needs at least 2 stages and microbatches per pipeline (" +
                     std::to_string(microbatches) + ") a multiple of the " + std::to_string(S) +
                     " stages"};
    // Division first so the product cannot overflow before the comparison.
    if (microbatches > kMaxBlocks / 2 / S / V)
        return Error{"pipeline timeline: " + std::to_string(S) + " stages × " +
                     std::to_string(microbatches) + " microbatches × " + std::to_string(V) +
                     " chunks need more than " + std::to_string(kMaxBlocks) + " blocks to draw"};

    PipelineTimeline t;
    t.schedule_ = schedule;
    t.stages_ = int(S);
    t.microbatches_ = microbatches;
    t.chunks_ = V;
    const std::int64_t m = microbatches;
    const std::int64_t perStage = 2 * m * V;
    t.blocks_.resize(std::size_t(S * perStage));
    t.busy_.assign(std::size_t(S), 0.0);
    // End times by (stage, chunk, microbatch).
    std::vector<double> forwardEnd(std::size_t(S * V * m), kNotDone);
    std::vector<double> backwardEnd(std::size_t(S * V * m), kNotDone);
    const auto at = [&](std::int64_t k, std::int64_t c, std::int64_t i) {
        return std::size_t((k * V + c) * m + i);
    };
    std::vector<std::int64_t> next(std::size_t(S), 0);  // next op index of each stage
    std::vector<double> free(std::size_t(S), 0.0);      // when each stage finishes its last op
    std::vector<int> queue;
    std::vector<char> queued(std::size_t(S), 1);
    for (int k = int(S) - 1; k >= 0; --k) queue.push_back(k);
    auto enqueue = [&](std::int64_t k) {
        k = (k + S) % S;  // interleaved chunks hand over from the last stage to the first
        if (queued[std::size_t(k)]) return;
        queued[std::size_t(k)] = 1;
        queue.push_back(int(k));
    };

    std::int64_t done = 0;
    while (!queue.empty()) {
        const int k = queue.back();
        queue.pop_back();
        queued[std::size_t(k)] = 0;
        bool progressed = false;
        for (std::int64_t& j = next[std::size_t(k)]; j < perStage; ++j) {
            const Op op = opAt(j, k, S, m, V, schedule);
            const std::int64_t c = op.chunk, i = op.microbatch;
            // A forward waits for the previous stage's (the first stage: the last stage's
            // previous chunk); a backward for the next stage's (the last stage: the first
            // stage's next chunk, or its own forward of the last chunk).
            double ready = 0;
            if (op.forward) {
                if (k > 0)
                    ready = forwardEnd[at(k - 1, c, i)];
                else if (c > 0)
                    ready = forwardEnd[at(S - 1, c - 1, i)];
            } else if (k + 1 < S) {
                ready = backwardEnd[at(k + 1, c, i)];
            } else {
                ready = c + 1 < V ? backwardEnd[at(0, c + 1, i)] : forwardEnd[at(k, c, i)];
            }
            if (ready < 0) break;  // the dependency has not run yet
            const double start = std::max(free[std::size_t(k)], ready);
            const double length =
                (op.forward ? forwardSeconds[std::size_t(k)] : backwardSeconds[std::size_t(k)]) /
                double(V);
            const double end = start + length;
            (op.forward ? forwardEnd : backwardEnd)[at(k, c, i)] = end;
            free[std::size_t(k)] = end;
            t.busy_[std::size_t(k)] += length;
            t.blocks_[std::size_t(k * perStage + j)] =
                PipelineBlock{k, int(i), op.forward, start, end, int(c)};
            progressed = true;
            ++done;
        }
        if (progressed) {
            if (k > 0 || V > 1) enqueue(k - 1);
            if (k + 1 < S || V > 1) enqueue(k + 1);
        }
    }
    if (done != S * perStage)
        return Error{std::string("pipeline timeline: the ") + scheduleName(schedule) +
                     " order stalled after " + std::to_string(done) + " of " +
                     std::to_string(S * perStage) + " blocks (internal error)"};
    t.makespan_ = *std::max_element(free.begin(), free.end());
    // Held from the start of a chunk's forward to the end of its backward; a stage runs its
    // blocks in order, so counting along them finds the most held at once.
    t.peakInFlight_.assign(std::size_t(S), 0.0);
    for (int k = 0; k < int(S); ++k) {
        std::int64_t held = 0, peak = 0;
        for (const PipelineBlock& b : t.stageBlocks(k)) {
            held += b.forward ? 1 : -1;
            peak = std::max(peak, held);
        }
        t.peakInFlight_[std::size_t(k)] = double(peak) / double(V);
    }
    return t;
}

std::span<const PipelineBlock> PipelineTimeline::stageBlocks(int stage) const {
    const auto perStage = std::size_t(2 * microbatches_ * chunks_);
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
