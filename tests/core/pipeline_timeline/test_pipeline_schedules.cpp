// GPipe beside 1F1B, stepping through a batch and the memory each schedule needs (issue 27 item
// 11). Oracles: GPipe's closed form for equal stage loads (forward i on stage k starts at
// (i + k)·F, the j-th backward at (m + S − 1)·F + (j + S − 1 − k)·B), a brute-force scan over
// every block for what a stage does and holds at an instant, the memory model at another
// in-flight count, and a real placement whose 1F1B memory must equal the plan's.
#include <QtTest>
#include <cmath>
#include <map>
#include <random>

#include "core/placement/model_placement.h"
#include "core/placement/pipeline_memory.h"
#include "core/placement/pipeline_moment.h"
#include "core/placement/pipeline_timeline.h"
#include "tests/support/small_placement.h"

using namespace tandem::core::placement;

namespace {

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * (1 + std::abs(a) + std::abs(b));
}

// Brute force: the block of `stage` running at t (start ≤ t < end), and the microbatches whose
// first forward has started and last backward has not ended, over all blocks of the timeline.
StageMoment bruteMoment(const PipelineTimeline& t, int stage, double at) {
    StageMoment out;
    std::map<std::pair<int, int>, std::pair<bool, bool>> started;  // (mb, chunk) → (fwd, bwd end)
    for (const PipelineBlock& b : t.blocks()) {
        if (b.stage != stage) continue;
        if (b.startSeconds <= at && at < b.endSeconds) {
            out.activity = b.forward ? StageActivity::Forward : StageActivity::Backward;
            out.microbatch = b.microbatch;
            out.chunk = b.chunk;
        }
        auto& s = started[{b.microbatch, b.chunk}];
        if (b.forward && b.startSeconds <= at) s.first = true;
        if (!b.forward && b.endSeconds <= at) s.second = true;
        out.blocksDone += b.endSeconds <= at;
        ++out.blocksTotal;
    }
    int held = 0;
    for (const auto& [key, s] : started) held += s.first && !s.second;
    out.heldMicrobatches = double(held) / double(t.chunkCount());
    return out;
}

Plan uniformPlan(int S, int m, double forward, double backward) {
    Plan plan;
    plan.microbatchesPerPipeline = m;
    for (int k = 0; k < S; ++k) {
        StagePlan stage;
        stage.forwardSeconds = forward;
        stage.backwardSeconds = backward;
        stage.loadSeconds = forward + backward;
        stage.inFlightMicrobatches = std::min(S - k, m);
        stage.memory.stashBytesPerMicrobatch = 1000.0 * (k + 1);
        stage.memory.totalBytes = 1e6 + double(stage.inFlightMicrobatches) * 1000.0 * (k + 1);
        stage.memory.capacityBytes = 1.02e6;
        plan.stages.push_back(stage);
    }
    return plan;
}

// The memory of 1F1B and of GPipe for the plan (both timelines must build).
std::pair<ScheduleMemory, ScheduleMemory> bothMemories(const Plan& plan) {
    const auto one = PipelineTimeline::build(plan);
    const auto gpipe = PipelineTimeline::build(plan, PipelineSchedule::GPipe);
    if (!one || !gpipe) qFatal("a timeline of the plan does not build");
    return {scheduleMemory(plan, *one), scheduleMemory(plan, *gpipe)};
}

}  // namespace

