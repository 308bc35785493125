// PipelineTimeline checked by an independent checker (the 1F1B order written as Megatron's
// warm-up / steady / cool-down loop, every dependency, one block at a time per stage, no needless
// idle time), against the cost model's pipeline term L·(m + S − 1) for equal stage loads, against
// upper and lower bounds for unequal loads, for its errors, and at 64 stages × 512 microbatches.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <tuple>

#include "core/placement/cost_model.h"
#include "core/placement/pipeline_timeline.h"

using namespace tandem::core::placement;

namespace {

struct Op {
    bool forward;
    int microbatch;
};

// The per-stage order as Megatron-LM's PipeDream-Flush loop writes it.
std::vector<Op> megatronOrder(int S, int k, int m) {
    const int warmup = std::min(S - k - 1, m);
    std::vector<Op> ops;
    int f = 0, b = 0;
    for (int w = 0; w < warmup; ++w) ops.push_back({true, f++});
    for (int s = 0; s < m - warmup; ++s) {
        ops.push_back({true, f++});
        ops.push_back({false, b++});
    }
    while (b < m) ops.push_back({false, b++});
    return ops;
}

// Empty when the timeline is a valid as-soon-as-possible 1F1B schedule, else the first problem.
QString check(const PipelineTimeline& t, const std::vector<double>& f, const std::vector<double>& b,
              int m) {
    const int S = int(f.size());
    if (t.stageCount() != S || t.microbatchCount() != m) return "wrong sizes";
    if (t.blocks().size() != std::size_t(2 * S * m)) return "wrong block count";
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<std::vector<double>> fStart(S, std::vector<double>(m, nan)),
        fEnd = fStart, bStart = fStart, bEnd = fStart;
    double latest = 0;
    for (int k = 0; k < S; ++k) {
        const auto order = megatronOrder(S, k, m);
        const auto blocks = t.stageBlocks(k);
        if (blocks.size() != order.size()) return QString("stage %1: block count").arg(k);
        double previousEnd = 0;
        for (std::size_t j = 0; j < blocks.size(); ++j) {
            const auto& x = blocks[j];
            if (x.stage != k || x.forward != order[j].forward ||
                x.microbatch != order[j].microbatch)
                return QString("stage %1 op %2 is not in 1F1B order").arg(k).arg(j);
            const double want = x.forward ? f[k] : b[k];
            if (std::abs(x.durationSeconds() - want) > 1e-12 * (1 + std::abs(x.endSeconds)))
                return QString("stage %1 op %2: duration %3 != %4")
                    .arg(k)
                    .arg(j)
                    .arg(x.durationSeconds())
                    .arg(want);
            if (x.startSeconds < previousEnd)
                return QString("stage %1 op %2 overlaps the previous block").arg(k).arg(j);
            previousEnd = x.endSeconds;
            latest = std::max(latest, x.endSeconds);
            auto& start = x.forward ? fStart : bStart;
            auto& end = x.forward ? fEnd : bEnd;
            start[k][x.microbatch] = x.startSeconds;
            end[k][x.microbatch] = x.endSeconds;
        }
    }
    for (int k = 0; k < S; ++k) {
        const auto blocks = t.stageBlocks(k);
        double previousEnd = 0;
        for (const auto& x : blocks) {
            const int i = x.microbatch;
            double dependency = 0;
            if (x.forward && k > 0) dependency = fEnd[k - 1][i];
            if (!x.forward) dependency = k + 1 < S ? bEnd[k + 1][i] : fEnd[k][i];
            if (std::isnan(dependency)) return "a dependency never ran";
            if (x.startSeconds < dependency)
                return QString("stage %1 microbatch %2 %3 starts before its dependency ends")
                    .arg(k)
                    .arg(i)
                    .arg(x.forward ? "forward" : "backward");
            if (x.startSeconds != std::max(previousEnd, dependency))
                return QString("stage %1 microbatch %2 waits without reason").arg(k).arg(i);
            previousEnd = x.endSeconds;
        }
    }
    if (t.makespanSeconds() != latest) return "makespan is not the latest end";
    return {};
}

PipelineTimeline build(const std::vector<double>& f, const std::vector<double>& b, int m) {
    auto t = PipelineTimeline::build(f, b, m);
    if (!t) qFatal("%s", t.message().c_str());
    return std::move(t).value();
}

}  // namespace

