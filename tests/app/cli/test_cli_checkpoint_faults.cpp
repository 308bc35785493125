// Faults around a search's --checkpoint, through the real executable (issue 24, items 2 and 3).
// - A checkpoint that cannot be written: the run's file-size limit makes every write past it fail
//   (EFBIG, "File too large") as a full disk fails it (ENOSPC) — a real failure of write(2), no
//   root needed. The failure is reported on stderr while the search still runs; a run that goes
//   on to the end writes its complete results and exits 0; one interrupted after it writes the
//   points that finished, says how many the checkpoint kept and that rerunning resumes, and the
//   rerun (the disk freed) ends with the result of one uninterrupted run.
// - A second run on a checkpoint in use is refused with exit 2, naming the process that holds it
//   and what to do; the first run goes on and its checkpoint holds every point once. Under
//   mpirun the refusal (on rank 0, which keeps the checkpoint) stops every rank.
// - A checkpoint whose points were appended twice (two runs at once, before checkpoints were
//   locked) resumes to the same result; copies of a point that disagree are refused with advice.
// - A complete checkpoint that cannot be written (read-only) resumes: it is only read, never cut
//   or appended to. As root, the run drops to the unprivileged user so that the mode applies.
// The oracle is one uninterrupted run of the same search. Waits are bounded, never asserted.
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>

#include "app/cli/mpi_job.h"
#include "core/search/checkpoint_lock.h"
#include "tests/app/cli/cli_test_support.h"
#include "tests/app/cli/search_files_support.h"

using namespace cli_test;

namespace {

// Far below the checkpoint's ~700 kB, far above its first two lines: the writes fail mid-run.
constexpr rlim_t kFileSizeLimit = 64 * 1024;

// Starts tandem-cli with `args`; with `limitFileSize`, every write past kFileSizeLimit bytes of
// a file fails (SIGXFSZ ignored, so write(2) returns EFBIG).
void start(QProcess& process, const Args& args, bool limitFileSize = false) {
    QStringList list;
    for (const std::string& a : args) list << QString::fromStdString(a);
    if (limitFileSize)
        process.setChildProcessModifier([] {
            ::signal(SIGXFSZ, SIG_IGN);
            rlimit limit{};
            ::getrlimit(RLIMIT_FSIZE, &limit);
            limit.rlim_cur = kFileSizeLimit;
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
    process.start(TANDEM_CLI_PATH, list);
}

// Waits (at most two minutes) until `done` holds or the process ends; whether it still runs.
bool runningUntil(QProcess& process, const std::function<bool()>& done) {
    QElapsedTimer waited;
    waited.start();
    while (!done() && process.state() == QProcess::Running && waited.elapsed() < 120000)
        process.waitForFinished(100);
    return process.state() == QProcess::Running;
}

}  // namespace

class TestCliCheckpointFaults : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string path(const std::string& name) const {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }

    // The oracle: the search run once, whole, in one process.
    Json once() {
        const std::string json = path("once.json");
        if (!exists(json)) {
            const auto r = run(gpt3({"--json", json}));
            if (r.code != 0) qWarning("the uninterrupted run failed: %s", r.err.c_str());
        }
        return comparable(json);
    }

private slots:
    void checkpointOnAFullDiskStillWritesTheResults() {
        const Json expected = once();
        QVERIFY(expected.is_object());
        const std::string ck = path("full.ckpt");
        QProcess process;
        start(process, gpt3({"--checkpoint", ck, "--json", "-"}), true);
        QVERIFY(process.waitForStarted(30000));
        QByteArray err;
        const bool warnedWhileRunning = runningUntil(process, [&] {
            err += process.readAllStandardError();
            return err.contains("checkpoint");
        });
        QVERIFY2(warnedWhileRunning, err.constData());  // at once, not when the search ends
        QVERIFY(process.waitForFinished(300000));
        err += process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 0, err.constData());
        for (const char* says : {"File too large", "without the checkpoint", "complete"})
            QVERIFY2(err.contains(says), err.constData());
        QVERIFY2(err.contains(QByteArray::fromStdString(ck)), err.constData());
        const std::string differ =
            difference(comparableJson(process.readAllStandardOutput()), expected);
        QVERIFY2(differ.empty(), differ.c_str());
        const qint64 space = expected["points_in_space"].get<qint64>();
        QVERIFY(recordsIn(ck) < space);
    }

