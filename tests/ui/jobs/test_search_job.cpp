// SearchJob against oracles counted from the inputs: a small search streams every grid point
// exactly once (sum of batch sizes == results size == SearchGrid::pointCount()), in batches no
// more often than the batch interval; progress ends at done == total == the grid's points (the
// reference chip runs first, unreported); the best point and the reference-chip baseline match
// direct placeModel() calls. A
// cancelled search answers within 1 s with statistics().cancelled and a valid strict subset. A
// 10 ms timer on the GUI thread never stalls over 100 ms while the search keeps two workers
// busy. Bad inputs are refused or fail with a reason; a running search can be destroyed. The
// status-bar widget shows the job's progress text, cancels it, and summarises how it ended.
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>
#include <set>

#include "core/common/units.h"
#include "core/search/search_baselines.h"
#include "tests/ui/jobs/jobs_test_support.h"
#include "tests/ui/test_output_dir.h"
#include "ui/jobs/search_status_widget.h"

using namespace jobs_test;
using tandem::core::formatCount;

namespace {

placement::ModelPlacementRequest placementOf(const SearchRequest& r, const search::SearchPoint& p) {
    placement::ModelPlacementRequest out;
    out.model = r.model;
    out.hardware = r.space.base;
    out.hardware.accelerator = p.accelerator;
    out.training = r.training;
    out.training.microbatch = p.microbatchSize;
    out.training.recompute = p.recompute;
    out.widths = r.space.widthsFor(*r.model);
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

// Batches and progress are throttled: no two timer batches closer than the 100 ms interval (the
// final flush may follow a timer batch closely; 5 ms for rounding), and no more progress signals
// than timer ticks.
void verifyThrottled(const SearchRecorder& rec) {
    for (std::size_t i = 1; i + 1 < rec.batchTimes.size(); ++i) {
        const qint64 gap = rec.batchTimes[i] - rec.batchTimes[i - 1];
        QVERIFY2(gap >= 95, qPrintable(QString("batches %1 ms apart").arg(gap)));
    }
    QVERIFY(!rec.progress.empty());
    QVERIFY(qint64(rec.progress.size()) <= rec.finishedAt / 95 + 2);
}

}  // namespace

class TestSearchJob : public QObject {
    Q_OBJECT
private slots:
    void smallSearchStreamsEveryPoint();
    void cancelKeepsValidPartialResults();
    void guiThreadStaysResponsive();
    void inputsAreRefusedWithReasons();
    void destroyingRunningSearch();
    void statusWidgetFollowsTheSearch();
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
    qInfo("%lld grid points (+%lld reference) in %zu batches, %zu progress signals, %lld ms",
          static_cast<long long>(grid.pointCount()), static_cast<long long>(reference.pointCount()),
          rec.batchSizes.size(), rec.progress.size(), static_cast<long long>(rec.finishedAt));
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

    verifyThrottled(rec);
    if (QTest::currentTestFailed()) return;
    QVERIFY(rec.batchSizes.size() >= 3);  // it did stream, not answer in one go
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

void TestSearchJob::cancelKeepsValidPartialResults() {
    const SearchRequest request = searchRequest("opt-1.3b", largeSpace());
    const search::SearchGrid grid = gridOf(request.space);
    SearchJob job;
    SearchRecorder rec(job);
    QVERIFY(job.start(request));
    QTRY_VERIFY_WITH_TIMEOUT(!rec.points.empty() || rec.done(), 300000);
    QVERIFY2(!rec.done(), "the large search finished before it could be cancelled");
    QElapsedTimer clock;
    clock.start();
    job.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 10000);
    const qint64 latency = clock.elapsed();
    qInfo("cancelled after %zu of %lld points; finished() came %lld ms after cancel()",
          rec.points.size(), static_cast<long long>(grid.pointCount()),
          static_cast<long long>(latency));
    QVERIFY(latency < 1000);
    QVERIFY2(rec.error.isEmpty(), qPrintable(rec.error));
    const auto& results = *rec.results;
    QVERIFY(results.statistics().cancelled);
    QVERIFY(results.points().size() < std::size_t(grid.pointCount()));
    QCOMPARE(rec.points.size(), results.points().size());
    verifyValidSubset(results.points(), grid);
    if (QTest::currentTestFailed()) return;
    QVERIFY(rec.baselines);  // derived from the subset
    QVERIFY(!job.running());
}

void TestSearchJob::guiThreadStaysResponsive() {
    SearchJob job;
    SearchRecorder rec(job);
    QElapsedTimer sinceTick;
    qint64 worstGap = 0;
    int ticks = 0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(10);
    connect(&probe, &QTimer::timeout, [&] {
        if (ticks++ > 0) worstGap = std::max(worstGap, sinceTick.elapsed());
        sinceTick.restart();
    });
    sinceTick.start();
    probe.start();
    QVERIFY(job.start(searchRequest("gpt2-xl", largeSpace(), 2)));
    QTRY_VERIFY_WITH_TIMEOUT(!rec.points.empty() || rec.done(), 300000);
    QTest::qWait(3000);  // points streaming in, every worker busy
    job.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 10000);
    probe.stop();
    qInfo("event-loop probe: %d ticks, largest gap %lld ms, %zu points in %zu batches", ticks,
          static_cast<long long>(worstGap), rec.points.size(), rec.batchSizes.size());
    QVERIFY(ticks > 100);
    QVERIFY(!rec.points.empty());
    QVERIFY(worstGap < 100);
    verifyThrottled(rec);
    if (QTest::currentTestFailed()) return;
}