class TestPipelineTimeline : public QObject {
    Q_OBJECT

private slots:
    void checkerAcceptsEveryRandomSchedule() {
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> time(0.0, 3.0);
        int cases = 0;
        for (int S : {1, 2, 3, 5, 8, 13})
            for (int m : {1, 2, 3, 4, 7, 16, 33}) {
                std::vector<double> f(S), b(S);
                for (int k = 0; k < S; ++k) f[k] = time(rng), b[k] = time(rng);
                if (S == 5) f[2] = 0;  // zero-length blocks are legal too
                const auto t = build(f, b, m);
                const QString problem = check(t, f, b, m);
                QVERIFY2(problem.isEmpty(),
                         qPrintable(QString("S=%1 m=%2: %3").arg(S).arg(m).arg(problem)));
                ++cases;
            }
        QCOMPARE(cases, 42);
    }

    void checkerCatchesBrokenSchedules() {
        // The checker must be able to fail: shift one block of a valid schedule.
        const std::vector<double> f{1, 2, 1}, b{2, 2, 3};
        const auto t = build(f, b, 4);
        QVERIFY(check(t, f, b, 4).isEmpty());
        auto broken = build(f, {2, 2, 2.5}, 4);  // wrong durations on the last stage
        QVERIFY(!check(broken, f, b, 4).isEmpty());
        QVERIFY(!check(t, f, b, 5).isEmpty());
    }

    void equalLoadsGiveTheCostModelsPipelineTerm() {
        // Dyadic times keep every sum exact, so the comparison is exact.
        for (const auto& [fw, bw] : {std::pair{0.5, 0.5}, {0.375, 0.625}, {0.25, 1.75}, {2.0, 0.0}})
            for (int S : {1, 2, 3, 4, 8, 16})
                for (int m : {1, 2, 3, 5, 8, 32, 100}) {
                    const std::vector<double> f(S, fw), b(S, bw);
                    const auto t = build(f, b, m);
                    const double load = fw + bw;
                    QCOMPARE(t.makespanSeconds(), load * (m + S - 1));
                    // Every stage idles (S − 1)·L: the plan's bubbleFraction formula.
                    for (int k = 0; k < S; ++k)
                        QCOMPARE(t.bubbleFraction(k), 1 - m * load / (load * (m + S - 1)));
                    QVERIFY(std::abs(t.meanBubbleFraction() - double(S - 1) / (m + S - 1)) < 1e-12);
                }
    }

    void planInputMatchesItsPipelineSeconds() {
        Plan plan;
        plan.microbatchesPerPipeline = 12;
        for (int k = 0; k < 6; ++k) {
            StagePlan stage;
            stage.forwardSeconds = 0.125;
            stage.backwardSeconds = 0.25;
            stage.loadSeconds = 0.375;
            plan.stages.push_back(stage);
        }
        plan.maxStageLoadSeconds = 0.375;
        plan.pipelineSeconds = 0.375 * (12 + 6 - 1);
        const auto t = PipelineTimeline::build(plan);
        QVERIFY(t);
        QCOMPARE(t->makespanSeconds(), plan.pipelineSeconds);
        QCOMPARE(t->blocks().size(), std::size_t(2 * 6 * 12));
    }

    void unequalLoadsStayWithinBounds() {
        std::mt19937 rng(11);
        std::uniform_real_distribution<double> time(0.01, 1.0);
        for (int trial = 0; trial < 300; ++trial) {
            const int S = 1 + int(rng() % 12);
            const int m = 1 + int(rng() % 40);
            std::vector<double> f(S), b(S);
            for (int k = 0; k < S; ++k) f[k] = time(rng), b[k] = time(rng);
            const auto t = build(f, b, m);
            QVERIFY(check(t, f, b, m).isEmpty());
            double maxLoad = 0, lower = 0, before = 0;
            for (int k = 0; k < S; ++k) {
                maxLoad = std::max(maxLoad, f[k] + b[k]);
                // Stage k cannot start before the forwards ahead of it, runs m·load itself, and
                // its last backward still has to travel back through the stages ahead.
                lower = std::max(lower, before + m * (f[k] + b[k]));
                before += f[k] + b[k];
            }
            const double upper = maxLoad * (m + S - 1);
            QVERIFY2(t.makespanSeconds() <= upper * (1 + 1e-12),
                     qPrintable(QString("S=%1 m=%2: %3 > %4")
                                    .arg(S)
                                    .arg(m)
                                    .arg(t.makespanSeconds())
                                    .arg(upper)));
            QVERIFY(t.makespanSeconds() >= lower * (1 - 1e-12));
            for (int k = 0; k < S; ++k) {
                const double busy = m * (f[k] + b[k]);
                QVERIFY(std::abs(t.busySeconds(k) - busy) < 1e-9 * busy);
                QVERIFY(std::abs(t.bubbleFraction(k) - (1 - busy / t.makespanSeconds())) < 1e-9);
            }
        }
    }

