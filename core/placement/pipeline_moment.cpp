#include "core/placement/pipeline_moment.h"

#include <algorithm>

namespace tandem::core::placement {

int PipelineMoment::busyStages() const {
    return int(std::count_if(stages.begin(), stages.end(), [](const StageMoment& s) {
        return s.activity != StageActivity::Idle;
    }));
}

std::vector<double> pipelineSteps(const PipelineTimeline& timeline) {
    return pipelineSteps(std::vector<const PipelineTimeline*>{&timeline});
}

std::vector<double> pipelineSteps(const std::vector<const PipelineTimeline*>& timelines) {
    std::vector<double> steps;
    double makespan = 0;
    std::size_t blocks = 0;
    for (const PipelineTimeline* t : timelines) {
        makespan = std::max(makespan, t->makespanSeconds());
        blocks += t->blocks().size();
    }
    if (blocks == 0) return steps;
    steps.reserve(2 * blocks + 1);
    steps.push_back(0.0);
    for (const PipelineTimeline* t : timelines)
        for (const PipelineBlock& b : t->blocks()) {
            steps.push_back(b.startSeconds);
            steps.push_back(b.endSeconds);
        }
    std::sort(steps.begin(), steps.end());
    const double tolerance = 1e-6 * makespan;
    std::vector<double> unique;
    unique.reserve(steps.size());
    for (double t : steps)
        if (unique.empty() || t - unique.back() > tolerance) unique.push_back(t);
    // The last step is the makespan itself, not an instant within the tolerance below it.
    unique.back() = makespan;
    return unique;
}

PipelineMoment momentAt(const PipelineTimeline& timeline, double seconds) {
    PipelineMoment moment;
    moment.seconds = seconds;
    moment.stages.resize(std::size_t(timeline.stageCount()));
    const double chunks = double(timeline.chunkCount());
    // Within the tolerance pipelineSteps() merges instants, an instant counts as the later one.
    const double at = seconds + 1e-9 * timeline.makespanSeconds();
    for (int k = 0; k < timeline.stageCount(); ++k) {
        StageMoment& stage = moment.stages[std::size_t(k)];
        std::int64_t held = 0;
        const auto blocks = timeline.stageBlocks(k);
        stage.blocksTotal = std::int64_t(blocks.size());
        for (const PipelineBlock& b : blocks) {
            if (b.startSeconds > at) break;  // a stage's blocks run in order
            if (b.endSeconds <= at) ++stage.blocksDone;
            if (b.forward)
                ++held;
            else if (b.endSeconds <= at)
                --held;
            if (b.endSeconds > at) {
                stage.activity = b.forward ? StageActivity::Forward : StageActivity::Backward;
                stage.microbatch = b.microbatch;
                stage.chunk = b.chunk;
            }
        }
        stage.heldMicrobatches = double(held) / chunks;
    }
    return moment;
}

}  // namespace tandem::core::placement
