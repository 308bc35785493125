// CalibrationJob: the calibration of Hardware ▸ Calibrate from measurements… off the GUI thread.
// Oracle: runCalibration (the same chain, on the test's thread) and core's calibrate() with the
// same runs, start and options, bit for bit. Only the latest start() answers; a cancel ends a
// long fit soon with the best point so far (or "cancelled" while the models are built); a
// malformed file is a failure with the reader's message.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "core/hardware/preset_library.h"
#include "core/validation/measured_run_set.h"
#include "core/validation/run_predictor.h"
#include "test_paths.h"
#include "ui/jobs/calibration_job.h"

using namespace tandem;
using tandem::ui::CalibrationJob;
using tandem::ui::CalibrationOutcome;
using tandem::ui::CalibrationRequest;

namespace {

CalibrationRequest smallRequest(int evaluations) {
    CalibrationRequest r;
    r.runsFile = test::testDataDir() + "/calibration/small-runs.csv";
    auto start = core::hardware::PresetLibrary::preset("a100-like");
    if (!start) qFatal("%s", start.message().c_str());
    r.start = *start;
    r.options.parameters = {"tensorCoreEfficiency", "collectiveEfficiency"};
    r.options.folds = 2;
    r.options.maxEvaluations = evaluations;
    r.threads = 2;
    return r;
}

std::shared_ptr<const CalibrationOutcome> outcomeOf(const QSignalSpy& spy, int i) {
    return spy[i][1].value<std::shared_ptr<const CalibrationOutcome>>();
}

}  // namespace

class TestCalibrationJob : public QObject {
    Q_OBJECT
private slots:
    void answersAsCoreDoes() {
        const CalibrationRequest request = smallRequest(10);
        CalibrationJob job;
        QSignalSpy finished(&job, &CalibrationJob::finished);
        QSignalSpy progress(&job, &CalibrationJob::progress);
        const quint64 id = job.start(request);
        QVERIFY(job.running());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        QVERIFY(!job.running());
        QCOMPARE(finished[0][0].value<quint64>(), id);
        const auto outcome = outcomeOf(finished, 0);
        for (const auto& p : progress) {
            const double f = p[1].toDouble();
            QVERIFY(f >= 0 && f <= 1);
        }

        auto set = core::validation::runSetFromFile(request.runsFile, "a100-like");
        QVERIFY(set);
        auto predictor = core::validation::RunPredictor::create(set->runs);
        QVERIFY(predictor);
        core::calibration::CalibrationOptions options = request.options;
        options.source = request.runsFile;
        auto oracle = core::calibration::calibrate(**predictor, request.start, options);
        QVERIFY(oracle);
        const auto& r = outcome->result;
        QCOMPARE(outcome->runs.size(), set->runs.size());
        QCOMPARE(r.source, request.runsFile);
        QVERIFY(r.fitted == oracle->fitted);
        QCOMPARE(r.parameters.size(), oracle->parameters.size());
        for (std::size_t i = 0; i < r.parameters.size(); ++i)
            QCOMPARE(r.parameters[i].fitted, oracle->parameters[i].fitted);
        for (std::size_t i = 0; i < r.validatedRuns.size(); ++i)
            QCOMPARE(r.validatedRuns[i].predictedSeconds,
                     oracle->validatedRuns[i].predictedSeconds);
        QCOMPARE(r.trainingError.meanAbsError, oracle->trainingError.meanAbsError);
    }

    void onlyTheLatestAnswers() {
        CalibrationJob job;
        QSignalSpy finished(&job, &CalibrationJob::finished);
        QSignalSpy failed(&job, &CalibrationJob::failed);
        job.start(smallRequest(2000));  // long: superseded and cancelled at once
        const quint64 latest = job.start(smallRequest(5));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 120000);
        job.waitForDone();
        QTest::qWait(300);  // a stale answer would have arrived by now
        QCOMPARE(failed.size(), 0);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished[0][0].value<quint64>(), latest);
        QVERIFY(!outcomeOf(finished, 0)->result.cancelled);
        QCOMPARE(job.latestId(), latest);
    }

    void cancelStopsSoon() {
        CalibrationJob job;
        QSignalSpy finished(&job, &CalibrationJob::finished);
        QSignalSpy failed(&job, &CalibrationJob::failed);
        QSignalSpy progress(&job, &CalibrationJob::progress);
        CalibrationRequest request = smallRequest(5000);
        request.runsFile.clear();
        request.bundledSet = "single-node-a100";  // 1,440 runs: minutes without the cancel
        job.start(request);
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), 60000);
        job.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!job.running(), 60000);
        QCOMPARE(finished.size() + failed.size(), 1);
        if (!finished.isEmpty())
            QVERIFY(outcomeOf(finished, 0)->result.cancelled);
        else
            QCOMPARE(failed[0][1].toString(), QString("cancelled"));
    }

    void malformedFileFails() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("broken.csv");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name,GPUs\nrun,abc\n");
        f.close();
        CalibrationRequest request = smallRequest(5);
        request.runsFile = path.toStdString();
        CalibrationJob job;
        QSignalSpy failed(&job, &CalibrationJob::failed);
        job.start(request);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 60000);
        QVERIFY(failed[0][1].toString().contains("broken.csv"));
    }
};

QTEST_MAIN(TestCalibrationJob)
#include "test_calibration_job.moc"
