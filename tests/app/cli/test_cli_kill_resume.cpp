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
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <random>

#include "tests/app/cli/cli_test_support.h"
#include "tests/app/cli/search_files_support.h"

using namespace cli_test;

namespace {

Args gpt3(const Args& extra) {
    Args args = {"search", "--project", project(), "--threads", "2", "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

// The whole lines of a checkpoint after its two header lines: its point records.
qint64 recordsIn(const std::string& checkpoint) {
    const QByteArray text = readBytes(checkpoint);
    return qint64(text.left(text.lastIndexOf('\n') + 1).count('\n')) - 2;
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
            QVERIFY2(!exists(json), "a killed run left a results file");
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
};

QTEST_GUILESS_MAIN(TestCliKillResume)
#include "test_cli_kill_resume.moc"