    // The native cost model's pipeline time m·Lmax + ΣL − Lmax (DAPPLE's) is the simulated
    // makespan when the last stage is the slowest in both directions (Megatron's LM head makes it
    // so), and never below the makespan while no stage's backward is shorter than its forward.
    void nativePipelineTimeIsTheSimulatedMakespan() {
        std::mt19937 rng(17);
        std::uniform_real_distribution<double> time(0.01, 1.0);
        const auto native = [](const std::vector<double>& f, const std::vector<double>& b, int m) {
            double maxLoad = 0, total = 0;
            for (std::size_t k = f.size(); k-- > 0;) {
                maxLoad = std::max(maxLoad, f[k] + b[k]);
                total = (f[k] + b[k]) + total;
            }
            return CostModel::pipelineSeconds(CostModelKind::Native, maxLoad, total, m,
                                              std::int64_t(f.size()));
        };
        int below = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const int S = 1 + int(rng() % 12);
            const int m = 1 + int(rng() % 40);
            std::vector<double> f(S), b(S);
            for (int k = 0; k < S; ++k) f[k] = time(rng), b[k] = f[k] + time(rng);
            const double heavier = 1 + time(rng);  // the last stage: the slowest both ways
            f[S - 1] = heavier * *std::max_element(f.begin(), f.end());
            b[S - 1] = heavier * *std::max_element(b.begin(), b.end());
            const double simulated = build(f, b, m).makespanSeconds();
            QVERIFY2(std::abs(simulated - native(f, b, m)) <= 1e-12 * simulated,
                     qPrintable(QString("S=%1 m=%2: simulated %3, cost model %4")
                                    .arg(S)
                                    .arg(m)
                                    .arg(simulated, 0, 'g', 17)
                                    .arg(native(f, b, m), 0, 'g', 17)));
            // Any stage the slowest: the formula bounds the schedule from above.
            std::shuffle(f.begin(), f.end(), rng);
            std::shuffle(b.begin(), b.end(), rng);
            for (int k = 0; k < S; ++k)
                if (b[k] < f[k]) std::swap(b[k], f[k]);
            const double shuffled = build(f, b, m).makespanSeconds();
            QVERIFY2(shuffled <= native(f, b, m) * (1 + 1e-12),
                     qPrintable(QString("S=%1 m=%2: simulated %3 above %4")
                                    .arg(S)
                                    .arg(m)
                                    .arg(shuffled, 0, 'g', 17)
                                    .arg(native(f, b, m), 0, 'g', 17)));
            below += shuffled < native(f, b, m) * (1 - 1e-9);
        }
        QVERIFY(below > 0);  // the bound is not always reached when a middle stage is slowest
    }

    // Interleaved 1F1B (V model chunks per stage, Megatron-LM's order): equal loads take
    // L·(m + (S − 1)/V), the cost model's interleaved pipeline term; every chunk of every
    // microbatch runs once each way on every stage, a V-th of the stage's time, never before its
    // dependency (the previous stage, or the last stage's previous chunk; backward the other way),
    // one block at a time per stage.
    void interleavedChunksFollowMegatronsSchedule() {
        for (const auto& [S, m, V] :
             {std::tuple{4, 8, 2}, {4, 16, 2}, {8, 16, 2}, {8, 96, 2}, {4, 8, 4}, {2, 4, 3}}) {
            const double f = 0.25, b = 0.5;
            const auto built =
                PipelineTimeline::build(std::vector<double>(S, f), std::vector<double>(S, b), m, V);
            QVERIFY2(built, built ? "" : built.message().c_str());
            const PipelineTimeline& t = *built;
            QCOMPARE(t.chunkCount(), std::int64_t(V));
            const double expected = (f + b) * (m + double(S - 1) / V);
            QVERIFY2(std::abs(t.makespanSeconds() - expected) <= 1e-9 * expected,
                     qPrintable(QString("S=%1 m=%2 V=%3: %4 != %5")
                                    .arg(S)
                                    .arg(m)
                                    .arg(V)
                                    .arg(t.makespanSeconds())
                                    .arg(expected)));
            std::map<std::tuple<bool, int, int, int>, const PipelineBlock*> byKey;
            for (int k = 0; k < S; ++k) {
                const auto blocks = t.stageBlocks(k);
                QCOMPARE(std::int64_t(blocks.size()), std::int64_t(2 * m * V));
                double free = 0;
                for (const PipelineBlock& block : blocks) {
                    QCOMPARE(block.stage, k);
                    QVERIFY(block.startSeconds >= free - 1e-12);
                    free = block.endSeconds;
                    QVERIFY(std::abs(block.durationSeconds() - (block.forward ? f : b) / V) <
                            1e-12);
                    QVERIFY(block.chunk >= 0 && block.chunk < V);
                    QVERIFY(
                        byKey
                            .emplace(std::tuple{block.forward, k, block.chunk, block.microbatch},
                                     &block)
                            .second);
                }
            }
            QCOMPARE(std::int64_t(byKey.size()), std::int64_t(2 * S * m * V));
            for (const auto& [key, block] : byKey) {
                const auto [forward, k, c, i] = key;
                const PipelineBlock* dep = nullptr;
                if (forward && k > 0) dep = byKey.at({true, k - 1, c, i});
                if (forward && k == 0 && c > 0) dep = byKey.at({true, S - 1, c - 1, i});
                if (!forward && k + 1 < S) dep = byKey.at({false, k + 1, c, i});
                if (!forward && k + 1 == S)
                    dep = c + 1 < V ? byKey.at({false, 0, c + 1, i}) : byKey.at({true, k, c, i});
                if (dep) QVERIFY(block->startSeconds >= dep->endSeconds - 1e-12);
            }
        }
        // Interleaving needs a pipeline and whole rounds of S microbatches.
        QVERIFY(!PipelineTimeline::build({1.0}, {2.0}, 4, 2));
        QVERIFY(!PipelineTimeline::build({1.0, 1.0, 1.0}, {2.0, 2.0, 2.0}, 4, 2));
        QVERIFY(!PipelineTimeline::build({1.0}, {2.0}, 4, 0));
    }

    void badInputIsAnError() {
        auto message = [](const std::vector<double>& f, const std::vector<double>& b,
                          std::int64_t m) {
            auto t = PipelineTimeline::build(f, b, m);
            return t ? std::string() : t.message();
        };
        QVERIFY(message({}, {}, 4).find("no stages") != std::string::npos);
        QVERIFY(message({1, 1}, {1}, 4).find("one of each") != std::string::npos);
        QVERIFY(message({1}, {1}, 0).find("≥ 1") != std::string::npos);
        QVERIFY(message({1, -1}, {1, 1}, 4).find("stage 1 forward") != std::string::npos);
        const double inf = std::numeric_limits<double>::infinity();
        QVERIFY(message({1}, {inf}, 4).find("stage 0 backward") != std::string::npos);
        QVERIFY(message({1}, {std::nan("")}, 4).find("finite") != std::string::npos);
        QVERIFY(message({1, 1}, {1, 1}, std::int64_t(1) << 40).find("blocks") != std::string::npos);
        QVERIFY(!PipelineTimeline::build(Plan{}));
    }

    void largePipelineIsComplete() {
        // 2·S·m blocks, each a valid 1F1B block (bench_views times the build).
        const int S = 64, m = 512;
        std::vector<double> f(S), b(S);
        for (int k = 0; k < S; ++k) f[k] = 1e-3 * (1 + k % 5), b[k] = 2e-3 * (1 + k % 3);
        const auto t = build(f, b, m);
        QCOMPARE(t.blocks().size(), std::size_t(65536));
        QVERIFY(check(t, f, b, m).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPipelineTimeline)
#include "test_pipeline_timeline.moc"
