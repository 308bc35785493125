// The explorers over a synthetic evaluator (synthetic_evaluator.h), each against an independent
// oracle: a sequential loop over every point gives the true best point and the true objective
// of each point; a brute-force dominance check gives the fronts. Checked: identical results for
// 1, 2 and 3 threads; pruned returns exhaustive's best (ties included) while evaluating fewer
// points; PHAZE's walk stops exactly where its rule says on hand-made landscapes; a cancel stops
// each explorer after the points already running (counted) with valid partial results;
// progress and streaming.
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "core/search/exhaustive_explorer.h"
#include "core/search/pareto.h"
#include "core/search/phaze_explorer.h"
#include "core/search/pruned_explorer.h"
#include "synthetic_evaluator.h"

using tandem::core::Progress;
using tandem::core::RunControl;
using tandem::core::hardware::Recompute;
using namespace tandem::core::search;
using tandem::test::SyntheticEvaluator;

namespace {

constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

SearchGrid gridOf(const SearchSpace& space) {
    auto grid = SearchGrid::create(space);
    if (!grid.ok()) qFatal("%s", grid.message().c_str());
    return std::move(*grid);
}

// About 700 chips × 24 options.
SearchGrid mediumGrid() {
    SearchSpace s = SearchSpace::phaze();
    s.numTensorCores = SearchSpace::powersOfTwo(1, 64);
    s.tensorCoreRows = SearchSpace::powersOfTwo(16, 128);
    s.tensorCoreCols = SearchSpace::powersOfTwo(16, 128);
    s.numVectorCores = SearchSpace::powersOfTwo(1, 16);
    s.globalBufferBytes = {8 * kMiB, 32 * kMiB, 128 * kMiB};
    return gridOf(s);
}

SearchGrid smallGrid(int variant) {
    SearchSpace s = SearchSpace::phaze();
    s.numTensorCores = variant % 2 ? std::vector<std::int64_t>{1, 2, 4, 8, 16}
                                   : std::vector<std::int64_t>{2, 8, 32};
    s.tensorCoreRows = {32, 64, 128};
    s.tensorCoreCols =
        variant % 3 ? std::vector<std::int64_t>{32, 128} : std::vector<std::int64_t>{64};
    s.numVectorCores = {1, 2, 4};
    s.globalBufferBytes = {8 * kMiB, 64 * kMiB};
    s.microbatchSizes = {1, 2};
    s.hbmCapacityBytes = {32 * kGiB, 64 * kGiB};
    return gridOf(s);
}

struct Truth {
    std::optional<std::int64_t> best;  // point index
    double bestObjective = 0;
};

// Sequential oracle: highest objective, ties to the lowest index.
Truth truth(const SearchGrid& grid, const SyntheticEvaluator& ev) {
    Truth t;
    for (std::int64_t i = 0; i < grid.pointCount(); ++i) {
        const double o = ev.objectiveOf(grid.point(i));
        if (o > 0 && (!t.best || o > t.bestObjective)) {
            t.best = i;
            t.bestObjective = o;
        }
    }
    return t;
}

bool samePoint(const EvaluatedPoint& a, const EvaluatedPoint& b) {
    return a.point == b.point && a.status == b.status && a.objective == b.objective &&
           a.throughputSamplesPerSecond == b.throughputSamplesPerSecond && a.message == b.message;
}

bool sameResults(const SearchResults& a, const SearchResults& b) {
    if (a.points().size() != b.points().size()) return false;
    for (std::size_t i = 0; i < a.points().size(); ++i)
        if (!samePoint(a.points()[i], b.points()[i])) return false;
    return a.best() == b.best() && a.paretoByArea() == b.paretoByArea() &&
           a.paretoByHbm() == b.paretoByHbm() && a.statistics().skipped == b.statistics().skipped;
}

// Everything a partial or complete result must satisfy, checked from scratch.
void checkValid(const SearchResults& r, const SearchGrid& grid, const SyntheticEvaluator& ev) {
    std::vector<ParetoCandidate> area, hbm;
    std::vector<std::size_t> feasible;
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < r.points().size(); ++i) {
        const EvaluatedPoint& e = r.points()[i];
        if (i > 0) QVERIFY(r.points()[i - 1].point.index < e.point.index);
        QVERIFY(e.point == grid.point(e.point.index));
        QCOMPARE(e.objective, ev.objectiveOf(e.point));
        QCOMPARE(e.feasible(), e.objective > 0);
        if (!e.feasible()) continue;
        if (!best || e.objective > r.points()[*best].objective) best = i;
        feasible.push_back(i);
        area.push_back({e.point.areaSquareMillimetres, e.objective});
        hbm.push_back({double(e.point.hbmCapacityBytes()), e.objective});
    }
    QVERIFY(r.best() == best);
    const auto brute = [&](const std::vector<ParetoCandidate>& p) {
        std::set<std::size_t> front;
        for (std::size_t i = 0; i < p.size(); ++i) {
            bool dominated = false;
            for (std::size_t j = 0; j < p.size(); ++j)
                dominated = dominated || (p[j].cost <= p[i].cost && p[j].value >= p[i].value &&
                                          (p[j].cost < p[i].cost || p[j].value > p[i].value));
            if (!dominated) front.insert(feasible[i]);
        }
        return front;
    };
    QVERIFY(std::set<std::size_t>(r.paretoByArea().begin(), r.paretoByArea().end()) == brute(area));
    QVERIFY(std::set<std::size_t>(r.paretoByHbm().begin(), r.paretoByHbm().end()) == brute(hbm));
}

