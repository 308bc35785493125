// SearchJob against oracles counted from the inputs: a small search streams every grid point
// exactly once (sum of batch sizes == results size == SearchGrid::pointCount()); points finished
// while the GUI thread is busy wait for the next batch and arrive in it together (never one
// signal per point); progress ends at done == total == the grid's points (the reference chip
// runs first, unreported); the best point and the reference-chip baseline match direct
// placeModel() calls. A cancel is observed by counting: the search finishes no more than two
// points per worker after cancel() (those already running), answering with
// statistics().cancelled and a valid strict subset. The GUI thread's event loop turns between
// any two batches while the search keeps two workers busy. Bad inputs are refused or fail with a
// reason; destroying a running search cancels it and joins its thread (a watchdog guards against
// a hang). Nothing here is timed: bench_responsiveness measures cancel latency and event-loop
// gaps.
#include <QDeadlineTimer>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include <set>

#include "core/search/search_baselines.h"
#include "tests/ui/jobs/jobs_test_support.h"

using namespace jobs_test;

namespace {

placement::ModelPlacementRequest placementOf(const SearchRequest& r, const search::SearchPoint& p) {
    placement::ModelPlacementRequest out;
    out.model = r.models.front();
    out.hardware = r.space.base;
    out.hardware.accelerator = p.accelerator;
    out.training = r.training;
    out.training.microbatch = p.microbatchSize;
    out.training.recompute = p.recompute;
    out.widths = r.space.widthsFor(*r.models.front());
    return out;
}

double placedThroughput(const SearchRequest& r, const search::SearchPoint& p) {
    const auto placed = placement::placeModel(placementOf(r, p));
    if (!placed) qFatal("%s", placed.message().c_str());
    return placed->result.plan ? placed->result.plan->throughputSamplesPerSecond : 0;
}

// Every point is an answer (not a cancelled stub), at a distinct index, and is the grid's point.
void verifyValidSubset(const std::vector<search::EvaluatedPoint>& points,
                       const search::SearchGrid& grid) {
    std::set<std::int64_t> seen;
    for (const auto& e : points) {
        QVERIFY(e.status != search::PointStatus::Cancelled);
        QVERIFY(e.point.index >= 0 && e.point.index < grid.pointCount());
        QVERIFY(seen.insert(e.point.index).second);
        QVERIFY(e.point == grid.point(e.point.index));
        QCOMPARE(e.feasible(), e.throughputSamplesPerSecond > 0);
        QVERIFY(!e.plan);  // the job keeps no plans
    }
}

// Blocks the GUI thread (no event loop) until the search has finished `count` points in all, or
// fails after a generous watchdog.
bool blockUntilFinished(const SearchJob& job, std::int64_t count) {
    QDeadlineTimer watchdog(60000);
    while (job.pointsFinished() < count) {
        if (watchdog.hasExpired()) return false;
        QThread::msleep(5);
    }
    return true;
}

}  // namespace

class TestSearchJob : public QObject {
    Q_OBJECT
private slots:
    void smallSearchStreamsEveryPoint();
    void pointsWaitForTheNextBatch();
    void cancelKeepsValidPartialResults();
    void eventLoopTurnsBetweenBatches();
    void inputsAreRefusedWithReasons();
    void aSpaceBeyondMemoryFailsBeforeAnyPoint();
    void destroyingRunningSearch();
};

