// Ctrl+C and SIGTERM on the real executable: a long search stops, writes the points that
// finished (marked cancelled) and exits 130; a long schedule prints the schedules it has, marked
// cancelled, and exits 143 for SIGTERM. Progress reaches stderr while the work runs. The time
// from the signal to the exit is printed, never asserted (ctest's timeout catches a hang).
#include <signal.h>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/app/cli/cli_test_support.h"

namespace {

// Starts the CLI and waits (up to a minute) until it has printed `marker` on stderr, which the
// command does only from inside its long computation, with its signal handler installed.
bool startAndWaitFor(QProcess& process, const QStringList& args, const QByteArray& marker,
                     QByteArray& err) {
    process.start(TANDEM_CLI_PATH, args);
    if (!process.waitForStarted(30000)) return false;
    QElapsedTimer waited;
    waited.start();
    while (!err.contains(marker) && waited.elapsed() < 60000) {
        process.waitForReadyRead(200);
        err += process.readAllStandardError();
        if (process.state() != QProcess::Running) return false;
    }
    return err.contains(marker);
}

// Sends the signal and waits for the exit (a watchdog against hangs, not a goal); prints how
// long the stop took.
bool signalAndWait(QProcess& process, int signal, const char* what) {
    QElapsedTimer timer;
    timer.start();
    ::kill(pid_t(process.processId()), signal);
    const bool finished = process.waitForFinished(120000);
    qInfo("%s stopped %lld ms after the signal", what, timer.elapsed());
    return finished;
}

}  // namespace

class TestCliInterrupt : public QObject {
    Q_OBJECT

private slots:
    void ctrlCStopsASearchAndKeepsItsPoints() {
        QTemporaryDir dir;
        const QString json = dir.filePath("partial.json");
        QProcess process;
        QByteArray err;
        // The full PHAZE space of one model: hours of work on two cores.
        QVERIFY2(startAndWaitFor(process,
                                 {"search", "--model", "gpt2-xl", "--threads", "2", "--json", json},
                                 "search: ", err),
                 err.constData());
        QVERIFY(signalAndWait(process, SIGINT, "search"));
        err += process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 130);
        QVERIFY2(err.contains("interrupted (Ctrl+C) after "), err.constData());
        // Issue 27, item 4: the summary calls its best the best so far, never an optimum.
        const QByteArray out = process.readAllStandardOutput();
        QVERIFY2(out.contains("Best point so far: "), out.constData());
        QVERIFY2(out.contains("best so far (cancelled)"), out.constData());
        QVERIFY2(!out.contains("joint optimum"), out.constData());
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject results = cli_test::parseObject(file.readAll().toStdString());
        QCOMPARE(results.value("cancelled").toBool(), true);
        const qint64 evaluated = results.value("evaluated").toInteger();
        QVERIFY(evaluated > 0);
        QVERIFY(evaluated < results.value("points_in_space").toInteger());
        QCOMPARE(qint64(results.value("points").toArray().size()), evaluated);
    }

    void sigtermStopsAScheduleAndShowsWhatItHas() {
        QProcess process;
        QByteArray err;
        // PHAZE's reference ILP on GPT-3's layers, 600 s per solve: long after the first layer.
        QVERIFY2(startAndWaitFor(process,
                                 {"schedule", "--model", "gpt3-175b", "--formulation", "reference",
                                  "--time-limit", "600"},
                                 "schedule: scheduled ", err),
                 err.constData());
        QVERIFY(signalAndWait(process, SIGTERM, "schedule"));
        err += process.readAllStandardError();
        const QByteArray out = process.readAllStandardOutput();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 143);
        QVERIFY2(err.contains("interrupted (SIGTERM)"), err.constData());
        QVERIFY2(out.contains("layer makespans"), out.constData());
        QVERIFY2(out.contains("cancelled"), out.constData());
    }

    void quickCommandsPrintNoProgress() {
        const auto r = cli_test::run({"place", "--model", "gpt2-xl"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.empty(), r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliInterrupt)
#include "test_cli_interrupt.moc"