std::unique_ptr<Explorer> explorerNamed(const QString& name) {
    auto kind = parseExplorerKind(name.toStdString());
    if (!kind.ok()) qFatal("%s", kind.message().c_str());
    return makeExplorer(*kind);
}

}  // namespace

class TestExplorers : public QObject {
    Q_OBJECT

private slots:
    void factory() {
        // Each kind makes the explorer that reports that kind's name in its statistics.
        for (const char* name : {"exhaustive", "phaze", "pruned"}) {
            const std::string_view actual = explorerNamed(name)->name();
            QCOMPARE(QString::fromUtf8(actual.data(), qsizetype(actual.size())), QString(name));
        }
        for (ExplorerKind kind : kExplorerKinds)
            QVERIFY(makeExplorer(kind)->name() == toString(kind));
        QVERIFY(!makeExplorer(ExplorerKind(99)));
    }

    void exhaustiveIsCompleteAndThreadIndependent() {
        const SearchGrid grid = mediumGrid();
        QVERIFY(grid.pointCount() > 10000);
        qInfo("medium grid: %lld chips, %lld points", static_cast<long long>(grid.chipCount()),
              static_cast<long long>(grid.pointCount()));
        SyntheticEvaluator ev;
        ev.quantum = 2;  // ties between points
        const Truth t = truth(grid, ev);
        std::vector<SearchResults> runs;
        for (int threads : {1, 2, 3}) {
            ThreadPool pool(threads);
            runs.push_back(ExhaustiveExplorer().explore(grid, ev, pool));
            const SearchResults& r = runs.back();
            QCOMPARE(std::int64_t(r.points().size()), grid.pointCount());
            QCOMPARE(r.statistics().threads, threads);
            QVERIFY(!r.statistics().cancelled);
            QVERIFY(r.best().has_value());
            QCOMPARE(r.points()[*r.best()].point.index, *t.best);
            QVERIFY(!r.paretoByArea().empty());
        }
        checkValid(runs[0], grid, ev);
        QVERIFY(sameResults(runs[0], runs[1]));
        QVERIFY(sameResults(runs[0], runs[2]));
    }