void TestSearchJob::smallSearchStreamsEveryPoint() {
    const SearchRequest request = searchRequest("gpt2-xl", smallSpace());
    const search::SearchGrid grid = gridOf(request.space);
    const search::SearchGrid reference = gridOf(search::referenceSpace(request.space));
    SearchJob job;
    SearchRecorder rec(job);
    QSignalSpy started(&job, &SearchJob::started);
    QSignalSpy running(&job, &SearchJob::runningChanged);
    QString why;
    QVERIFY(job.start(request, &why));
    QVERIFY(job.running());
    QCOMPARE(started.count(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 300000);
    QVERIFY2(rec.error.isEmpty(), qPrintable(rec.error));
    QVERIFY(!job.running());
    QCOMPARE(running.count(), 2);

    const auto& results = *rec.results;
    std::size_t streamed = 0;
    for (std::size_t n : rec.batchSizes) streamed += n;
    qInfo("%lld grid points (+%lld reference) in %zu batches, %zu progress signals",
          static_cast<long long>(grid.pointCount()), static_cast<long long>(reference.pointCount()),
          rec.batchSizes.size(), rec.progress.size());
    QVERIFY(grid.pointCount() >= 8);
    QCOMPARE(streamed, std::size_t(grid.pointCount()));
    QCOMPARE(results.points().size(), std::size_t(grid.pointCount()));
    QVERIFY(!results.statistics().cancelled);
    QCOMPARE(results.statistics().threads, 2);
    verifyValidSubset(rec.points, grid);
    if (QTest::currentTestFailed()) return;
    // Streamed points are the results' points.
    for (const auto& e : rec.points)
        QVERIFY(results.points()[std::size_t(e.point.index)].objective == e.objective);

    QVERIFY(!rec.batchSizes.empty());
    for (std::size_t n : rec.batchSizes) QVERIFY(n > 0);  // no empty batches
    QVERIFY(!rec.progress.empty());
    const search::SearchProgress last = rec.progress.back();
    QCOMPARE(last.total, grid.pointCount());
    QCOMPARE(last.done, last.total);
    QCOMPARE(job.lastProgress().done, last.total);
    for (std::size_t i = 1; i < rec.progress.size(); ++i)
        QVERIFY(rec.progress[i].done >= rec.progress[i - 1].done);

    // The best point and the reference-chip baseline against placeModel().
    QVERIFY(results.best());
    const auto& best = results.points()[*results.best()];
    QVERIFY(best.throughputSamplesPerSecond == placedThroughput(request, best.point));
    QVERIFY(rec.baselines);
    QVERIFY(rec.baselines->joint.available);
    QVERIFY(rec.baselines->joint.throughputSamplesPerSecond == best.throughputSamplesPerSecond);
    double referenceBest = 0;
    for (std::int64_t i = 0; i < reference.pointCount(); ++i)
        referenceBest = std::max(referenceBest, placedThroughput(request, reference.point(i)));
    QVERIFY(referenceBest > 0);
    QVERIFY(rec.baselines->referencePlaced.available);
    QVERIFY(rec.baselines->referencePlaced.throughputSamplesPerSecond == referenceBest);
    qInfo("best %.3f samples/s, reference chip %.3f samples/s", best.throughputSamplesPerSecond,
          referenceBest);
}

void TestSearchJob::pointsWaitForTheNextBatch() {
    SearchJob job;
    SearchRecorder rec(job);
    QVERIFY(job.start(searchRequest("gpt2-xl", largeSpace(), 2)));
    QTRY_VERIFY_WITH_TIMEOUT(!rec.points.empty() || rec.done(), 300000);
    QVERIFY2(!rec.done(), "the large search finished before the test could block");
    // The GUI thread is busy while the workers finish 8 more points than it has seen: they
    // wait, and the next batch hands them over together.
    const std::size_t seen = rec.points.size(), batches = rec.batchSizes.size();
    QVERIFY2(blockUntilFinished(job, std::int64_t(seen) + 8), "no 8 points within a minute");
    QTRY_VERIFY_WITH_TIMEOUT(rec.batchSizes.size() > batches, 60000);
    qInfo("after blocking: the next batch carries %zu points", rec.batchSizes[batches]);
    QVERIFY(rec.batchSizes[batches] >= 8);
    job.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 60000);
    QCOMPARE(rec.points.size(), rec.results->points().size());
}

void TestSearchJob::cancelKeepsValidPartialResults() {
    const SearchRequest request = searchRequest("opt-1.3b", largeSpace());
    const search::SearchGrid grid = gridOf(request.space);
    SearchJob job;
    SearchRecorder rec(job);
    QVERIFY(job.start(request));
    QTRY_VERIFY_WITH_TIMEOUT(!rec.points.empty() || rec.done(), 300000);
    QVERIFY2(!rec.done(), "the large search finished before it could be cancelled");
    // The explorer starts no point after a cancel: only the points running on the two workers
    // (and any a worker picked up while the count was read) can still finish.
    const std::int64_t before = job.pointsFinished();
    job.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 60000);
    const std::int64_t after = std::int64_t(rec.points.size()) - before;
    qInfo("cancelled after %lld of %lld points; %lld more finished after cancel()",
          static_cast<long long>(before), static_cast<long long>(grid.pointCount()),
          static_cast<long long>(after));
    QVERIFY2(rec.error.isEmpty(), qPrintable(rec.error));
    const auto& results = *rec.results;
    QCOMPARE(results.statistics().threads, request.threads);
    QVERIFY(after >= 0);
    QVERIFY(after <= 2 * std::int64_t(request.threads));
    QVERIFY(results.statistics().cancelled);
    QVERIFY(results.points().size() < std::size_t(grid.pointCount()));
    QCOMPARE(rec.points.size(), results.points().size());
    verifyValidSubset(results.points(), grid);
    if (QTest::currentTestFailed()) return;
    QVERIFY(rec.baselines);  // derived from the subset
    QVERIFY(!job.running());
}

