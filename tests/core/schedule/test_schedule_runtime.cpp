// Run-time behaviour of LayerScheduler: the result cache (structure-keyed, thread-safe, solves
// concurrent duplicates once, never stores cancelled results), cancellation from another thread
// (CBC's event handlers), the time and node limits, and robustness on transformer-like layers of
// 20–30 operators on chips with 1 to 4096 cores per kind. Verdicts never depend on how fast the
// machine is: time limits are either the behaviour under test (the answer must say it timed out
// and still be valid) or generous watchdogs; what must be proved is bounded by work limits.
#include <QtTest>

#include "qtest_printers.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "schedule_test_support.h"
#include "synthetic_layers.h"

using namespace tandem;
using namespace tandem::core::schedule;
using core::model::OpClass;
using Clock = std::chrono::steady_clock;

namespace {

// CBC nodes per reference solve in transformerLikeLayersAgreeWithReference: about ten times what
// the hardest of those layers needs (450).
constexpr long long kReferenceNodeLimit = 5000;

double millisecondsSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// Independent tasks with awkward latencies: no decomposition, weak bounds, huge search space.
ScheduleProblem hardProblem(int tasks, int cores) {
    ScheduleProblem p;
    p.numTensorCores = cores;
    p.numVectorCores = 1;
    testing::SplitMix rng(12345);
    for (int i = 0; i < tasks; ++i) {
        ScheduleTask t;
        t.name = "gemm" + std::to_string(i);
        t.opClass = OpClass::TensorCore;
        t.oneCoreSeconds = 1e-3 * (1 + 9 * rng.uniform());
        t.allCoresSeconds = t.oneCoreSeconds * (0.36 + 0.2 * rng.uniform());
        p.tasks.push_back(t);
    }
    return p;
}

}  // namespace

class TestScheduleRuntime : public QObject {
    Q_OBJECT

    void checkCancellation(Formulation formulation, int tasks, long long searchLimit = 100000) {
        const ScheduleProblem p = hardProblem(tasks, 3);
        ScheduleOptions options;
        options.formulation = formulation;
        options.searchExpansionLimit = searchLimit;
        options.timeLimitSeconds = 120;
        core::RunControl control;
        std::atomic<double> cancelledAt{0};
        const auto start = Clock::now();
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            cancelledAt = millisecondsSince(start);
            control.cancel();
        });
        std::string error;
        const auto s = testing::solveChecked(p, options, error, &control);
        const double returnedAt = millisecondsSince(start);
        canceller.join();
        QVERIFY2(s, error.c_str());
        qInfo("%s%s: cancelled at %.1f ms, returned at %.1f ms",
              std::string(toString(formulation)).c_str(), searchLimit ? "" : " (MILP only)",
              cancelledAt.load(), returnedAt);
        // The instance cannot be proved within its 120 s limit, so only the cancel can have ended
        // the solve: the status says so and the schedule is still valid (solveChecked). Latency
        // is not asserted (it is typically a few ms); this is a watchdog far below the limit.
        QCOMPARE_ENUM(s->status, ScheduleStatus::Cancelled);
        QVERIFY(returnedAt - cancelledAt < 30000);
        QVERIFY(s->lowerBoundSeconds <= s->makespanSeconds);
        QVERIFY(s->gap > 0);
    }

