// A search is sized before it starts (issue 24, item 8; core/search/search_footprint.h). A
// space within the list limits but far beyond this machine's memory (29,360 chips × 12,288
// options = 360.8 M points) is refused at once with exit 2, saying how much it needs, how much
// is available and "--shard K/N" with an N; before, it ran the reference chip, then queued
// every point and ended "out of memory", exit 1. A shard of such a space needs only its share
// and runs. A search estimated at more than an hour says so on stderr before its first point
// (before, the progress line's ETA was the only hint). The process's data segment is limited
// to 2 GiB for the refusals, so the figures do not depend on the machine; the warning needs
// the estimate to fit in this machine's memory and is skipped where it does not.
#include <sys/resource.h>
#include <QDeadlineTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <regex>
#include <string>

#include "core/common/system_memory.h"
#include "core/search/search_footprint.h"
#include "tests/app/cli/cli_test_support.h"
#include "tests/support/test_paths.h"

using cli_test::run;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string mlp() {
    return tandem::test::testDataDir() + "/models/mlp.json";
}

// PHAZE's chips (29,360 in the area window) with `options` per chip: microbatch sizes 1 … m,
// `hbm` HBM capacities from 16 GiB in steps of 1 GiB, and the recompute settings.
std::string space(int microbatches, int hbm, const std::string& recompute) {
    std::string text = R"({"format": "tandem-search-space", "version": 1, "name": "big",
        "microbatchSizes": [)";
    for (int m = 1; m <= microbatches; ++m) text += (m > 1 ? ", " : "") + std::to_string(m);
    text += "], \"hbmCapacityBytes\": [";
    for (int h = 0; h < hbm; ++h)
        text += (h > 0 ? ", " : "") + std::to_string((std::int64_t(16) + h) << 30);
    return text + "], \"recompute\": " + recompute + "}";
}

void limitData(rlim_t bytes) {
    rlimit limit{};
    QCOMPARE(::getrlimit(RLIMIT_DATA, &limit), 0);
    limit.rlim_cur = std::min(bytes, limit.rlim_max);
    QCOMPARE(::setrlimit(RLIMIT_DATA, &limit), 0);
}

}  // namespace

class TestCliSearchSize : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string write(const std::string& name, const std::string& text) {
        const std::string path = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path) << text;
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }
    void init() { limitData(rlim_t(2) << 30); }
    void cleanup() { limitData(RLIM_INFINITY); }

    void aSpaceBeyondMemoryIsRefusedBeforeAnyWork() {
        const std::string path =
            write("huge.json", space(64, 64, R"(["off", "on", "auto"])"));  // 361 M points
        const auto r = run({"search", "--model", mlp(), "--space", path, "--threads", "2",
                            "--quiet", "--json", write("out.json", "")});
        qInfo("%s", r.err.c_str());
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "360.8 M points") && contains(r.err, "of memory") &&
                     contains(r.err, "is available"),
                 r.err.c_str());
        std::smatch n;
        QVERIFY2(std::regex_search(r.err, n, std::regex("--shard K/N .*N ≥ ([0-9]+)")),
                 r.err.c_str());
        QVERIFY(std::stoll(n[1]) > 1 && std::stoll(n[1]) <= 29360);
        QVERIFY(r.err.size() < 600);
        QVERIFY(r.out.empty());
    }

    void aShardNeedsOnlyItsShare() {
        // 29,360 chips × 64 microbatch sizes = 1.9 M points: more than 2 GiB in one process.
        const std::string path = write("wide.json", space(64, 1, R"(["off"])"));
        const auto whole =
            run({"search", "--model", mlp(), "--space", path, "--threads", "2", "--quiet"});
        QCOMPARE(whole.code, 2);
        QVERIFY2(contains(whole.err, "--shard K/N"), whole.err.c_str());
        // One chip's 64 points fit easily: the shard runs.
        const auto shard = run({"search", "--model", mlp(), "--space", path, "--threads", "2",
                                "--quiet", "--shard", "1/29360"});
        QVERIFY2(shard.code == 0, shard.err.c_str());
        QVERIFY2(contains(shard.out, "Shard 1/29360: 64 points"), shard.out.c_str());
        // A shard too large for memory is refused and the message says it is the shard's size.
        const std::string huge = write("huge.json", space(64, 64, R"(["off", "on", "auto"])"));
        const auto half = run({"search", "--model", mlp(), "--space", huge, "--threads", "2",
                               "--quiet", "--shard", "1/2"});
        QCOMPARE(half.code, 2);
        QVERIFY2(contains(half.err, "this shard needs"), half.err.c_str());
    }

    void aLongSearchIsAnnouncedBeforeItStarts() {
        cleanup();  // the child gets this process's limits: none here
        // 29,360 chips × 128 options = 3.8 M points: more than an hour on one thread at the
        // documented rate.
        // The estimate is a pure function of the counts and the documented rate (nothing is
        // timed here): it must fall in the "long search" class the CLI announces.
        const auto footprint = tandem::core::search::estimateSearchFootprint(29360, 128, 1, 1);
        const double estimatedSeconds = footprint.seconds;
        QVERIFY(estimatedSeconds > tandem::core::search::kLongSearchSeconds);
        const std::int64_t available = tandem::core::availableMemoryBytes();
        if (available >= 0 && double(available) < footprint.bytes * 1.25)
            QSKIP("this machine has too little memory available for the search to be accepted");
        const std::string path = write("long.json", space(64, 1, R"(["off", "on"])"));
        QProcess process;
        process.start(TANDEM_CLI_PATH, {"search", "--model", QString::fromStdString(mlp()),
                                        "--space", QString::fromStdString(path), "--threads", "1"});
        QVERIFY(process.waitForStarted());
        // Read stderr until the warning or the first progress line (the search has begun).
        std::string err;
        QDeadlineTimer watchdog(120000);
        while (!contains(err, "warning:") && !contains(err, "points/s") &&
               process.state() == QProcess::Running && !watchdog.hasExpired()) {
            process.waitForReadyRead(200);
            err += process.readAllStandardError().toStdString();
        }
        process.kill();
        process.waitForFinished();
        qInfo("%s", err.c_str());
        const std::size_t warning = err.find("warning:");
        QVERIFY2(warning != std::string::npos, err.c_str());
        QVERIFY2(err.find("points/s ·") == std::string::npos || err.find("points/s ·") > warning,
                 "the warning came after the search began");
        QVERIFY2(contains(err, "3.76 M points") && contains(err, "may take about") &&
                     contains(err, "--shard K/N"),
                 err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliSearchSize)
#include "test_cli_search_size.moc"