    void interruptedAfterAFullDiskSaysHowToResume() {
        const Json expected = once();
        QVERIFY(expected.is_object());
        const qint64 space = expected["points_in_space"].get<qint64>();
        const std::string ck = path("full-interrupted.ckpt");
        QProcess process;
        start(process, gpt3({"--checkpoint", ck, "--json", "-"}), true);
        QVERIFY(process.waitForStarted(30000));
        QByteArray err;
        QVERIFY2(runningUntil(process,
                              [&] {
                                  err += process.readAllStandardError();
                                  return err.contains("checkpoint");
                              }),
                 err.constData());
        ::kill(pid_t(process.processId()), SIGTERM);
        QVERIFY(process.waitForFinished(120000));
        err += process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 143, err.constData());
        const Json partial = comparableJson(process.readAllStandardOutput());
        QVERIFY(partial.is_object());
        QCOMPARE(partial.value("cancelled", false), true);
        QVERIFY(partial["evaluated"].get<qint64>() < space);

        // What the checkpoint kept (its whole lines; a write cut at the limit left a torn one),
        // and that the same command resumes from it.
        const qint64 kept = recordsIn(ck);
        QVERIFY(kept >= 0);
        QVERIFY(kept < partial["evaluated"].get<qint64>());
        const QByteArray says = "the checkpoint holds " + QByteArray::number(kept) + " of them";
        QVERIFY2(err.contains(says) && err.contains("resume"), err.constData());