private slots:
    void cancellationIsHonoured() {
        checkCancellation(Formulation::Reference, 26);
        checkCancellation(Formulation::Fast, 40);
        checkCancellation(Formulation::Fast, 40, 0);  // CBC on the compact model
    }

    void cancelledBeforeStartStillGivesAValidSchedule() {
        core::RunControl control;
        control.cancel();
        auto cache = std::make_shared<ScheduleCache>();
        std::string error;
        const ScheduleProblem p = hardProblem(12, 3);
        auto s = testing::solveChecked(p, {}, error, &control, cache);
        QVERIFY2(s, error.c_str());
        QCOMPARE_ENUM(s->status, ScheduleStatus::Cancelled);
        QCOMPARE(cache->size(), std::size_t(0));  // never cached
        s = testing::solveChecked(p, {}, error, nullptr, cache);
        QVERIFY2(s, error.c_str());
        QVERIFY(s->status != ScheduleStatus::Cancelled);
    }

    void timeLimitIsHonoured() {
        // 30 independent tasks on 3 cores cannot be proved optimal in 0.5 s (nor in minutes): the
        // solve must stop at its limit, say so, and return a valid schedule with a consistent
        // bound. How long it took is only printed (bench_cancel measures it); a solver that
        // ignored the limit would run into ctest's timeout.
        ScheduleOptions options;
        options.timeLimitSeconds = 0.5;
        for (const Formulation f : {Formulation::Fast, Formulation::Reference}) {
            options.formulation = f;
            std::string error;
            const auto start = Clock::now();
            const auto s = testing::solveChecked(hardProblem(30, 3), options, error);
            const double elapsed = millisecondsSince(start);
            QVERIFY2(s, error.c_str());
            qInfo("%s: %.1f ms, status %s, gap %.4f", std::string(toString(f)).c_str(), elapsed,
                  std::string(toString(s->status)).c_str(), s->gap);
            QCOMPARE_ENUM(s->status, ScheduleStatus::TimedOut);
            // The reference ILP may not even finish its root LP in that time (bound 0, gap 1).
            QVERIFY(s->gap > 0 && s->gap <= 1);
            QVERIFY(s->lowerBoundSeconds <= s->makespanSeconds);
            QVERIFY(s->lowerBoundSeconds >= 0);
            // The fast path's bounds and list heuristics run before any stage that watches the
            // clock, so its gap does not depend on how far it got.
            if (f == Formulation::Fast) QVERIFY(s->gap < 0.01);
        }
    }

    void nodeLimitStopsTheMilpWithAValidSchedule() {
        // The same instance with CBC alone (no state-space search) and one node: the MILP stops
        // at the node limit long before its (watchdog) time limit, which is a work limit, not a
        // time-out: Feasible, with the heuristic's schedule and the combinatorial bound.
        ScheduleOptions options;
        options.searchExpansionLimit = 0;
        options.milpNodeLimit = 1;
        options.timeLimitSeconds = 600;
        std::string error;
        const auto s = testing::solveChecked(hardProblem(30, 3), options, error);
        QVERIFY2(s, error.c_str());
        qInfo("status %s, gap %.4f, %lld nodes", std::string(toString(s->status)).c_str(), s->gap,
              s->stats.milpNodes);
        QCOMPARE_ENUM(s->status, ScheduleStatus::Feasible);
        QCOMPARE(s->stats.blocksByMilp, 1);
        QVERIFY(s->stats.milpNodes <= 1);
        QVERIFY(s->gap > 0 && s->gap < 0.01);
        QVERIFY(s->lowerBoundSeconds <= s->makespanSeconds);
    }

    void relativeGapStopsEarly() {
        ScheduleOptions options;
        options.relativeGap = 0.2;
        std::string error;
        const auto s = testing::solveChecked(hardProblem(30, 3), options, error);
        QVERIFY2(s, error.c_str());
        QVERIFY(s->status == ScheduleStatus::Feasible || s->status == ScheduleStatus::Optimal);
        QVERIFY(s->gap <= 0.2 + 1e-12);
    }

    void largeBlocksStillGetValidSchedules() {
        // 70 independent tasks: too many for the state-space search, so CBC gets the block for
        // the rest of its 2 s (CBC's root alone takes longer); 450: too many even for the MILP,
        // so the heuristic schedule comes back with its gap (its local search is bounded by
        // passes, so its limit is only a watchdog).
        for (const int n : {70, 450}) {
            ScheduleProblem p;
            p.numTensorCores = 2;
            p.numVectorCores = 2;
            testing::SplitMix rng(static_cast<std::uint64_t>(n));
            for (int i = 0; i < n; ++i) {
                ScheduleTask t;
                t.opClass = i % 2 ? OpClass::TensorCore : OpClass::VectorCore;
                // Awkward latencies: the work bound is (almost surely) not met exactly.
                t.oneCoreSeconds = 1e-3 * (1 + rng.uniform());
                t.allCoresSeconds = t.oneCoreSeconds;
                p.tasks.push_back(t);
            }
            ScheduleOptions options;
            options.timeLimitSeconds = n == 70 ? 2 : 600;
            std::string error;
            const auto s = testing::solveChecked(p, options, error);
            QVERIFY2(s, error.c_str());
            qInfo("%d tasks: %s, gap %.2e, %s", n, std::string(toString(s->status)).c_str(), s->gap,
                  s->stats.note.c_str());
            QCOMPARE(s->stats.searchExpansions, 0LL);  // beyond the search's 64 tasks
            if (n == 450) {
                QCOMPARE_ENUM(s->status, ScheduleStatus::Feasible);
                QCOMPARE(s->stats.blocksByMilp, 0);
                QVERIFY(s->stats.note.find("exceeds the MILP limit of 400") != std::string::npos);
            } else {
                // CBC gets the block unless a very slow machine spent the 2 s before it, in which
                // case the result must say it timed out.
                QVERIFY(s->stats.blocksByMilp == 1 || s->status == ScheduleStatus::TimedOut);
                QVERIFY(s->status == ScheduleStatus::TimedOut ||
                        s->status == ScheduleStatus::Optimal);
            }
        }
    }

    void cacheReusesStructurallyIdenticalLayers() {
        auto cache = std::make_shared<ScheduleCache>();
        const LayerScheduler scheduler({}, cache);
        ScheduleProblem a = testing::randomProblem(42, 9);
        ScheduleProblem b = a;
        for (auto& t : b.tasks) t.name = "block7." + t.name;  // another block, same structure
        const auto first = scheduler.solve(a);
        const auto second = scheduler.solve(b);
        QVERIFY(first && second);
        QCOMPARE(first->get(), second->get());
        QCOMPARE(cache->hits(), std::size_t(1));
        QCOMPARE(cache->misses(), std::size_t(1));
        // One ulp of one latency, another core count or other options: another entry.
        ScheduleProblem c = a;
        c.tasks[1].oneCoreSeconds = std::nextafter(c.tasks[1].oneCoreSeconds, 1.0);
        QVERIFY(ScheduleCache::key(a, {}) != ScheduleCache::key(c, {}));
        c = a;
        c.numVectorCores += 1;
        QVERIFY(ScheduleCache::key(a, {}) != ScheduleCache::key(c, {}));
        ScheduleOptions reference;
        reference.formulation = Formulation::Reference;
        QVERIFY(ScheduleCache::key(a, {}) != ScheduleCache::key(a, reference));
        ScheduleOptions nodeLimit;
        nodeLimit.milpNodeLimit = 1000;
        QVERIFY(ScheduleCache::key(a, {}) != ScheduleCache::key(a, nodeLimit));
        // Predecessor order and duplicates do not matter.
        c = a;
        for (auto& t : c.tasks) {
            std::reverse(t.predecessors.begin(), t.predecessors.end());
            if (!t.predecessors.empty()) t.predecessors.push_back(t.predecessors.front());
        }
        QCOMPARE(ScheduleCache::key(a, {}), ScheduleCache::key(c, {}));
    }

    void cacheEvictsLeastRecentlyUsed() {
        auto cache = std::make_shared<ScheduleCache>(2);
        const LayerScheduler scheduler({}, cache);
        const auto p1 = testing::randomProblem(1), p2 = testing::randomProblem(2),
                   p3 = testing::randomProblem(3);
        QVERIFY(scheduler.solve(p1) && scheduler.solve(p2) && scheduler.solve(p1));
        QVERIFY(scheduler.solve(p3));  // evicts p2, the least recently used
        QCOMPARE(cache->size(), std::size_t(2));
        QVERIFY(cache->find(ScheduleCache::key(p1, {})));
        QVERIFY(!cache->find(ScheduleCache::key(p2, {})));
    }

    void cacheSolvesConcurrentDuplicatesOnce() {
        auto cache = std::make_shared<ScheduleCache>();
        const LayerScheduler scheduler({}, cache);
        testing::SyntheticLayerBuilder builder(testing::syntheticModels()[0], {"2tc-2vc", 2, 2});
        const ScheduleProblem p = builder.backward();  // takes tens of milliseconds
        std::vector<std::shared_ptr<const LayerSchedule>> results(4);
        std::vector<std::thread> threads;
        for (int i = 0; i < 4; ++i)
            threads.emplace_back([&, i] { results[i] = *scheduler.solve(p); });
        for (auto& t : threads) t.join();
        for (const auto& r : results) QCOMPARE(r.get(), results[0].get());
        QCOMPARE(cache->misses(), std::size_t(1));
        QCOMPARE(cache->hits(), std::size_t(3));
        QVERIFY(core::schedule::ScheduleValidator().validate(p, *results[0]));
    }

    void transformerLikeLayersAreOptimal() {
        // Every synthetic layer direction (5 models × 10 chips from 1 to 4096 cores per kind; the
        // block forward and backward and the MLP backward alone). The stages before CBC are
        // bounded by counts; the time limit is only a watchdog (the slowest takes well under a
        // second in a release build).
        ScheduleOptions options;
        options.timeLimitSeconds = 600;
        int n = 0;
        double slowest = 0;
        for (const auto& named : testing::syntheticLayerProblems(true)) {
            std::string error;
            const auto start = Clock::now();
            const auto s = testing::solveChecked(named.problem, options, error);
            slowest = std::max(slowest, millisecondsSince(start));
            QVERIFY2(s, qPrintable(QString::fromStdString(named.name + ": " + error)));
            QVERIFY2(s->status == ScheduleStatus::Optimal, named.name.c_str());
            ++n;
        }
        qInfo("%d layer directions optimal, slowest %.1f ms", n, slowest);
    }

    void transformerLikeLayersAgreeWithReference() {
        // PHAZE's ILP cannot finish whole backward blocks (it gave up after an hour); it can
        // finish forward blocks and the MLP half of the backward block, on every chip, within a
        // CBC node limit: a work limit, so whether it proves optimality does not depend on the
        // machine; the time limit is only a watchdog.
        ScheduleOptions fastOptions;
        fastOptions.timeLimitSeconds = 600;
        ScheduleOptions reference;
        reference.formulation = Formulation::Reference;
        reference.timeLimitSeconds = 600;
        reference.milpNodeLimit = kReferenceNodeLimit;
        int compared = 0;
        long long mostNodes = 0;
        for (const auto& named : testing::syntheticLayerProblems(true)) {
            const bool fits = named.name.find("/fwd") != std::string::npos ||
                              named.name.find("/mlp-bwd") != std::string::npos;
            const bool chip = named.name.find("/tpuv4-like/") != std::string::npos ||
                              named.name.find("/1tc-1vc/") != std::string::npos ||
                              named.name.find("/2tc-2vc/") != std::string::npos ||
                              named.name.find("/4096tc-4096vc/") != std::string::npos;
            if (!fits || !chip) continue;
            std::string error;
            const auto fast = testing::solveChecked(named.problem, fastOptions, error);
            QVERIFY2(fast, error.c_str());
            const auto ref = testing::solveChecked(named.problem, reference, error);
            QVERIFY2(ref, error.c_str());
            mostNodes = std::max(mostNodes, ref->stats.milpNodes);
            QVERIFY2(ref->status == ScheduleStatus::Optimal, named.name.c_str());
            QVERIFY2(testing::sameMakespan(fast->makespanSeconds, ref->makespanSeconds),
                     named.name.c_str());
            ++compared;
        }
        qInfo("%d layers compared; the reference needed at most %lld CBC nodes", compared,
              mostNodes);
        QCOMPARE(compared, 40);
    }
};

QTEST_GUILESS_MAIN(TestScheduleRuntime)
#include "test_schedule_runtime.moc"
