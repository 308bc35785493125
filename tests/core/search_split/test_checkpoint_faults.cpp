// A checkpoint's faults at the level of core's files (ARCHITECTURE.md §4.6):
// - a write that fails — the file-size limit makes write(2) fail with EFBIG as a full disk fails
//   it with ENOSPC, a real failure of the system and no root needed — is reported at once, once,
//   naming the file and the system's reason; the writer keeps nothing more, and what reached the
//   file (the count written() gives) reads back;
// - copies of a point that differ only in their timings are read as one and counted; copies whose
//   results differ are refused, naming both lines and how to recover;
// - the lock is held by one at a time, names its holder's process, and is let go with its file
//   removed; a lock file left behind by a run that died locks nothing.
// Points are made up (a record's fields, not an evaluation): only the files are under test.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/search/checkpoint_file.h"
#include "core/search/checkpoint_lock.h"
#include "core/search/point_record.h"
#include "tests/core/search/search_test_support.h"

using namespace tandem::core;
using namespace tandem::core::search;
using namespace search_test;

namespace {

EvaluatedPoint madeUp(const SearchGrid& grid, std::int64_t index, double seconds = 0.5) {
    EvaluatedPoint e;
    e.point = grid.point(index);
    e.status = PointStatus::Feasible;
    e.throughputSamplesPerSecond = 100.0 + double(index) / 3;
    e.objective = e.throughputSamplesPerSecond;
    e.planShape = {2, 4, 3, 0.25};
    e.seconds = {seconds, seconds, seconds, 3 * seconds};
    return e;
}

std::string record(const EvaluatedPoint& e) {
    return encodePointRecord(e) + "\n";
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Runs `write` with every write past `bytes` of a file failing (EFBIG, SIGXFSZ ignored); the limit
// and the signal's action are back before it returns, so that the test's own output is unbound.
template <typename Write>
void withFileSizeLimit(rlim_t bytes, Write write) {
    ::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    ::getrlimit(RLIMIT_FSIZE, &old);
    rlimit small = old;
    small.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &small);
    write();
    ::setrlimit(RLIMIT_FSIZE, &old);
    ::signal(SIGXFSZ, SIG_DFL);
}

}  // namespace

class TestCheckpointFaults : public QObject {
    Q_OBJECT
private slots:
    void failedWriteIsReportedAtOnceAndKeepsWhatReachedTheFile();
    void copiesOfAPointAreReadAsOne();
    void copiesThatDisagreeAreRefused();
    void lockIsHeldByOneRunAtATime();
};

void TestCheckpointFaults::failedWriteIsReportedAtOnceAndKeepsWhatReachedTheFile() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("full.checkpoint").toStdString();
    const SearchGrid grid = gridOf(smallReferenceSpace());
    std::vector<std::string> reports;  // written by the writer's thread, read after close()
    auto writer = CheckpointWriter::open(path, "{\"run\":1}", 0, std::chrono::hours(1),
                                         [&](const std::string& m) { reports.push_back(m); });
    QVERIFY2(writer.ok(), why(writer));
    // Room for two records and half of the third.
    const std::size_t limit = slurp(path).size() + record(madeUp(grid, 0)).size() +
                              record(madeUp(grid, 1)).size() + record(madeUp(grid, 2)).size() / 2;
    Status first, second;
    withFileSizeLimit(limit, [&] {
        for (std::int64_t i = 0; i < 40; ++i) (*writer)->add(madeUp(grid, i));
        first = (*writer)->flush();
        // After the failure: reported once, nothing more kept or written.
        for (std::int64_t i = 40; i < 80; ++i) (*writer)->add(madeUp(grid, i));
        second = (*writer)->flush();
    });
    QVERIFY(!first.ok());
    QVERIFY(!second.ok());
    QCOMPARE(reports.size(), std::size_t(1));  // at the failure, not at close()
    for (const std::string& message : {first.message(), reports.front()}) {
        QVERIFY2(message.find(path) == 0, message.c_str());
        QVERIFY2(message.find("File too large") != std::string::npos, message.c_str());
    }
    QCOMPARE(second.message(), first.message());
    QVERIFY(!(*writer)->close().ok());
    QCOMPARE(reports.size(), std::size_t(1));
    QCOMPARE((*writer)->written(), std::int64_t(2));  // the whole lines that reached the file
    QCOMPARE(slurp(path).size(), limit);

    auto read = readCheckpoint(path, grid);  // a torn third line: dropped
    QVERIFY2(read.ok(), why(read));
    QVERIFY(read->tornTail);
    QCOMPARE(std::int64_t(read->points.size()), (*writer)->written());
    for (std::size_t i = 0; i < read->points.size(); ++i)
        QCOMPARE(encodePointRecord(read->points[i]),
                 encodePointRecord(madeUp(grid, std::int64_t(i))));
}

