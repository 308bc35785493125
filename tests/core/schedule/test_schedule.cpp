// The scheduling semantics on hand-computed instances (modes, lanes, collectives overlapping a
// parallel task, Nops, zero-length tasks, series blocks), input validation, lower bounds against
// the brute-force optimum, and determinism.
#include <QtTest>

#include "qtest_printers.h"

#include <limits>

#include "brute_force_scheduler.h"
#include "core/schedule/lower_bounds.h"
#include "core/schedule/problem_analysis.h"
#include "core/schedule/schedule_instance.h"
#include "core/schedule/state_space_search.h"
#include "schedule_test_support.h"

using namespace tandem;
using namespace tandem::core::schedule;
using core::model::OpClass;

namespace {

ScheduleTask task(OpClass c, double one, double all, std::vector<int> preds = {},
                  std::string name = {}) {
    ScheduleTask t;
    t.name = std::move(name);
    t.opClass = c;
    t.oneCoreSeconds = one;
    t.allCoresSeconds = all;
    t.predecessors = std::move(preds);
    return t;
}

ScheduleProblem problem(int tcs, int vcs, std::vector<ScheduleTask> tasks) {
    ScheduleProblem p;
    p.numTensorCores = tcs;
    p.numVectorCores = vcs;
    p.tasks = std::move(tasks);
    return p;
}

std::vector<std::string> laneNames(const ScheduledTask& t) {
    std::vector<std::string> names;
    for (const Lane& lane : expandLanes(t.lanes)) names.push_back(toString(lane));
    return names;
}

}  // namespace

class TestSchedule : public QObject {
    Q_OBJECT

    std::shared_ptr<const LayerSchedule> solve(const ScheduleProblem& p, ScheduleOptions o = {}) {
        std::string error;
        auto s = testing::solveChecked(p, o, error);
        if (!s) qWarning("%s", error.c_str());
        return s;
    }

private slots:
    void laneNamesAndExpansion() {
        QCOMPARE(toString(Lane{LaneKind::TensorCore, 0}), std::string("TC0"));
        QCOMPARE(toString(Lane{LaneKind::VectorCore, 3}), std::string("VC3"));
        QCOMPARE(toString(Lane{LaneKind::Link, 0}), std::string("LINK"));
        const auto lanes = expandLanes({{LaneKind::TensorCore, 2, 2}, {LaneKind::Link, 0, 1}});
        QCOMPARE(lanes.size(), std::size_t(3));
        QCOMPARE(toString(lanes[1]), std::string("TC3"));
    }

