#pragma once
// Stepping through a PipelineTimeline, for the Pipeline tab's playback: the instants at which a
// block starts or ends (the steps), and at any instant what each stage does — a forward, a
// backward or nothing (the bubble) — and how many microbatches' activations it holds.
#include <cstdint>
#include <vector>

#include "core/placement/pipeline_timeline.h"

namespace tandem::core::placement {

enum class StageActivity { Idle, Forward, Backward };

struct StageMoment {
    StageActivity activity = StageActivity::Idle;
    int microbatch = -1;  // 0-based; −1 when idle
    int chunk = 0;
    double heldMicrobatches = 0;  // forwards begun, backwards not finished (chunk passes / V)
    std::int64_t blocksDone = 0;  // blocks of the stage finished by then
    std::int64_t blocksTotal = 0;
    // Idle before its first block (the pipeline is filling) or after its last (done); idle in
    // between, it waits for a neighbour.
    bool filling() const { return activity == StageActivity::Idle && blocksDone == 0; }
    bool finished() const { return blocksDone == blocksTotal; }
};

struct PipelineMoment {
    double seconds = 0;
    std::vector<StageMoment> stages;  // one per stage
    int busyStages() const;
};

// Every instant at which a block of the timeline starts or ends, ascending and without repeats
// (instants closer than a millionth of the makespan are one): the first is 0, the last the
// makespan. Empty for an empty timeline. Of several timelines (GPipe beside 1F1B): the instants
// of all, the last the longest makespan.
std::vector<double> pipelineSteps(const PipelineTimeline& timeline);
std::vector<double> pipelineSteps(const std::vector<const PipelineTimeline*>& timelines);

// The timeline at `seconds`: a block runs on [start, end), so at an instant where one block ends
// and the next starts the stage runs the next; at the makespan every stage is idle. A forward
// counts as held from its start, a backward releases its microbatch at its end.
PipelineMoment momentAt(const PipelineTimeline& timeline, double seconds);

}  // namespace tandem::core::placement