void TestSearchJob::inputsAreRefusedWithReasons() {
    SearchJob job;
    SearchRecorder rec(job);
    QSignalSpy started(&job, &SearchJob::started);
    QString why;
    SearchRequest noModel = searchRequest("gpt2-xl", smallSpace());
    noModel.model.reset();
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
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 10000);
    QVERIFY(rec.results && rec.results->statistics().cancelled);
    QCOMPARE(started.count(), 1);

    // Errors found on the search thread arrive through failed().
    SearchRequest badExplorer = searchRequest("gpt2-xl", smallSpace());
    badExplorer.explorer = "greedy";
    SearchRecorder rec2(job);
    QVERIFY(job.start(badExplorer));
    QTRY_VERIFY_WITH_TIMEOUT(rec2.done(), 10000);
    qInfo("bad explorer: %s", qPrintable(rec2.error));
    QVERIFY(rec2.error.contains("greedy") && rec2.error.contains("exhaustive"));

    SearchRequest badSpace = searchRequest("gpt2-xl", smallSpace());
    badSpace.space.numTensorCores = {0};
    SearchRecorder rec3(job);
    QVERIFY(job.start(badSpace));
    QTRY_VERIFY_WITH_TIMEOUT(rec3.done(), 10000);
    qInfo("bad space: %s", qPrintable(rec3.error));
    QVERIFY(rec3.error.contains("numTensorCores"));
    QVERIFY(!rec3.results);

    // Without baselines the results still come, and the job says why there are none.
    SearchRequest plain = searchRequest("gpt2-xl", smallSpace());
    plain.computeBaselines = false;
    SearchRecorder rec4(job);
    QVERIFY(job.start(plain));
    QTRY_VERIFY_WITH_TIMEOUT(rec4.done(), 300000);
    QVERIFY(rec4.results && !rec4.baselines);
    QVERIFY(!job.baselineMessage().isEmpty());
    QCOMPARE(rec4.progress.back().total, gridOf(plain.space).pointCount());
}

void TestSearchJob::destroyingRunningSearch() {
    auto* job = new SearchJob;
    QVERIFY(job->start(searchRequest("opt-1.3b", largeSpace())));
    QTest::qWait(1500);
    QVERIFY(job->running());
    QElapsedTimer clock;
    clock.start();
    delete job;  // cancels and joins the search thread
    qInfo("destroyed a running search in %lld ms", static_cast<long long>(clock.elapsed()));
    QVERIFY(clock.elapsed() < 3000);
    QTest::qWait(100);
}

void TestSearchJob::statusWidgetFollowsTheSearch() {
    SearchJob job;
    SearchRecorder rec(job);
    tandem::ui::SearchStatusWidget widget(&job);
    widget.resize(widget.sizeHint());
    widget.show();
    auto* cancel = widget.findChild<QToolButton*>();
    QVERIFY(cancel && !cancel->isVisible());

    const SearchRequest request = searchRequest("opt-1.3b", largeSpace());
    const search::SearchGrid grid = gridOf(request.space);
    QVERIFY(job.start(request));
    QTRY_VERIFY_WITH_TIMEOUT(rec.points.size() >= 16, 300000);
    QTest::qWait(300);
    QVERIFY(cancel->isVisible() && cancel->isEnabled());
    // "n / total points · r points/s · ETA t": the total counted from the grids.
    const QString running = widget.progressText();
    const QString total = QString::fromStdString(formatCount(
        double(grid.pointCount())));
    qInfo("running: %s", qPrintable(running));
    QVERIFY(running.contains(" / " + total + " points") && running.contains("points/s") &&
            running.contains("ETA"));
    widget.resize(widget.sizeHint());
    QVERIFY(widget.grab().save(tandem::test::outputPath("jobs_status_running.png")));

    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(!cancel->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(rec.done(), 10000);
    QVERIFY(!cancel->isVisible());
    const QString summary = widget.summaryText();
    qInfo("after cancel: %s", qPrintable(summary));
    QVERIFY(summary.contains("cancelled"));
    QVERIFY(summary.contains(QString::fromStdString(formatCount(double(rec.points.size()))) +
                             " of " +
                             QString::fromStdString(formatCount(double(grid.pointCount())))));
    widget.resize(widget.sizeHint());
    QVERIFY(widget.grab().save(tandem::test::outputPath("jobs_status_cancelled.png")));

    SearchRequest bad = request;
    bad.explorer = "greedy";
    QVERIFY(job.start(bad));
    QTRY_VERIFY_WITH_TIMEOUT(widget.summaryText().contains("failed"), 10000);
    QVERIFY(widget.summaryText().contains("greedy"));
}

QTEST_MAIN(TestSearchJob)
#include "test_search_job.moc"