        // The disk freed, the same command resumes and ends with the uninterrupted run's result.
        const std::string json = path("full-resumed.json");
        const auto r = run(gpt3({"--checkpoint", ck, "--json", json}));
        QVERIFY2(r.code == 0, r.err.c_str());
        QCOMPARE(checkpointCounts(r.out), std::make_pair(kept, space - kept));
        QCOMPARE(recordsIn(ck), space);
        const std::string differ = difference(comparable(json), expected);
        QVERIFY2(differ.empty(), differ.c_str());
    }

    void secondRunOnACheckpointInUseIsRefused() {
        const Json expected = once();
        QVERIFY(expected.is_object());
        const qint64 space = expected["points_in_space"].get<qint64>();
        const std::string ck = path("shared.ckpt"), first = path("first.json");
        QProcess process;
        start(process, gpt3({"--checkpoint", ck, "--json", first}));
        QVERIFY(process.waitForStarted(30000));
        QVERIFY2(runningUntil(process, [&] { return recordsIn(ck) >= 50; }),
                 "the search ended before its checkpoint");

        const std::string second = path("second.json");
        const auto r = run(gpt3({"--checkpoint", ck, "--json", second}));
        QCOMPARE(r.code, 2);
        const std::string pid = "process " + std::to_string(process.processId()) + " on host";
        for (const std::string& says :
             {ck, std::string("in use"), pid, std::string("Wait for that run to end")})
            QVERIFY2(r.err.find(says) != std::string::npos, r.err.c_str());
        QVERIFY(!exists(second));

        QVERIFY(process.waitForFinished(300000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QCOMPARE(recordsIn(ck), space);  // every point once
        QCOMPARE(readBytes(ck).count('\n'), space + 2);
        const std::string differ = difference(comparable(first), expected);
        QVERIFY2(differ.empty(), differ.c_str());
    }

    void mpirunRefusesACheckpointInUse() {
        if (!tandem::cli::MpiJob::available()) QSKIP("tandem-cli was built without MPI");
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        if (mpirun.isEmpty()) QSKIP("no mpirun on the PATH");
        const std::string ck = path("mpi.ckpt"), json = path("mpi.json");
        auto held = tandem::core::search::CheckpointLock::acquire(ck);  // as another run would
        QVERIFY2(held.ok(), held.ok() ? "" : held.message().c_str());
        QProcess process;
        process.start(
            mpirun, {"--allow-run-as-root", "--oversubscribe", "-np", "2", TANDEM_CLI_PATH,
                     "search", "--project", QString::fromStdString(project()), "--model", "gpt2-xl",
                     "--threads", "1", "--checkpoint", QString::fromStdString(ck), "--json",
                     QString::fromStdString(json), "--quiet"});
        QVERIFY(process.waitForStarted(60000));
        QVERIFY(process.waitForFinished(300000));  // no rank waits for the refused one
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 2, err.constData());
        const QByteArray pid = "process " + QByteArray::number(qint64(::getpid())) + " on host";
        QVERIFY2(err.contains("in use") && err.contains(pid), err.constData());
        QVERIFY(!exists(json));
        QVERIFY(!exists(ck));
    }

    void completeReadOnlyCheckpointResumes() {
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::Permissions(0x7777)));  // rwx all
        // The unprivileged run needs to reach what it runs: the executable and the project are
        // copied into the open folder (a CI clone may sit in a folder only root can enter).
        const QString cli = dir.filePath("tandem-cli"), copied = dir.filePath("p.tandem");
        QVERIFY(QFile::copy(TANDEM_CLI_PATH, cli));
        QVERIFY(QFile::copy(QString::fromStdString(project()), copied));
        QVERIFY(QFile::setPermissions(cli, QFileDevice::Permissions(0x7555)));
        QVERIFY(QFile::setPermissions(copied, QFileDevice::Permissions(0x4444)));
        const std::string ck = dir.filePath("ck").toStdString();
        const std::string first = dir.filePath("first.json").toStdString();
        const Args quickSearch = {"search",  "--project", copied.toStdString(),
                                  "--model", "gpt2-xl",   "--threads",
                                  "2",       "--quiet"};
        Args once = quickSearch;
        once.insert(once.end(), {"--checkpoint", ck, "--json", first});
        const auto r = run(once);
        QVERIFY2(r.code == 0, r.err.c_str());
        const QByteArray before = readBytes(ck);
        QVERIFY(QFile::setPermissions(QString::fromStdString(ck), QFileDevice::ReadOwner |
                                                                      QFileDevice::ReadGroup |
                                                                      QFileDevice::ReadOther));
        const std::string again = dir.filePath("again.json").toStdString();
        Args resume = quickSearch;
        resume.insert(resume.end(), {"--checkpoint", ck, "--json", again});
        QProcess process;
        if (::geteuid() == 0)  // root may write any file: run as "nobody" for the mode to apply
            process.setChildProcessModifier([] {
                if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(99);
            });
        QStringList list;
        for (std::size_t i = 1; i < resume.size(); ++i) list << QString::fromStdString(resume[i]);
        process.start(cli, QStringList{"search"} + list);
        QVERIFY2(process.waitForFinished(300000), qPrintable(process.errorString()));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QCOMPARE(readBytes(ck), before);  // not cut, not appended to
        const std::string differ = difference(comparable(again), comparable(first));
        QVERIFY2(differ.empty(), differ.c_str());
    }

    void pointsAppendedTwiceResumeToOneResult() {
        const std::string ck = path("twice.ckpt"), first = path("twice-first.json");
        auto r = run(quick({"--checkpoint", ck, "--json", first}));
        QVERIFY2(r.code == 0, r.err.c_str());
        const QByteArray text = readBytes(ck);
        const qint64 space = recordsIn(ck);
        QVERIFY(space > 0);
        QByteArray records = text.mid(text.indexOf('\n', text.indexOf('\n') + 1) + 1);
        QCOMPARE(records.count('\n'), space);
        // Every point appended again, as two runs at once did before checkpoints were locked;
        // the timings of each copy differ (field 11), the results do not.
        QList<QByteArray> lines = records.split('\n');
        lines.removeLast();
        for (QByteArray& line : lines) {
            QList<QByteArray> fields = line.split('\t');
            QCOMPARE(fields.size(), 14);
            fields[11] = "1p+0,1p+0,1p+0,1p+0";
            line = fields.join('\t') + '\n';
        }
        QVERIFY(writeBytes(ck, lines.join(), true));

        const std::string again = path("twice-again.json");
        r = run(quick({"--checkpoint", ck, "--json", again}));
        QVERIFY2(r.code == 0, r.err.c_str());
        QCOMPARE(checkpointCounts(r.out), std::make_pair(space, qint64(0)));
        QVERIFY2(r.err.find(std::to_string(space) + " points appear twice") != std::string::npos,
                 r.err.c_str());
        std::string differ = difference(comparable(again), comparable(first));
        QVERIFY2(differ.empty(), differ.c_str());

        // A copy whose results disagree is refused, saying which point and how to recover.
        QList<QByteArray> fields = lines.front().split('\t');
        fields[2] = fields[2] == "1p+0" ? "1p+1" : "1p+0";  // another throughput
        QVERIFY(writeBytes(ck, fields.join('\t'), true));
        const std::string refused = path("twice-refused.json");
        r = run(quick({"--checkpoint", ck, "--json", refused}));
        QCOMPARE(r.code, 2);
        const std::string point = "point " + fields[0].toStdString();
        for (const std::string& says : {ck, point, std::string("different results"),
                                        std::string("line " + std::to_string(3 + 2 * space))})
            QVERIFY2(r.err.find(says) != std::string::npos, r.err.c_str());
        QVERIFY2(r.err.find("remove") != std::string::npos, r.err.c_str());
        QVERIFY(!exists(refused));
    }
};

QTEST_GUILESS_MAIN(TestCliCheckpointFaults)
#include "test_cli_checkpoint_faults.moc"