void TestCheckpointFaults::copiesOfAPointAreReadAsOne() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("twice.checkpoint").toStdString();
    const SearchGrid grid = gridOf(smallReferenceSpace());
    // Two runs appended the same points, each with its own timings (which are not results).
    std::ofstream(path) << "tandem-checkpoint 1\n{\"run\":1}\n"
                        << record(madeUp(grid, 5)) << record(madeUp(grid, 7))
                        << record(madeUp(grid, 7, 2.0)) << record(madeUp(grid, 9))
                        << record(madeUp(grid, 5, 0.125)) << record(madeUp(grid, 9));
    auto read = readCheckpoint(path, grid);
    QVERIFY2(read.ok(), why(read));
    QCOMPARE(read->duplicates, std::int64_t(3));
    QCOMPARE(read->points.size(), std::size_t(3));
    const std::int64_t order[] = {5, 7, 9};
    for (std::size_t i = 0; i < 3; ++i)  // the first copy of each, in file order
        QCOMPARE(encodePointRecord(read->points[i]), encodePointRecord(madeUp(grid, order[i])));
    QCOMPARE(read->validBytes, std::uintmax_t(slurp(path).size()));
}

void TestCheckpointFaults::copiesThatDisagreeAreRefused() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("edited.checkpoint").toStdString();
    const SearchGrid grid = gridOf(smallReferenceSpace());
    EvaluatedPoint edited = madeUp(grid, 7);
    edited.throughputSamplesPerSecond *= 10;
    std::ofstream(path) << "tandem-checkpoint 1\n{\"run\":1}\n"
                        << record(madeUp(grid, 5)) << record(madeUp(grid, 7))
                        << record(madeUp(grid, 9)) << record(edited);
    auto read = readCheckpoint(path, grid);
    QVERIFY(!read.ok());
    for (const char* says : {"line 6: point 7 appears twice with different results",
                             "lines 4 and 6", "Remove one of the two lines", "remove the file"})
        QVERIFY2(read.message().find(says) != std::string::npos, read.message().c_str());
    QVERIFY2(read.message().find(path) == 0, read.message().c_str());
}

void TestCheckpointFaults::lockIsHeldByOneRunAtATime() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("run.checkpoint").toStdString();
    const std::string lockFile = CheckpointLock::lockPath(path).string();
    QCOMPARE(lockFile, path + ".lock");
    {
        auto held = CheckpointLock::acquire(path);
        QVERIFY2(held.ok(), why(held));
        char host[256] = {};
        QCOMPARE(::gethostname(host, sizeof host - 1), 0);
        QCOMPARE(slurp(lockFile), std::to_string(::getpid()) + " " + host + "\n");
        // A second run (here a second open file of the same process: flock does not mind).
        auto refused = CheckpointLock::acquire(path);
        QVERIFY(!refused.ok());
        const std::string says = path + ": in use by another search (process " +
                                 std::to_string(::getpid()) + " on host " + host;
        QVERIFY2(refused.message().find(says) == 0, refused.message().c_str());
        for (const char* advice : {"Wait for that run to end", "another --checkpoint file"})
            QVERIFY2(refused.message().find(advice) != std::string::npos,
                     refused.message().c_str());
    }
    QVERIFY(!QFile::exists(QString::fromStdString(lockFile)));  // let go and removed

    // A run that died (SIGKILL) left its lock file behind, with what it wrote: it locks nothing.
    std::ofstream(lockFile) << "99999999 deadhost\n";
    {
        auto taken = CheckpointLock::acquire(path);
        QVERIFY2(taken.ok(), why(taken));
        QCOMPARE(slurp(lockFile).substr(0, std::to_string(::getpid()).size() + 1),
                 std::to_string(::getpid()) + " ");
    }
    // A lock file that is not Tandem's (here held by a bare flock) names no one.
    std::ofstream(lockFile) << std::string(5000, '\x01');
    const int other = ::open(lockFile.c_str(), O_RDWR | O_CLOEXEC);
    QVERIFY(other >= 0);
    QCOMPARE(::flock(other, LOCK_EX | LOCK_NB), 0);
    auto refused = CheckpointLock::acquire(path);
    ::close(other);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.message().find("in use by another search (another process, which holds " +
                                    lockFile + ")") != std::string::npos,
             refused.message().c_str());
    // A folder that cannot hold the lock file: refused with the system's reason.
    const std::string nowhere = dir.filePath("missing/run.checkpoint").toStdString();
    auto none = CheckpointLock::acquire(nowhere);
    QVERIFY(!none.ok());
    QVERIFY2(none.message().find(nowhere + ".lock: cannot create") == 0, none.message().c_str());
    QVERIFY2(none.message().find("No such file or directory") != std::string::npos,
             none.message().c_str());
}

QTEST_GUILESS_MAIN(TestCheckpointFaults)
#include "test_checkpoint_faults.moc"