    void prunedFindsTheExhaustiveBest() {
        int informative = 0, cases = 0;
        std::int64_t evaluated = 0, total = 0;
        for (int variant = 0; variant < 4; ++variant) {
            const SearchGrid grid = smallGrid(variant);
            for (std::uint64_t seed : {1u, 2u, 3u}) {
                for (double quantum : {0.0, 5.0}) {
                    for (double infeasible : {0.1, 0.95}) {
                        SyntheticEvaluator ev;
                        ev.seed = seed + std::uint64_t(variant) * 100;
                        ev.quantum = quantum;
                        ev.infeasibleBelow = infeasible;
                        const Truth t = truth(grid, ev);
                        for (std::int64_t batch : {1, 3, 16}) {
                            std::optional<SearchResults> previous;
                            for (int threads : {1, 2}) {
                                ThreadPool pool(threads);
                                const SearchResults r =
                                    PrunedExplorer(batch).explore(grid, ev, pool);
                                ++cases;
                                QVERIFY(r.best().has_value());
                                QCOMPARE(r.points()[*r.best()].point.index, *t.best);
                                QCOMPARE(r.points()[*r.best()].objective, t.bestObjective);
                                QCOMPARE(r.statistics().boundViolations, std::int64_t(0));
                                QCOMPARE(r.statistics().evaluated + r.statistics().skipped,
                                         grid.pointCount());
                                checkValid(r, grid, ev);
                                evaluated += r.statistics().evaluated;
                                total += grid.pointCount();
                                if (r.statistics().evaluated < grid.pointCount() / 2) ++informative;
                                if (previous) QVERIFY(sameResults(*previous, r));
                                previous = r;
                            }
                        }
                    }
                }
            }
        }
        qInfo("pruned: %d runs, %lld of %lld points evaluated", cases,
              static_cast<long long>(evaluated), static_cast<long long>(total));
        QCOMPARE(informative, cases);  // the area bound always skips more than half
    }

    void phazeSizedSpace() {
        // All 704,640 points of PHAZE's space: the scaffolding's own cost per point, and pruned
        // == exhaustive at full size.
        const SearchGrid grid = gridOf(SearchSpace::phaze());
        SyntheticEvaluator ev;
        const Truth t = truth(grid, ev);
        ThreadPool pool(2);
        const SearchResults all = ExhaustiveExplorer().explore(grid, ev, pool);
        QCOMPARE(std::int64_t(all.points().size()), std::int64_t(704640));
        QCOMPARE(all.points()[*all.best()].point.index, *t.best);
        const SearchResults pruned = PrunedExplorer().explore(grid, ev, pool);
        QCOMPARE(pruned.points()[*pruned.best()].point.index, *t.best);
        qInfo("PHAZE space: exhaustive %.2f s, pruned %.2f s evaluating %lld points",
              all.statistics().wallSeconds, pruned.statistics().wallSeconds,
              static_cast<long long>(pruned.statistics().evaluated));
    }

    void prunedWithUselessOrWrongBounds() {
        const SearchGrid grid = smallGrid(1);
        ThreadPool pool(2);
        SyntheticEvaluator ev;
        ev.bound = SyntheticEvaluator::BoundKind::Infinite;
        const SearchResults all = PrunedExplorer().explore(grid, ev, pool);
        QCOMPARE(all.statistics().evaluated, grid.pointCount());
        QCOMPARE(all.statistics().skipped, std::int64_t(0));
        QCOMPARE(all.points()[*all.best()].point.index, *truth(grid, ev).best);
        ev.bound = SyntheticEvaluator::BoundKind::TooLow;
        const SearchResults wrong = PrunedExplorer().explore(grid, ev, pool);
        QVERIFY(wrong.statistics().boundViolations > 0);
    }

