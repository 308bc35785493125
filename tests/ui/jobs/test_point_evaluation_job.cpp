// PointEvaluationJob against a direct placeModel() call as its oracle: a debounced burst of ten
// requests runs once and answers once, for the last id, with the same plan placeModel() gives
// for that request (and not the plan of the first request, which differs); a slow request
// (PHAZE's reference ILP with the cache off and a 600 s limit: over ten minutes uncancelled)
// superseded by a fast one is cancelled through its RunControl and its answer dropped, not
// emitted, and the fast answer arrives; bad requests fail with a message; a job destroyed
// mid-run cancels and joins its worker, neither crashing nor hanging. Generous watchdogs (a
// minute) guard against hangs; how fast a cancel lands is bench_responsiveness' business.
#include <QSignalSpy>
#include <QtTest>

#include "tests/ui/jobs/jobs_test_support.h"
#include "ui/jobs/point_evaluation_job.h"

using namespace jobs_test;
using tandem::ui::PointEvaluationJob;
using Placement = std::shared_ptr<const placement::ModelPlacement>;

namespace {

void comparePlans(const placement::Plan& got, const placement::Plan& want) {
    QVERIFY(got.throughputSamplesPerSecond == want.throughputSamplesPerSecond);
    QVERIFY(got.timePerBatchSeconds == want.timePerBatchSeconds);
    QCOMPARE(got.tensorParallel, want.tensorParallel);
    QCOMPARE(got.dataParallel, want.dataParallel);
    QCOMPARE(got.stages.size(), want.stages.size());
    for (std::size_t s = 0; s < want.stages.size(); ++s)
        QCOMPARE(got.stages[s].layers, want.stages[s].layers);
}

}  // namespace

class TestPointEvaluationJob : public QObject {
    Q_OBJECT
private slots:
    void rapidRequestsAnswerOnceForTheLast();
    void supersededSlowRequestIsDropped();
    void evaluationErrorsAreReported();
    void destroyingRunningJob();
};

void TestPointEvaluationJob::rapidRequestsAnswerOnceForTheLast() {
    PointEvaluationJob job;
    job.setDebounceMs(150);
    QSignalSpy started(&job, &PointEvaluationJob::started);
    QSignalSpy finished(&job, &PointEvaluationJob::finished);
    QSignalSpy failed(&job, &PointEvaluationJob::failed);
    QSignalSpy busy(&job, &PointEvaluationJob::busyChanged);
    QVERIFY(!job.busy());

    // Ten edits in a row: the microbatch size walks 1, 2, …, 10.
    std::vector<quint64> ids;
    placement::ModelPlacementRequest last;
    for (std::int64_t mbs = 1; mbs <= 10; ++mbs) {
        last = pointRequest("gpt2-xl", mbs);
        ids.push_back(job.request(last));
    }
    for (std::size_t i = 0; i < ids.size(); ++i) QCOMPARE(ids[i], quint64(i + 1));
    QVERIFY(job.busy());
    QCOMPARE(job.latestId(), ids.back());

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QTest::qWait(400);  // longer than the debounce: nothing else may follow
    QCOMPARE(started.count(), 1);
    QCOMPARE(started.at(0).at(0).value<quint64>(), ids.back());
    QCOMPARE(finished.count(), 1);
    QCOMPARE(failed.count(), 0);
    QCOMPARE(finished.at(0).at(0).value<quint64>(), ids.back());
    QCOMPARE(job.droppedResults(), qint64(0));  // the other nine never ran
    QVERIFY(!job.busy());
    QCOMPARE(busy.count(), 2);  // true once, false once
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(busy.at(1).at(0).toBool(), false);

    const Placement got = finished.at(0).at(1).value<Placement>();
    QVERIFY(got);
    const auto want = placement::placeModel(last);
    QVERIFY2(want.ok(), want.ok() ? "" : want.message().c_str());
    QVERIFY(got->result.plan && want->result.plan);
    comparePlans(*got->result.plan, *want->result.plan);
    QCOMPARE(bool(got->baseline), bool(want->baseline));
    QCOMPARE(got->widths.size(), want->widths.size());
    // The oracle can tell requests apart: the first edit's plan is a different one.
    const auto first = placement::placeModel(pointRequest("gpt2-xl", 1));
    QVERIFY(first.ok() && first->result.plan);
    QVERIFY(first->result.plan->throughputSamplesPerSecond !=
            got->result.plan->throughputSamplesPerSecond);
    qInfo("last of 10 requests: mbs 10, %.3f samples/s (first: %.3f samples/s)",
          got->result.plan->throughputSamplesPerSecond,
          first->result.plan->throughputSamplesPerSecond);
}