class TestPipelineSchedules : public QObject {
    Q_OBJECT
private slots:
    void gpipeFollowsItsClosedForm() {
        for (int S : {1, 2, 4, 7})
            for (int m : {1, 3, 8}) {
                const double F = 0.25, B = 0.5;
                const auto t = PipelineTimeline::build(std::vector<double>(std::size_t(S), F),
                                                       std::vector<double>(std::size_t(S), B), m, 1,
                                                       PipelineSchedule::GPipe);
                QVERIFY2(t, t ? "" : t.message().c_str());
                QCOMPARE(t->schedule(), PipelineSchedule::GPipe);
                QVERIFY(near(t->makespanSeconds(), (m + S - 1) * (F + B)));
                for (int k = 0; k < S; ++k) {
                    const auto blocks = t->stageBlocks(k);
                    QCOMPARE(blocks.size(), std::size_t(2 * m));
                    for (int j = 0; j < 2 * m; ++j) {
                        const PipelineBlock& b = blocks[std::size_t(j)];
                        if (j < m) {
                            QVERIFY(b.forward);
                            QCOMPARE(b.microbatch, j);
                            QVERIFY(near(b.startSeconds, (j + k) * F));
                        } else {
                            const int q = j - m;  // the q-th backward: microbatch m − 1 − q
                            QVERIFY(!b.forward);
                            QCOMPARE(b.microbatch, m - 1 - q);
                            QVERIFY(near(b.startSeconds, (m + S - 1) * F + (q + S - 1 - k) * B));
                        }
                    }
                    QCOMPARE(t->peakInFlight(k), double(m));
                }
                // The same makespan and bubble as 1F1B, which holds at most S − k.
                const auto one = PipelineTimeline::build(std::vector<double>(std::size_t(S), F),
                                                         std::vector<double>(std::size_t(S), B), m);
                QVERIFY(one);
                QVERIFY(near(one->makespanSeconds(), t->makespanSeconds()));
                QVERIFY(near(one->meanBubbleFraction(), t->meanBubbleFraction()));
                for (int k = 0; k < S; ++k)
                    QCOMPARE(one->peakInFlight(k), double(std::min(S - k, m)));
            }
    }

    void gpipeRefusesChunks() {
        const auto t = PipelineTimeline::build({1, 1}, {2, 2}, 4, 2, PipelineSchedule::GPipe);
        QVERIFY(!t);
        QVERIFY(QString::fromStdString(t.message()).contains("GPipe"));
        // From a plan with V = 2, GPipe runs one chunk per stage.
        Plan plan = uniformPlan(2, 4, 1, 2);
        plan.interleave = 2;
        const auto fromPlan = PipelineTimeline::build(plan, PipelineSchedule::GPipe);
        QVERIFY(fromPlan);
        QCOMPARE(fromPlan->chunkCount(), std::int64_t(1));
        QCOMPARE(PipelineTimeline::build(plan)->chunkCount(), std::int64_t(2));
    }

    void momentsMatchABruteForceScan() {
        std::mt19937 random(7);
        std::uniform_real_distribution<double> load(0.1, 1.0);
        int checked = 0;
        for (auto schedule : {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe})
            for (int S : {1, 3, 4})
                for (int m : {1, 4, 8})
                    for (int V : {1, 2}) {
                        if (V > 1 && (schedule == PipelineSchedule::GPipe || S < 2 || m % S))
                            continue;
                        std::vector<double> f, b;
                        for (int k = 0; k < S; ++k) {
                            f.push_back(load(random));
                            b.push_back(2 * load(random));
                        }
                        const auto t = PipelineTimeline::build(f, b, m, V, schedule);
                        QVERIFY(t);
                        const auto steps = pipelineSteps(*t);
                        QCOMPARE(steps.front(), 0.0);
                        QCOMPARE(steps.back(), t->makespanSeconds());
                        for (std::size_t i = 1; i < steps.size(); ++i)
                            QVERIFY(steps[i] > steps[i - 1]);
                        // Every block boundary is a step.
                        for (const PipelineBlock& block : t->blocks())
                            for (double edge : {block.startSeconds, block.endSeconds}) {
                                const auto it =
                                    std::lower_bound(steps.begin(), steps.end(), edge - 1e-9);
                                QVERIFY(it != steps.end() && near(*it, edge));
                            }
                        double peakSeen = 0;
                        for (double at : steps) {
                            const PipelineMoment moment = momentAt(*t, at);
                            QCOMPARE(int(moment.stages.size()), S);
                            for (int k = 0; k < S; ++k) {
                                const StageMoment want = bruteMoment(*t, k, at);
                                const StageMoment& got = moment.stages[std::size_t(k)];
                                QCOMPARE(got.activity, want.activity);
                                QCOMPARE(got.microbatch, want.microbatch);
                                QCOMPARE(got.chunk, want.chunk);
                                QCOMPARE(got.heldMicrobatches, want.heldMicrobatches);
                                QCOMPARE(got.blocksDone, want.blocksDone);
                                QCOMPARE(got.blocksTotal, want.blocksTotal);
                                if (k == 0) peakSeen = std::max(peakSeen, got.heldMicrobatches);
                            }
                            ++checked;
                        }
                        QCOMPARE(peakSeen, t->peakInFlight(0));
                        const PipelineMoment end = momentAt(*t, t->makespanSeconds());
                        QCOMPARE(end.busyStages(), 0);
                        for (const StageMoment& stage : end.stages) QVERIFY(stage.finished());
                        if (S > 1) QVERIFY(momentAt(*t, 0).stages.back().filling());
                        QCOMPARE(momentAt(*t, 0).busyStages(), 1);  // only stage 0 starts
                    }
        QVERIFY(checked > 300);
    }

