#pragma once
// The PipeDream-Flush (1F1B) schedule of one pipeline replica, block by block, for the pipeline
// view: stage k first runs w_k = min(S − k − 1, m) warm-up forwards, then alternates one forward
// and one backward until every forward has run, then drains the remaining w_k backwards. A
// forward of microbatch i on stage k waits for the same forward on k − 1; a backward waits for
// the same backward on k + 1 (the last stage: for its own forward). With V model chunks per
// stage (interleaved 1F1B, Narayanan et al. 2021) Megatron-LM's order: 2(S − k − 1) + (V − 1)·S
// warm-up chunk forwards, then pairs; chunk c of the first stage waits for chunk c − 1 of the
// last, and backward the other way; equal loads L take L·(m + (S − 1)/V). Each stage runs one block
// at a time, in that order, as soon as its dependency allows (an event-driven simulation,
// O(S·m·V)). With equal stage loads L the makespan is L·(m + S − 1), the cost model's pipeline
// term; with unequal loads it is the native model's m·Lmax + ΣL − Lmax when the last stage is
// the slowest both ways and at most that otherwise (while no backward is shorter than its
// forward), and below PHAZE's Lmax·(m + S − 1), which is why the view shows the simulation. Times
// are seconds from the start of the batch; the gradient all-reduce is not part of it.
//
// GPipe (Huang et al. 2019), for comparison: every stage runs all m forwards, then all m
// backwards in reverse order (the last microbatch's first, as the paper's figure 2 draws it),
// with the same dependencies. With equal loads it takes the same L·(m + S − 1), but a stage
// holds the activations of all m microbatches at once where 1F1B holds at most S − k
// (peakInFlight).
#include <cstdint>
#include <span>
#include <vector>

#include "core/common/expected.h"
#include "core/placement/plan.h"

namespace tandem::core::placement {

enum class PipelineSchedule { OneFOneB, GPipe };

// "1F1B" / "GPipe": what the views call each schedule.
const char* scheduleName(PipelineSchedule schedule);

struct PipelineBlock {
    int stage = 0;
    int microbatch = 0;
    bool forward = true;
    double startSeconds = 0;
    double endSeconds = 0;
    int chunk = 0;  // the model chunk (0 … V − 1) under interleaved 1F1B; 0 otherwise
    double durationSeconds() const { return endSeconds - startSeconds; }
};

class PipelineTimeline {
public:
    // Blocks beyond this (2·S·m) are refused rather than exhausting memory.
    static constexpr std::int64_t kMaxBlocks = std::int64_t(1) << 23;

    // The stages' forwardSeconds / backwardSeconds, plan.microbatchesPerPipeline and
    // plan.interleave (GPipe: one chunk per stage, as GPipe has no interleaving).
    static Expected<PipelineTimeline> build(const Plan& plan,
                                            PipelineSchedule schedule = PipelineSchedule::OneFOneB);
    // Errors: no stages, sizes that differ, m < 1, negative or non-finite times, too many blocks,
    // chunks < 1, and for chunks > 1 one stage, m not a multiple of the stages or GPipe. With V
    // chunks each block is one chunk's pass, a V-th of the stage's forward or backward time.
    static Expected<PipelineTimeline> build(const std::vector<double>& forwardSeconds,
                                            const std::vector<double>& backwardSeconds,
                                            std::int64_t microbatches, std::int64_t chunks = 1,
                                            PipelineSchedule schedule = PipelineSchedule::OneFOneB);

    PipelineSchedule schedule() const { return schedule_; }

    int stageCount() const { return stages_; }
    std::int64_t microbatchCount() const { return microbatches_; }
    std::int64_t chunkCount() const { return chunks_; }

    // Stage-major; within a stage in execution order, so start times ascend.
    const std::vector<PipelineBlock>& blocks() const { return blocks_; }
    std::span<const PipelineBlock> stageBlocks(int stage) const;

    double makespanSeconds() const { return makespan_; }
    double busySeconds(int stage) const { return busy_[std::size_t(stage)]; }
    // Idle share of the stage between 0 and the makespan: 1 − busy / makespan (0 if empty).
    double bubbleFraction(int stage) const;
    // Idle share of all stages together: 1 − Σ busy / (S · makespan).
    double meanBubbleFraction() const;
    // The most microbatches whose activations the stage holds at once: begun forward, backward
    // not yet finished (with V chunks, chunk passes / V). 1F1B: min(S − k, m); GPipe: m.
    double peakInFlight(int stage) const { return peakInFlight_[std::size_t(stage)]; }

private:
    PipelineSchedule schedule_ = PipelineSchedule::OneFOneB;
    int stages_ = 0;
    std::int64_t microbatches_ = 0;
    std::int64_t chunks_ = 1;
    std::vector<PipelineBlock> blocks_;
    std::vector<double> busy_;
    std::vector<double> peakInFlight_;
    double makespan_ = 0;
};

}  // namespace tandem::core::placement