    void chainTakesFastestModes() {
        // 1 (parallel) + 1.5 (parallel) + 3 (all-cores no faster: one core) = 5.5, three blocks.
        const auto p =
            problem(8, 2,
                    {task(OpClass::TensorCore, 4, 1), task(OpClass::VectorCore, 2, 1.5, {0}),
                     task(OpClass::TensorCore, 3, 3, {1})});
        const auto s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 5.5);
        QCOMPARE_ENUM(s->status, ScheduleStatus::Optimal);
        QCOMPARE(s->stats.seriesBlocks, 3);
        QCOMPARE_ENUM(s->stats.provedBy, ProofStage::Bounds);
        QCOMPARE_ENUM(s->tasks[0].mode, TaskMode::IntraOpParallel);
        QCOMPARE_ENUM(s->tasks[2].mode, TaskMode::OneCore);
        QCOMPARE(s->tasks[2].startSeconds, 2.5);
        QCOMPARE(expandLanes(s->tasks[0].lanes).size(), std::size_t(10));  // 8 TC + 2 VC
        QCOMPARE(laneNames(s->tasks[2]), std::vector<std::string>{"TC0"});
    }

    void independentTasksShareCoresOrGoParallel() {
        // Two TC tasks, 2 TCs: one core each at once (4) beats parallel one after the other (6).
        auto p = problem(2, 1, {task(OpClass::TensorCore, 4, 3), task(OpClass::TensorCore, 4, 3)});
        auto s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 4.0);
        QCOMPARE(laneNames(s->tasks[0]), std::vector<std::string>{"TC0"});
        QCOMPARE(laneNames(s->tasks[1]), std::vector<std::string>{"TC1"});
        // With all-cores 1.5 each, parallel twice (3) wins.
        p.tasks[0].allCoresSeconds = p.tasks[1].allCoresSeconds = 1.5;
        s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 3.0);
        QCOMPARE_ENUM(s->tasks[1].mode, TaskMode::IntraOpParallel);
    }

    void collectiveOverlapsParallelTask() {
        // The all-reduce holds only the link: it runs during the parallel GEMM. Two collectives
        // share the one link.
        auto p = problem(8, 2, {task(OpClass::TensorCore, 10, 2), task(OpClass::Collective, 3, 0)});
        auto s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 3.0);
        QCOMPARE_ENUM(s->tasks[0].mode, TaskMode::IntraOpParallel);
        QCOMPARE(s->tasks[0].startSeconds, 0.0);
        QCOMPARE(s->tasks[1].startSeconds, 0.0);
        QCOMPARE(laneNames(s->tasks[1]), std::vector<std::string>{"LINK"});
        p.tasks.push_back(task(OpClass::Collective, 2, 0));
        s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 5.0);
    }

    void fusedHoldsOneTensorAndOneVectorCore() {
        // Fused and a VC task cannot overlap on a single VC (5 + 5), can on two (5).
        auto p = problem(2, 1, {task(OpClass::Fused, 5, 5), task(OpClass::VectorCore, 5, 5)});
        auto s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 10.0);
        p.numVectorCores = 2;
        s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 5.0);
        QCOMPARE(laneNames(s->tasks[0]), (std::vector<std::string>{"TC0", "VC0"}));
        QCOMPARE(laneNames(s->tasks[1]), std::vector<std::string>{"VC1"});
    }

    void parallelModeOnSingleCoreWhenFaster() {
        const auto s = solve(problem(1, 3, {task(OpClass::TensorCore, 5, 4)}));
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 4.0);
        QCOMPARE(laneNames(s->tasks[0]), (std::vector<std::string>{"TC0", "VC0", "VC1", "VC2"}));
    }

    void nopsAndZeroLengthTasksKeepPrecedence() {
        const auto p = problem(
            1, 1,
            {task(OpClass::TensorCore, 2, 2, {}, "a"), task(OpClass::Nop, 0, 0, {0}, "view"),
             task(OpClass::TensorCore, 0, 1, {1}, "empty"),
             task(OpClass::TensorCore, 3, 3, {2}, "b"), task(OpClass::Nop, 0, 0, {}, "source")});
        const auto s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 5.0);
        QCOMPARE_ENUM(s->tasks[1].mode, TaskMode::None);
        QCOMPARE(s->tasks[1].startSeconds, 2.0);
        QVERIFY(s->tasks[1].lanes.empty());
        QCOMPARE(s->tasks[2].startSeconds, 2.0);
        QCOMPARE(s->tasks[2].durationSeconds, 0.0);
        QCOMPARE(laneNames(s->tasks[2]), std::vector<std::string>{"TC0"});
        QCOMPARE(s->tasks[3].startSeconds, 2.0);
        QCOMPARE(s->tasks[4].startSeconds, 0.0);
    }

    void lanesAreLowestFreeAndNeverExceedCores() {
        // Three unit TC tasks on 4 TCs, then three more: lanes reused, never TC3.
        std::vector<ScheduleTask> tasks;
        for (int i = 0; i < 3; ++i) tasks.push_back(task(OpClass::TensorCore, 1, 1));
        for (int i = 0; i < 3; ++i) tasks.push_back(task(OpClass::TensorCore, 1, 1, {0, 1, 2}));
        const auto s = solve(problem(4, 1, tasks));
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 2.0);
        for (const ScheduledTask& t : s->tasks) QVERIFY(laneNames(t)[0] != "TC3");
        QCOMPARE(laneNames(s->tasks[5]), std::vector<std::string>{"TC2"});
    }

    void manyCoresLikePhazesLargestChips() {
        // 40 independent TC tasks on 4096 TCs all start at 0 on one core each.
        std::vector<ScheduleTask> tasks;
        for (int i = 0; i < 40; ++i) tasks.push_back(task(OpClass::TensorCore, 1 + 0.01 * i, 2));
        const auto s = solve(problem(4096, 4096, tasks));
        QVERIFY(s);
        QCOMPARE_ENUM(s->status, ScheduleStatus::Optimal);
        QCOMPARE(s->makespanSeconds, 1.39);
        QCOMPARE(laneNames(s->tasks[39]), std::vector<std::string>{"TC39"});
    }

    void seriesBlocksAreFound() {
        // a → {b, c} → d → e: blocks {a}, {b, c}, {d}, {e}.
        const auto p =
            problem(2, 2,
                    {task(OpClass::TensorCore, 1, 1), task(OpClass::TensorCore, 2, 1.5, {0}),
                     task(OpClass::VectorCore, 2, 1.5, {0}), task(OpClass::Fused, 1, 1, {1, 2}),
                     task(OpClass::Collective, 1, 1, {3})});
        const auto analysis = ProblemAnalysis::analyse(p);
        QVERIFY(analysis);
        QCOMPARE(analysis->blocks().size(), std::size_t(4));
        QCOMPARE(analysis->blocks()[1], (std::vector<int>{1, 2}));
        const auto s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 1 + 2 + 1 + 1.0);  // b and c one-core side by side
    }

    void rejectsInvalidProblems_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no tensor cores") << 0 << "numTensorCores = 0, allowed 1..";
        QTest::newRow("too many vector cores") << 1 << "numVectorCores = 2000000";
        QTest::newRow("negative latency") << 2 << "tasks[1] \"b\": oneCoreSeconds = -1";
        QTest::newRow("NaN latency") << 3 << "allCoresSeconds = nan";
        QTest::newRow("costly Nop") << 4 << "a Nop must take 0 s";
        QTest::newRow("predecessor out of range") << 5 << "predecessors[0] = 7, allowed 0..2";
        QTest::newRow("own predecessor") << 6 << "predecessors[0] = 2, allowed 0..2 except 2";
        QTest::newRow("cycle") << 7 << "lies on a precedence cycle";
        QTest::newRow("unknown class") << 8 << "opClass = 42";
    }

    void rejectsInvalidProblems() {
        QFETCH(int, which);
        QFETCH(QString, expected);
        auto p = problem(
            2, 2,
            {task(OpClass::TensorCore, 1, 1, {}, "a"), task(OpClass::VectorCore, 1, 1, {0}, "b"),
             task(OpClass::Nop, 0, 0, {1}, "c")});
        switch (which) {
            case 0:
                p.numTensorCores = 0;
                break;
            case 1:
                p.numVectorCores = 2000000;
                break;
            case 2:
                p.tasks[1].oneCoreSeconds = -1;
                break;
            case 3:
                p.tasks[0].allCoresSeconds = std::numeric_limits<double>::quiet_NaN();
                break;
            case 4:
                p.tasks[2].oneCoreSeconds = 1e-6;
                break;
            case 5:
                p.tasks[2].predecessors = {7};
                break;
            case 6:
                p.tasks[2].predecessors = {2};
                break;
            case 7:
                p.tasks[0].predecessors = {2};
                break;
            case 8:
                p.tasks[0].opClass = static_cast<OpClass>(42);
                break;
        }
        const auto result = LayerScheduler({}, nullptr).solve(p);
        QVERIFY(!result);
        QVERIFY2(QString::fromStdString(result.message()).contains(expected),
                 qPrintable(QString::fromStdString(result.message())));
    }

    void rejectsInvalidOptions() {
        const auto p = problem(1, 1, {task(OpClass::TensorCore, 1, 1)});
        const auto check = [&](ScheduleOptions o, const char* field) {
            const auto result = LayerScheduler(o, nullptr).solve(p);
            return !result && result.message().find(field) != std::string::npos;
        };
        ScheduleOptions o;
        o.timeLimitSeconds = 0;
        QVERIFY(check(o, "timeLimitSeconds = 0"));
        o = {};
        o.relativeGap = 1;
        QVERIFY(check(o, "relativeGap = 1, allowed [0, 1)"));
        o = {};
        o.cbcThreads = 0;
        QVERIFY(check(o, "cbcThreads = 0"));
        o = {};
        o.searchExpansionLimit = -1;
        QVERIFY(check(o, "searchExpansionLimit = -1"));
        o = {};
        o.milpNodeLimit = -1;
        QVERIFY(check(o, "milpNodeLimit = -1"));
        QVERIFY(LayerScheduler({}, nullptr).solve(p));
    }

    void emptyProblemHasZeroMakespan() {
        const auto s = solve(problem(1, 1, {}));
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 0.0);
        QCOMPARE_ENUM(s->status, ScheduleStatus::Optimal);
    }

    void lowerBoundsNeverExceedTheOptimum() {
        // Every bound component, on every block of 200 random instances, against brute force.
        int tight = 0;
        for (int seed = 1000; seed < 1200; ++seed) {
            const auto p = testing::randomProblem(static_cast<std::uint64_t>(seed));
            const double optimum = testing::BruteForceScheduler(p).optimalMakespan();
            const auto analysis = ProblemAnalysis::analyse(p);
            QVERIFY(analysis);
            double sum = 0;
            for (const auto& block : analysis->blocks()) {
                const ScheduleInstance instance(p, *analysis, block);
                sum += LowerBounds::compute(instance).best();
            }
            QVERIFY2(sum <= optimum * (1 + 1e-12), qPrintable(QString("seed %1").arg(seed)));
            tight += sum >= optimum * (1 - 1e-12) ? 1 : 0;
        }
        QVERIFY(tight > 20 && tight < 200);  // informative, and not trivially equal
    }

    void boundComponentsOnAKnownInstance() {
        // 3 independent TC tasks (one-core 6, all-cores 4) on 2 TCs, and a VC chain 1 → 1.
        // Optimum 10: two on one core each [0, 6) beside the VC chain, the third parallel.
        const auto p = problem(2, 1,
                               {task(OpClass::TensorCore, 6, 4), task(OpClass::TensorCore, 6, 4),
                                task(OpClass::TensorCore, 6, 4), task(OpClass::VectorCore, 1, 1),
                                task(OpClass::VectorCore, 1, 1, {3})});
        const auto analysis = ProblemAnalysis::analyse(p);
        QVERIFY(analysis);
        QCOMPARE(analysis->blocks().size(), std::size_t(1));
        const ScheduleInstance instance(p, *analysis, analysis->blocks()[0]);
        QCOMPARE(instance.effectiveTensorCores(), 2);
        QCOMPARE(instance.effectiveVectorCores(), 1);  // the VC tasks form a chain
        const BoundSet b = LowerBounds::compute(instance);
        QCOMPARE(b.criticalPath, 4.0);
        QCOMPARE(b.tensorWork, 9.0);  // 3 × min(6 / 2, 4)
        QCOMPARE(b.vectorWork, 2.0);
        QCOMPARE(testing::BruteForceScheduler(p).optimalMakespan(), 10.0);
        const auto s = solve(p);
        QVERIFY(s);
        QCOMPARE(s->makespanSeconds, 10.0);
    }

    void stateSpaceSearchAloneIsExact() {
        // Without an incumbent (makespan ∞) nothing is pruned by it: the search must build every
        // schedule from the root state, where nothing runs yet, and find the optimum of each
        // series block; the blocks' optima add up to the brute-force optimum.
        const BlockSchedule none;
        for (int seed = 1; seed <= 60; ++seed) {
            const auto p = testing::randomProblem(static_cast<std::uint64_t>(seed));
            const double optimum = testing::BruteForceScheduler(p).optimalMakespan();
            const auto analysis = ProblemAnalysis::analyse(p);
            QVERIFY(analysis);
            double sum = 0;
            for (const auto& block : analysis->blocks()) {
                const ScheduleInstance instance(p, *analysis, block);
                const SearchOutcome out =
                    StateSpaceSearch(instance, none)
                        .run(1'000'000, nullptr, std::chrono::steady_clock::time_point::max());
                const QString where = QString("seed %1").arg(seed);
                QVERIFY2(out.complete && out.improved && !out.stopped, qPrintable(where));
                QCOMPARE(out.best.start.size(), std::size_t(instance.size()));
                for (int i = 0; i < instance.size(); ++i)
                    QVERIFY2(out.best.start[i] >= 0 &&
                                 out.best.end(instance, i) <= out.best.makespan * (1 + 1e-12),
                             qPrintable(where));
                sum += out.best.makespan;
            }
            QVERIFY2(testing::sameMakespan(sum, optimum),
                     qPrintable(QString("seed %1: search %2, brute force %3")
                                    .arg(seed)
                                    .arg(sum, 0, 'g', 17)
                                    .arg(optimum, 0, 'g', 17)));
        }
    }

    void deterministic() {
        for (int seed : {3, 77, 150}) {
            const auto p = testing::randomProblem(static_cast<std::uint64_t>(seed), 9);
            const auto a = solve(p), b = solve(p);
            QVERIFY(a && b);
            for (std::size_t i = 0; i < p.tasks.size(); ++i) {
                QCOMPARE(a->tasks[i].startSeconds, b->tasks[i].startSeconds);
                QVERIFY(a->tasks[i].lanes == b->tasks[i].lanes);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSchedule)
#include "test_schedule.moc"