    void phazeBucketsByHand() {
        // 1 TC, 1 VC, 2 MiB: (rows, cols) = (2,4) 3,359,607 µm², (2,8) 3,368,728, (4,4)
        // 3,365,688, (4,8) 3,380,888: 0.01 mm² buckets 338, 336, 336, 335.
        SearchSpace s = SearchSpace::phaze();
        s.numTensorCores = {1};
        s.numVectorCores = {1};
        s.tensorCoreRows = {2, 4};
        s.tensorCoreCols = {4, 8};
        s.globalBufferBytes = {2 * kMiB};
        const SearchGrid grid = gridOf(s);
        QCOMPARE(grid.chips()[1].areaSquareMicrometres, 3368728.0);
        QCOMPARE(PhazeExplorer::areaBuckets(grid),
                 (std::vector<std::vector<std::int64_t>>{{3}, {1, 2}, {0}}));
        // Every PHAZE chip lands in exactly one bucket, buckets strictly descending.
        const SearchGrid phaze = gridOf(SearchSpace::phaze());
        const auto buckets = PhazeExplorer::areaBuckets(phaze);
        std::vector<int> seen(std::size_t(phaze.chipCount()), 0);
        double previous = 1e300;
        for (const auto& bucket : buckets) {
            const double key =
                std::floor(phaze.chips()[std::size_t(bucket[0])].areaSquareMicrometres / 1e4);
            QVERIFY(key < previous);
            previous = key;
            for (std::int64_t chip : bucket) {
                ++seen[std::size_t(chip)];
                QCOMPARE(std::floor(phaze.chips()[std::size_t(chip)].areaSquareMicrometres / 1e4),
                         key);
            }
        }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));

        QVERIFY(!PhazeExplorer::stops({5, 6, 7, 6, 6}, 5));
        QVERIFY(!PhazeExplorer::stops({5, 6, 7, 6, 6, 5}, 5));
        QVERIFY(PhazeExplorer::stops({5, 6, 7, 6, 6, 5, 4}, 5));
        QVERIFY(PhazeExplorer::stops({3, 3, 3, 3, 3}, 5));  // equal counts as non-increasing
        QVERIFY(!PhazeExplorer::stops({9, 8, 7, 6}, 5));    // fewer buckets than the window
        QVERIFY(PhazeExplorer::stops({1, 2}, 1));
    }

    void phazeWalkStopsByItsRule() {
        // 28 chips, each in its own bucket: 1, 2, 4, 8 TCs of 128×128 × GLB 2…128 MiB.
        SearchSpace s = SearchSpace::phaze();
        s.numTensorCores = {1, 2, 4, 8};
        s.tensorCoreRows = {128};
        s.tensorCoreCols = {128};
        s.numVectorCores = {1};
        s.minAreaFraction = 0;
        s.microbatchSizes = {1, 2, 4};
        s.hbmCapacityBytes = {32 * kGiB};
        s.recompute = {Recompute::Off};
        const SearchGrid grid = gridOf(s);
        QCOMPARE(grid.chipCount(), std::int64_t(28));
        const auto buckets = PhazeExplorer::areaBuckets(grid);
        QCOMPARE(buckets.size(), std::size_t(28));
        std::map<std::int64_t, int> rank;  // chip → position from the largest area down
        for (std::size_t r = 0; r < buckets.size(); ++r) rank[buckets[r][0]] = int(r);

        // mbs 1: 5 6 7 6 6 5 4 | 9 …: the window 7 6 6 5 4 ends the walk after 7 buckets and
        //        misses the 9. mbs 2: falling from the top: 5 buckets. mbs 4: 1 2 1 2 …: never
        //        five non-increasing in a row, so all 28.
        const std::vector<double> first = {5, 6, 7, 6, 6, 5, 4, 9};
        SyntheticEvaluator ev;
        ev.landscape = [&](const SearchPoint& p) {
            const int r = rank.at(p.chipIndex);
            if (p.microbatchSize == 1) return r < int(first.size()) ? first[std::size_t(r)] : 1.0;
            if (p.microbatchSize == 2) return 3.0 - 0.01 * r;
            return r % 2 ? 2.0 : 1.0;
        };
        std::set<std::int64_t> expected;
        for (std::int64_t chip = 0; chip < 28; ++chip) {
            if (rank[chip] < 7) expected.insert(grid.pointIndex(chip, 0, 0, 0));
            if (rank[chip] < 5) expected.insert(grid.pointIndex(chip, 1, 0, 0));
            expected.insert(grid.pointIndex(chip, 2, 0, 0));
        }
        std::optional<SearchResults> previous;
        for (int threads : {1, 2}) {
            ThreadPool pool(threads);
            ev.evaluations = 0;
            const SearchResults r = PhazeExplorer().explore(grid, ev, pool);
            std::set<std::int64_t> visited;
            for (const EvaluatedPoint& e : r.points()) visited.insert(e.point.index);
            QCOMPARE(visited.size(), std::size_t(40));
            QVERIFY(visited == expected);
            QCOMPARE(ev.evaluations.load(), std::int64_t(40));
            QCOMPARE(r.points()[*r.best()].objective, 7.0);
            checkValid(r, grid, ev);
            if (previous) QVERIFY(sameResults(*previous, r));
            previous = r;
        }
        ThreadPool pool(2);
        const SearchResults all = ExhaustiveExplorer().explore(grid, ev, pool);
        QCOMPARE(all.points()[*all.best()].objective, 9.0);  // what PHAZE's rule gave up
        // A window of 1 stops every walk after its first bucket.
        QCOMPARE(PhazeExplorer(1).explore(grid, ev, pool).points().size(), std::size_t(3));
    }

    void cancelStopsAfterTheRunningPoints_data() {
        QTest::addColumn<QString>("explorer");
        QTest::newRow("exhaustive") << "exhaustive";
        QTest::newRow("pruned") << "pruned";
        QTest::newRow("phaze") << "phaze";
    }

    void cancelStopsAfterTheRunningPoints() {
        QFETCH(QString, explorer);
        const SearchGrid grid = mediumGrid();
        SyntheticEvaluator ev;
        ev.delay = std::chrono::milliseconds(1);  // the other worker is mid-point at the cancel
        if (explorer == "pruned") ev.bound = SyntheticEvaluator::BoundKind::Infinite;
        // Rising as area falls: PHAZE's walks never stop on their own.
        if (explorer == "phaze")
            ev.landscape = [](const SearchPoint& p) { return 1000 - p.areaSquareMillimetres; };
        ThreadPool pool(2);
        RunControl control;
        // Cancelled from the streaming callback once 20 points have finished. The explorer
        // checks before every point, so after the cancel only points already started may still
        // be evaluated: at most one per worker. Counted, not timed (bench_responsiveness times
        // the cancel).
        int streamed = 0;
        std::int64_t startedAtCancel = -1;
        const SearchResults r =
            explorerNamed(explorer)->explore(grid, ev, pool, &control, [&](const EvaluatedPoint&) {
                if (++streamed != 20) return;
                startedAtCancel = ev.evaluations.load();
                control.cancel();
            });
        const std::int64_t startedAfter = ev.evaluations.load() - startedAtCancel;
        qInfo(
            "%s: cancelled after %lld evaluations started; %lld more started after it, %zu "
            "points kept",
            qPrintable(explorer), static_cast<long long>(startedAtCancel),
            static_cast<long long>(startedAfter), r.points().size());
        QVERIFY(startedAtCancel >= 20);
        QVERIFY(startedAfter >= 0);
        QVERIFY(startedAfter <= pool.threadCount());
        QVERIFY(r.statistics().cancelled);
        QVERIFY(!r.points().empty());
        QVERIFY(std::int64_t(r.points().size()) < grid.pointCount());
        // Every evaluation that finished is in the results (none lost, none invented).
        QCOMPARE(std::int64_t(r.points().size()), ev.evaluations.load());
        checkValid(r, grid, ev);

        RunControl already;
        already.cancel();
        const SearchResults none = explorerNamed(explorer)->explore(grid, ev, pool, &already);
        QVERIFY(none.points().empty());
        QVERIFY(none.statistics().cancelled);
    }

    void progressAndStreaming() {
        const SearchGrid grid = smallGrid(1);
        SyntheticEvaluator ev;
        std::mutex mutex;
        Progress last;
        int reports = 0;
        RunControl control(
            [&](const Progress& p) {
                std::lock_guard lock(mutex);
                last = p;
                ++reports;
            },
            std::chrono::milliseconds(0));
        std::atomic<int> inside{0};
        std::atomic<bool> overlapped{false};
        std::vector<std::int64_t> streamed;
        ThreadPool pool(2);
        const SearchResults r =
            ExhaustiveExplorer().explore(grid, ev, pool, &control, [&](const EvaluatedPoint& e) {
                if (inside.fetch_add(1) != 0) overlapped = true;
                streamed.push_back(e.point.index);  // safe: calls are serialised
                std::this_thread::sleep_for(std::chrono::microseconds(20));
                inside.fetch_sub(1);
            });
        QVERIFY(!overlapped);
        std::sort(streamed.begin(), streamed.end());
        std::vector<std::int64_t> all(std::size_t(grid.pointCount()));
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = std::int64_t(i);
        QVERIFY(streamed == all);
        QVERIFY(!r.statistics().cancelled);
        QVERIFY(reports >= grid.pointCount());
        QCOMPARE(last.done, double(grid.pointCount()));
        QCOMPARE(last.total, double(grid.pointCount()));
        QVERIFY2(QString::fromStdString(last.message).contains(" points"), last.message.c_str());

        // Pruned reports the skipped points too, so it also ends at 100 %.
        reports = 0;
        const SearchResults pruned = PrunedExplorer().explore(grid, ev, pool, &control);
        QVERIFY(pruned.statistics().skipped > 0);
        QCOMPARE(last.done, double(grid.pointCount()));
        QVERIFY(reports > 0);
    }
};

QTEST_GUILESS_MAIN(TestExplorers)
#include "test_explorers.moc"
