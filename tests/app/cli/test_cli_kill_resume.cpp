// A search killed with SIGKILL at random moments resumes to the result of one uninterrupted run
// (issue 24's fault test). The example project's own search (gpt3-175b, ~10 s on two threads)
// with --checkpoint and --json is started through the real executable and killed a random delay
// after its checkpoint has grown, four times, each restart being the same command; then it runs to
// the end. Checked: the checkpoint's whole records never decrease from one kill to the next; the
// last run says it resumed at least as many points as the last kill left; a killed run leaves no
// --json file (the results are written once, atomically, at the end); the final JSON equals one
// uninterrupted run's apart from "elapsed_s" and "threads". The delays come from a fixed seed
// (TANDEM_FUZZ_SEED varies them); waits are bounded and printed, never asserted.
#include <signal.h>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <random>

#include "app/cli/mpi_job.h"
#include "tests/app/cli/cli_test_support.h"
#include "tests/app/cli/search_files_support.h"

using namespace cli_test;

namespace {

// The process of MPI rank `rank` among the children of `mpirun` (Open MPI starts the ranks of a
// one-node job itself and gives each OMPI_COMM_WORLD_RANK); 0 when there is none.
pid_t rankProcess(pid_t mpirun, int rank) {
    const QDir proc("/proc");
    for (const QString& entry : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        const pid_t pid = pid_t(entry.toLongLong(&numeric));
        if (!numeric) continue;
        QFile stat("/proc/" + entry + "/stat");
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QByteArray text = stat.readAll();
        // pid (comm) state ppid …: the fields after the last ')'.
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || fields[1].toLongLong() != mpirun) continue;
        QFile environ("/proc/" + entry + "/environ");
        if (!environ.open(QIODevice::ReadOnly)) continue;
        for (const QByteArray& variable : environ.readAll().split('\0'))
            if (variable == "OMPI_COMM_WORLD_RANK=" + QByteArray::number(rank)) return pid;
    }
    return 0;
}

}  // namespace

class TestCliKillResume : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string path(const std::string& name) const {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }

private slots:
    void killedAtRandomMomentsResumesToOneRun() {
        const std::string once = path("once.json");
        const auto whole = run(gpt3({"--json", once}));
        QVERIFY2(whole.code == 0, whole.err.c_str());
        const Json expected = comparable(once);

        std::mt19937_64 rng(90210 + qgetenv("TANDEM_FUZZ_SEED").toULongLong());
        const std::string ck = path("killed.ckpt"), json = path("killed.json");
        const Args command = gpt3({"--checkpoint", ck, "--json", json});
        QStringList list;
        for (std::size_t i = 1; i < command.size(); ++i) list << QString::fromStdString(command[i]);
        list.prepend(QString::fromStdString(command[0]));
        qint64 kept = 0;  // whole records after the last kill
        int kills = 0;
        for (int attempt = 0; attempt < 4; ++attempt) {
            QProcess process;
            process.start(TANDEM_CLI_PATH, list);
            QVERIFY(process.waitForStarted(30000));
            // Once the checkpoint has grown (at most a minute), a random delay more.
            QElapsedTimer waited;
            waited.start();
            while (process.state() == QProcess::Running && recordsIn(ck) <= kept &&
                   waited.elapsed() < 60000)
                process.waitForFinished(20);
            const int delay = int(rng() % 2500);  // ms
            waited.restart();
            while (process.state() == QProcess::Running && waited.elapsed() < delay)
                process.waitForFinished(20);
            if (process.state() != QProcess::Running) {  // finished before its kill
                QCOMPARE(process.exitCode(), 0);
                break;
            }
            ::kill(pid_t(process.processId()), SIGKILL);
            QVERIFY(process.waitForFinished(30000));
            ++kills;
            const qint64 now = recordsIn(ck);
            QVERIFY2(
                now >= kept,
                qPrintable(QString("%1 records after the kill, %2 before").arg(now).arg(kept)));
            kept = std::max<qint64>(now, 0);
            if (exists(json)) {
                // The kill landed after the run had written its results (the write is atomic)
                // but before it exited: the file must then be the whole, right answer.
                const std::string diff = difference(expected, comparable(json));
                QVERIFY2(diff.empty(), ("a killed run left a wrong results file: " + diff).c_str());
                std::filesystem::remove(json);
            }
            qInfo("kill %d, %d ms after the checkpoint grew: %lld records kept", kills, delay,
                  (long long)kept);
        }
        const auto final = run(command);
        QVERIFY2(final.code == 0, final.err.c_str());
        const auto counts = checkpointCounts(final.out);
        QVERIFY2(counts.first >= kept, final.out.c_str());
        const std::string diff = difference(expected, comparable(json));
        QVERIFY2(diff.empty(), diff.c_str());
        qInfo("%d kills; the last run resumed %lld points and added %lld", kills,
              (long long)counts.first, (long long)counts.second);
        QVERIFY(kills > 0);  // the delays must catch the search running
    }

    void mpiRankKilledIsNamedAndResumes() {
        if (!tandem::cli::MpiJob::available()) QSKIP("tandem-cli was built without MPI");
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        if (mpirun.isEmpty()) QSKIP("no mpirun on the PATH");
        const std::string once = path("once.json");  // from the slot before, or made here
        if (!exists(once)) QCOMPARE(run(gpt3({"--json", once})).code, 0);
        const std::string ck = path("mpi.ckpt"), json = path("mpi.json");
        const Args command = gpt3({"--checkpoint", ck, "--json", json});
        QStringList list = {"--allow-run-as-root", "--oversubscribe", "-np", "2", TANDEM_CLI_PATH};
        for (const std::string& a : command) list << QString::fromStdString(a);
        QProcess process;
        process.start(mpirun, list);
        QVERIFY(process.waitForStarted(60000));
        QElapsedTimer waited;
        waited.start();
        while (process.state() == QProcess::Running && recordsIn(ck) <= 0 &&
               waited.elapsed() < 120000)
            process.waitForFinished(20);
        QVERIFY2(process.state() == QProcess::Running, "the search ended before a rank was killed");
        const pid_t rank1 = rankProcess(pid_t(process.processId()), 1);
        QVERIFY2(rank1 > 0, "rank 1 not found among mpirun's children");
        ::kill(rank1, SIGKILL);
        QVERIFY(process.waitForFinished(120000));
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitCode() != 0, err.constData());
        // Rank 0 names the rank and says that the same command resumes.
        QVERIFY2(err.contains("rank(s) 1") && err.contains("resume"), err.constData());
        const qint64 kept = recordsIn(ck);
        const auto final = run(command);  // resumed in one process
        QVERIFY2(final.code == 0, final.err.c_str());
        QVERIFY2(checkpointCounts(final.out).first >= kept, final.out.c_str());
        const std::string diff = difference(comparable(once), comparable(json));
        QVERIFY2(diff.empty(), diff.c_str());
        qInfo("rank 1 killed after %lld records; the rerun resumed %lld", (long long)kept,
              (long long)checkpointCounts(final.out).first);
    }
};

QTEST_GUILESS_MAIN(TestCliKillResume)
#include "test_cli_kill_resume.moc"