void TestPointEvaluationJob::supersededSlowRequestIsDropped() {
    PointEvaluationJob job;
    QSignalSpy started(&job, &PointEvaluationJob::started);
    QSignalSpy finished(&job, &PointEvaluationJob::finished);
    QSignalSpy failed(&job, &PointEvaluationJob::failed);

    job.request(slowRequest());
    const quint64 slowId = job.evaluateNow();
    QCOMPARE(slowId, quint64(1));
    QCOMPARE(started.count(), 1);
    QCOMPARE(job.evaluateNow(), quint64(0));  // nothing pending any more
    QTest::qWait(500);                        // let it get deep into the ILP
    QVERIFY(job.busy());
    QCOMPARE(finished.count() + failed.count(), 0);

    const placement::ModelPlacementRequest fast = pointRequest("bert-large", 2);
    job.request(fast);
    const quint64 fastId = job.evaluateNow();
    QCOMPARE(fastId, quint64(2));
    // The slow run answers (cancelled) well before its ten minutes: it was cancelled, and its
    // answer is dropped rather than emitted.
    QTRY_VERIFY_WITH_TIMEOUT(job.droppedResults() >= 1, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(job.droppedResults(), qint64(1));
    QCOMPARE(failed.count(), 0);  // the cancellation of the old run is not reported
    QCOMPARE(started.count(), 2);
    QCOMPARE(finished.at(0).at(0).value<quint64>(), fastId);
    const Placement got = finished.at(0).at(1).value<Placement>();
    const auto want = placement::placeModel(fast);
    QVERIFY(want.ok() && want->result.plan && got && got->result.plan);
    comparePlans(*got->result.plan, *want->result.plan);
    QVERIFY(!job.busy());
}

void TestPointEvaluationJob::evaluationErrorsAreReported() {
    PointEvaluationJob job;
    job.setDebounceMs(0);
    QSignalSpy finished(&job, &PointEvaluationJob::finished);
    QSignalSpy failed(&job, &PointEvaluationJob::failed);

    // gpt3-175b has 96 attention heads: a tensor-parallel width of 7 cannot split them.
    placement::ModelPlacementRequest bad = pointRequest("gpt3-175b", 1);
    bad.widths = {7};
    const quint64 id = job.request(bad);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
    QCOMPARE(failed.at(0).at(0).value<quint64>(), id);
    const QString message = failed.at(0).at(1).toString();
    qInfo("width 7: %s", qPrintable(message));
    QVERIFY(message.contains('7'));

    placement::ModelPlacementRequest empty;  // no model at all
    const quint64 emptyId = job.request(empty);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, 60000);
    QCOMPARE(failed.at(1).at(0).value<quint64>(), emptyId);
    QVERIFY(!failed.at(1).at(1).toString().isEmpty());
    QCOMPARE(finished.count(), 0);
    QVERIFY(!job.busy());

    // cancel(): the pending request never runs and nothing is emitted for it.
    job.setDebounceMs(200);
    job.request(pointRequest("bert-large", 1));
    QVERIFY(job.busy());
    job.cancel();
    QVERIFY(!job.busy());
    QTest::qWait(400);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(failed.count(), 2);
}

void TestPointEvaluationJob::destroyingRunningJob() {
    auto* job = new PointEvaluationJob;
    job->request(slowRequest());
    QVERIFY(job->evaluateNow() != 0);
    QTest::qWait(300);
    QVERIFY(job->busy());
    {
        // Uncancelled, the ILP would keep the destructor waiting for over ten minutes.
        Watchdog watchdog("destroying a running evaluation", 60);
        delete job;  // cancels the ILP and waits for the worker
    }
    QTest::qWait(100);  // a stray queued answer would now hit a dead object
}

QTEST_MAIN(TestPointEvaluationJob)
#include "test_point_evaluation_job.moc"