void TestSearchJob::eventLoopTurnsBetweenBatches() {
    SearchJob job;
    SearchRecorder rec(job);
    // A 10 ms probe on the GUI thread; each batch notes how many probe ticks came before it.
    int ticks = 0;
    std::vector<int> ticksAtBatch;
    QTimer probe;
    probe.setInterval(10);
    connect(&probe, &QTimer::timeout, [&] { ++ticks; });
    connect(&job, &SearchJob::pointsReady, [&] { ticksAtBatch.push_back(ticks); });
    probe.start();
    QVERIFY(job.start(searchRequest("gpt2-xl", largeSpace(), 2)));
    // Points streaming in, every worker busy: wait for a dozen batches.
    QTRY_VERIFY_WITH_TIMEOUT(ticksAtBatch.size() >= 12 || rec.done(), 300000);
    job.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 60000);
    probe.stop();
    qInfo("%zu batches, %d probe ticks", ticksAtBatch.size(), ticks);
    QVERIFY(ticksAtBatch.size() >= 12);
    // The search never holds the GUI thread: between two batches (one flush interval apart)
    // the probe always got its turn. The final flush in finished() may follow a batch directly.
    for (std::size_t i = 1; i + 1 < ticksAtBatch.size(); ++i)
        QVERIFY2(ticksAtBatch[i] > ticksAtBatch[i - 1],
                 qPrintable(QString("no probe tick between batches %1 and %2").arg(i - 1).arg(i)));
}

void TestSearchJob::aSpaceBeyondMemoryFailsBeforeAnyPoint() {
    // PHAZE's 29,360 chips × 64 microbatch sizes × 64 HBM sizes × 3 = 361 M points: hundreds of
    // GiB. The app's search (core runSearch) refuses it with the estimate, as the CLI does,
    // before the reference chip or any point runs. (It used to queue every point first.)
    search::SearchSpace huge = search::SearchSpace::phaze();
    huge.microbatchSizes.clear();
    huge.hbmCapacityBytes.clear();
    for (std::int64_t k = 1; k <= 64; ++k) {
        huge.microbatchSizes.push_back(k);
        huge.hbmCapacityBytes.push_back((15 + k) * kGiB);
    }
    huge.recompute = {hardware::Recompute::Off, hardware::Recompute::On, hardware::Recompute::Auto};
    SearchJob job;
    SearchRecorder rec(job);
    QVERIFY(job.start(searchRequest("gpt2-xl", huge)));
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 60000);
    qInfo("%s", qPrintable(rec.error));
    QVERIFY(!rec.results);
    QVERIFY(rec.error.contains("of memory") && rec.error.contains("--shard K/N"));
    QCOMPARE(rec.batchSizes.size(), std::size_t(0));
}

void TestSearchJob::inputsAreRefusedWithReasons() {
    SearchJob job;
    SearchRecorder rec(job);
    QSignalSpy started(&job, &SearchJob::started);
    QString why;
    SearchRequest noModel = searchRequest("gpt2-xl", smallSpace());
    noModel.models.clear();
    QVERIFY(!job.start(noModel, &why));
    QVERIFY(why.contains("model"));
    noModel.models = {nullptr};
    why.clear();
    QVERIFY(!job.start(noModel, &why));
    QVERIFY(why.contains("model"));
    QCOMPARE(started.count(), 0);

    // One search at a time: the second start is refused, the first goes on.
    QVERIFY(job.start(searchRequest("gpt2-xl", largeSpace())));
    why.clear();
    QVERIFY(!job.start(searchRequest("gpt2-xl", smallSpace()), &why));
    QVERIFY(why.contains("already running"));
    QVERIFY(job.running());
    job.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 120000);
    QVERIFY(rec.results && rec.results->statistics().cancelled);
    QCOMPARE(started.count(), 1);

    // Errors found on the search thread arrive through failed(). (An unknown explorer name is
    // refused where it is parsed: the request holds an ExplorerKind.)
    SearchRequest badSpace = searchRequest("gpt2-xl", smallSpace());
    badSpace.space.numTensorCores = {0};
    SearchRecorder rec2(job);
    QVERIFY(job.start(badSpace));
    QTRY_VERIFY_WITH_TIMEOUT(rec2.done(), 120000);
    qInfo("bad space: %s", qPrintable(rec2.error));
    QVERIFY(rec2.error.contains("numTensorCores"));
    QVERIFY(!rec2.results);

    // Without baselines the results still come, and the job says why there are none.
    SearchRequest plain = searchRequest("gpt2-xl", smallSpace());
    SearchRecorder rec3(job);
    QVERIFY(job.start(plain, nullptr, {.baselines = false}));
    QTRY_VERIFY_WITH_TIMEOUT(rec3.done(), 300000);
    QVERIFY(rec3.results && !rec3.baselines);
    QVERIFY(!job.baselineMessage().isEmpty());
    QCOMPARE(rec3.progress.back().total, gridOf(plain.space).pointCount());
}

void TestSearchJob::destroyingRunningSearch() {
    auto* job = new SearchJob;
    QVERIFY(job->start(searchRequest("opt-1.3b", largeSpace())));
    QVERIFY(blockUntilFinished(*job, 1));  // mid-search: minutes of points still to go
    QVERIFY(job->running());
    {
        Watchdog watchdog("destroying a running search", 60);
        delete job;  // cancels and joins the search thread
    }
    QTest::qWait(100);  // a stray queued outcome would now hit a dead object
}

QTEST_MAIN(TestSearchJob)
#include "test_search_job.moc"