    void gpipeMemoryAddsTheExtraStashes() {
        const Plan plan = uniformPlan(4, 8, 1, 2);
        const auto [a, g] = bothMemories(plan);
        QVERIFY(a.known && g.known);
        for (int k = 0; k < 4; ++k) {
            const StagePlan& stage = plan.stages[std::size_t(k)];
            QCOMPARE(a.bytes[std::size_t(k)], stage.memory.totalBytes);
            QCOMPARE(g.bytes[std::size_t(k)], 1e6 + 8 * 1000.0 * (k + 1));
        }
        // 1F1B holds 4, 3, 2, 1 of 1, 2, 3, 4 kB: stages 1 and 2 hold most (the first counts).
        QCOMPARE(a.fullestStage, 1);
        QCOMPARE(a.fullestBytes(), 1.006e6);
        QCOMPARE(g.fullestStage, 3);  // GPipe holds 8 everywhere: 8 × 4 kB on the last stage
        QCOMPARE(g.fullestBytes(), 1.032e6);
        QVERIFY(a.fits());
        QVERIFY(!g.fits());  // over the 1.02 MB capacity
    }

    void unrecordedStashIsUnknown() {
        Plan plan = uniformPlan(2, 4, 1, 2);
        plan.stages[1].memory.stashBytesPerMicrobatch = -1;
        const auto t = PipelineTimeline::build(plan, PipelineSchedule::GPipe);
        QVERIFY(t);
        QVERIFY(!scheduleMemory(plan, *t).known);
    }

    void realPlanOneFOneBMemoryIsThePlans() {
        auto placed = placeModel(tandem::test::gpt2XlOn32Tpuv4());
        QVERIFY2(placed, placed ? "" : placed.message().c_str());
        QVERIFY(placed->result.plan);
        const Plan& plan = *placed->result.plan;
        QVERIFY(plan.stages.size() >= 1);
        const auto [a, g] = bothMemories(plan);
        QVERIFY(a.known && g.known);
        for (std::size_t k = 0; k < plan.stages.size(); ++k) {
            const StagePlan& stage = plan.stages[k];
            if (plan.interleave == 1) {
                QCOMPARE(a.peakInFlight[k], double(stage.inFlightMicrobatches));
                QCOMPARE(a.bytes[k], stage.memory.totalBytes);
            }
            QVERIFY(stage.memory.stashBytesPerMicrobatch > 0);
            QCOMPARE(g.peakInFlight[k], double(plan.microbatchesPerPipeline));
            QVERIFY(g.bytes[k] >= a.bytes[k]);
        }
    }
};

QTEST_GUILESS_MAIN(TestPipelineSchedules)
#include "test_pipeline_schedules.moc"
