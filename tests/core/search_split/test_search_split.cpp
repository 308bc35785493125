// Splitting a search (ARCHITECTURE.md §4.6). Oracles: one runSearch over the whole grid, to which
// every split run must be equal point for point and bit for bit (timings aside); and each
// record's own fields, which must read back exactly.
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <bit>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <thread>

#include "core/search/checkpoint_file.h"
#include "core/search/chunk_queue.h"
#include "core/search/point_record.h"
#include "core/search/search_run.h"
#include "tests/core/search/search_test_support.h"

using namespace tandem::core;
using namespace tandem::core::search;
using namespace search_test;

namespace {

bool same(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// Every field a record carries, bit for bit; the point must be the grid's.
void compareExactly(const EvaluatedPoint& a, const EvaluatedPoint& b, bool withSeconds = true) {
    QCOMPARE(a.point, b.point);
    QCOMPARE(int(a.status), int(b.status));
    QCOMPARE(a.message, b.message);
    QVERIFY(same(a.throughputSamplesPerSecond, b.throughputSamplesPerSecond));
    QVERIFY(same(a.objective, b.objective));
    QVERIFY(same(a.baselineThroughputSamplesPerSecond, b.baselineThroughputSamplesPerSecond));
    QVERIFY(a.planShape == b.planShape);
    QVERIFY(same(a.planShape.timePerBatchSeconds, b.planShape.timePerBatchSeconds));
    QCOMPARE(a.modelThroughputsSamplesPerSecond.size(), b.modelThroughputsSamplesPerSecond.size());
    for (std::size_t i = 0; i < a.modelThroughputsSamplesPerSecond.size(); ++i)
        QVERIFY(same(a.modelThroughputsSamplesPerSecond[i], b.modelThroughputsSamplesPerSecond[i]));
    QVERIFY(a.schedules == b.schedules);
    if (withSeconds) QVERIFY(a.seconds == b.seconds);
}

void compareOutcomes(const SearchOutcome& a, const SearchOutcome& b) {
    const SearchResults& x = *a.results;
    const SearchResults& y = *b.results;
    QCOMPARE(x.points().size(), y.points().size());
    for (std::size_t i = 0; i < x.points().size(); ++i)
        compareExactly(x.points()[i], y.points()[i], false);
    QCOMPARE(x.best(), y.best());
    QCOMPARE(x.paretoByArea(), y.paretoByArea());
    QCOMPARE(x.paretoByHbm(), y.paretoByHbm());
    QCOMPARE(x.statistics().cancelled, y.statistics().cancelled);
    QCOMPARE(a.models.size(), b.models.size());
    for (std::size_t m = 0; m < a.models.size(); ++m) {
        for (int k = 0; k < kBaselineCount; ++k) {
            const BaselineOutcome& p = baselineOutcome(a.models[m].baselines, k);
            const BaselineOutcome& q = baselineOutcome(b.models[m].baselines, k);
            QCOMPARE(p.available, q.available);
            QVERIFY(same(p.throughputSamplesPerSecond, q.throughputSamplesPerSecond));
            QCOMPARE(p.point, q.point);
        }
        QCOMPARE(a.models[m].plans.size(), b.models[m].plans.size());
        for (const auto& [position, plan] : a.models[m].plans)
            QVERIFY(same(plan->throughputSamplesPerSecond,
                         b.models[m].plans.at(position)->throughputSamplesPerSecond));
    }
}

SearchRequest smallRequest() {
    SearchRequest request;
    request.models = {zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.threads = 2;
    return request;
}

std::unique_ptr<SearchRun> prepared(const SearchRequest& request) {
    auto run = SearchRun::prepare(request);
    if (!run) qFatal("%s", run.message().c_str());
    return std::move(*run);
}

const SearchOutcome& wholeRun() {
    static const SearchOutcome outcome = [] {
        auto o = runSearch(smallRequest());
        if (!o) qFatal("%s", o.message().c_str());
        return std::move(*o);
    }();
    return outcome;
}

void appendText(const QString& path, const std::string& text) {
    std::ofstream out(path.toStdString(), std::ios::app | std::ios::binary);
    out << text;
}

}  // namespace

class TestSearchSplit : public QObject {
    Q_OBJECT
private slots:
    void recordsReadBackBitForBit();
    void damagedRecordsAreRefused_data();
    void damagedRecordsAreRefused();
    void chunksAreChipsHandedOutOnDemand();
    void shardsExploredApartEqualOneRun();
    void checkpointKeepsPointsAndDropsATornTail();
    void damagedCheckpointsAreRefused();
    void cancelledRunResumedFromItsCheckpointEqualsOneRun();
};

void TestSearchSplit::recordsReadBackBitForBit() {
    const SearchGrid grid = gridOf(smallReferenceSpace());
    EvaluatedPoint a;
    a.point = grid.point(17);
    a.status = PointStatus::Feasible;
    a.throughputSamplesPerSecond = 0.1 + 0.2;  // not a short decimal
    a.objective = std::nextafter(1.0, 2.0);
    a.baselineThroughputSamplesPerSecond = std::numeric_limits<double>::denorm_min();
    a.planShape = {8, 128, 3, 1.0 / 3.0, 2, 1, true, 1000, 0.1 + 0.7, 1.0 / 7.0};
    a.modelThroughputsSamplesPerSecond = {-0.0, 1e300, std::numeric_limits<double>::max()};
    a.schedules = {12, 10, 1, 1, 0, 0.015625};
    a.seconds = {0.25, 1e-9, 3.5, 7.75};
    EvaluatedPoint b;
    b.point = grid.point(grid.pointCount() - 1);
    b.status = PointStatus::Error;
    b.message = "odd\tmessage\nwith \\ and \r and ünïcödé";
    for (const EvaluatedPoint& e : {a, b}) {
        const std::string record = encodePointRecord(e);
        QVERIFY(record.find('\n') == std::string::npos);
        auto back = decodePointRecord(record, grid);
        QVERIFY2(back.ok(), why(back));
        compareExactly(e, *back);
    }
    // The index picks the grid's point, whatever the record's point said.
    EvaluatedPoint c = a;
    c.point.areaSquareMillimetres = 1;
    auto back = decodePointRecord(encodePointRecord(c), grid);
    QVERIFY(back.ok());
    QCOMPARE(back->point, grid.point(17));
    // A record of an older checkpoint (13 fields, before the search chose V and ZeRO) reads as a
    // plain plan; everything else as written.
    const QStringList fields = QString::fromStdString(encodePointRecord(a)).split('\t');
    QCOMPARE(fields.size(), 14);
    QVERIFY(fields[12].startsWith("2,1,1,1000,"));
    QCOMPARE(fields[12].split(',').size(), 6);
    // One written before energy was modelled (three choices) reads with zero energy.
    {
        QStringList before = fields;
        before[12] = "2,1,1";
        auto older = decodePointRecord(before.join('\t').toStdString(), grid);
        QVERIFY2(older.ok(), why(older));
        QCOMPARE(older->planShape.devicesUsed, std::int64_t(0));
        QCOMPARE(older->planShape.joulesPerIteration, 0.0);
        older->planShape.devicesUsed = 1000;
        older->planShape.joulesPerIteration = 0.1 + 0.7;
        older->planShape.averagePowerWatts = 1.0 / 7.0;
        compareExactly(a, *older);
        before[12] = "2,1,1,1000,0x1p+0";  // neither three nor six
        QVERIFY(!decodePointRecord(before.join('\t').toStdString(), grid).ok());
    }
    auto legacy =
        decodePointRecord((fields.mid(0, 12) + fields.mid(13)).join('\t').toStdString(), grid);
    QVERIFY2(legacy.ok(), why(legacy));
    legacy->planShape.devicesUsed = 1000;
    legacy->planShape.joulesPerIteration = 0.1 + 0.7;
    legacy->planShape.averagePowerWatts = 1.0 / 7.0;
    QCOMPARE(legacy->planShape.interleave, std::int64_t(1));
    QCOMPARE(legacy->planShape.zero, std::int64_t(0));
    legacy->planShape.interleave = 2;
    legacy->planShape.zero = 1;
    QVERIFY(!legacy->planShape.sequenceParallel);
    legacy->planShape.sequenceParallel = true;
    compareExactly(a, *legacy);
}

void TestSearchSplit::damagedRecordsAreRefused_data() {
    QTest::addColumn<QString>("record");
    QTest::addColumn<QString>("says");
    const std::string good = [] {
        EvaluatedPoint e;
        e.point.index = 3;
        return encodePointRecord(e);
    }();
    const QString g = QString::fromStdString(good);
    QTest::newRow("empty") << ""
                           << "fields";
    QTest::newRow("one field short") << g.section('\t', 0, 11) << "found 12";
    QTest::newRow("one field more") << g + "\textra"
                                    << "found 15";
    QTest::newRow("negative index") << "-1" + g.mid(1) << "index";
    QTest::newRow("index past the grid") << "152" + g.mid(1) << "index";
    QTest::newRow("status") << QString(g).replace("infeasible", "maybe") << "status";
    QTest::newRow("decimal prefix") << QString(g).replace("\t0p+0\t", "\t0x0p+0\t") << "number";
    QTest::newRow("bad escape") << g + "\\q"
                                << "escape";
    QTest::newRow("lone backslash") << g + "\\"
                                    << "backslash";
    QTest::newRow("schedules") << QString(g).replace("0,0,0,0,0,", "0,0,0,") << "schedules";
    // Numbers Tandem never writes: not finite, or negative (from_chars accepts inf and nan).
    const auto with = [&](int field, const QString& value) {
        QStringList f = g.split('\t');
        f[field] = value;
        return f.join('\t');
    };
    QTest::newRow("infinite throughput") << with(2, "inf") << "throughput";
    QTest::newRow("nan objective") << with(3, "nan") << "objective";
    QTest::newRow("negative fixed throughput") << with(4, "-1p+0") << "fixed throughput";
    QTest::newRow("infinite time per batch") << with(8, "inf") << "plan shape";
    QTest::newRow("nan model throughput") << with(9, "1p+0,nan") << "model throughputs";
    QTest::newRow("infinite gap") << with(10, "0,0,0,0,0,inf") << "schedules";
    QTest::newRow("negative seconds") << with(11, "-1p+0,0p+0,0p+0,0p+0") << "seconds";
    QTest::newRow("no interleave") << with(12, "0,0,0") << "plan choices";
    QTest::newRow("ZeRO 4") << with(12, "1,4,0") << "plan choices";
    QTest::newRow("sequence parallel 2") << with(12, "1,0,2") << "plan choices";
    QTest::newRow("two choices") << with(12, "2,1") << "plan choices";
    // An older checkpoint's record: 13 fields, the message after the seconds.
    QStringList older = g.split('\t');
    older.removeAt(12);
    older.last() = "\\q";
    QTest::newRow("bad escape in an older record") << older.join('\t') << "escape";
}

void TestSearchSplit::damagedRecordsAreRefused() {
    QFETCH(QString, record);
    QFETCH(QString, says);
    const SearchGrid grid = gridOf(smallReferenceSpace());
    QCOMPARE(grid.pointCount(), 152);  // 19 chips of 24 in the area window × 8 options
    auto decoded = decodePointRecord(record.toStdString(), grid);
    QVERIFY(!decoded.ok());
    QVERIFY2(QString::fromStdString(decoded.message()).contains(says), decoded.message().c_str());
}

void TestSearchSplit::chunksAreChipsHandedOutOnDemand() {
    const SearchGrid grid = gridOf(smallReferenceSpace());
    ChunkQueue queue;
    queue.fill(grid, [](std::int64_t i) { return i % 3 != 0; });
    QVERIFY(queue.closed());
    QCOMPARE(queue.queuedChunks(), std::size_t(grid.chipCount()));
    std::set<std::int64_t> seen;
    while (auto chunk = queue.next()) {
        const std::int64_t chip = chunk->front() / grid.optionsPerChip();
        for (const std::int64_t i : *chunk) {
            QCOMPARE(i / grid.optionsPerChip(), chip);  // one chip per chunk
            QVERIFY(i % 3 != 0);
            QVERIFY(seen.insert(i).second);
        }
    }
    std::int64_t wanted = 0;
    for (std::int64_t i = 0; i < grid.pointCount(); ++i) wanted += i % 3 != 0;
    QCOMPARE(std::int64_t(seen.size()), wanted);
    QCOMPARE(queue.queuedPoints(), 0);

    // An open queue makes its consumer wait until a chunk comes or the queue closes.
    ChunkQueue fed;
    std::atomic<int> received{0};
    std::thread consumer([&] {
        while (auto chunk = fed.next()) received += int(chunk->size());
    });
    fed.push({1, 2, 3});
    fed.push({4});
    QTRY_COMPARE(received.load(), 4);
    QVERIFY(!fed.tryNext());
    fed.close();
    consumer.join();
}

void TestSearchSplit::shardsExploredApartEqualOneRun() {
    const SearchOutcome& whole = wholeRun();
    QVERIFY(whole.results->best().has_value());
    // Two runs, as two processes would: each prepares itself and explores its shard of chips.
    const SearchRequest request = smallRequest();
    auto first = prepared(request);
    ChunkQueue firstShard;
    const std::int64_t perChip = first->grid().optionsPerChip();
    firstShard.fill(first->grid(), [&](std::int64_t i) { return (i / perChip) % 2 == 0; });
    const SearchResults part = first->explore(nullptr, {}, &firstShard);
    QCOMPARE(std::int64_t(part.points().size()), (first->grid().chipCount() + 1) / 2 * perChip);

    auto second = prepared(request);
    ChunkQueue secondShard;
    secondShard.fill(second->grid(), [&](std::int64_t i) { return (i / perChip) % 2 == 1; });
    auto all = std::make_shared<const SearchResults>(
        second->explore(nullptr, {}, &secondShard, part.points()));
    QCOMPARE(all->statistics().evaluated, whole.results->statistics().evaluated);
    compareOutcomes(second->report(all), whole);
}

void TestSearchSplit::checkpointKeepsPointsAndDropsATornTail() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.checkpoint");
    const SearchGrid grid = gridOf(smallReferenceSpace());
    const std::vector<EvaluatedPoint>& points = wholeRun().results->points();
    const std::size_t half = points.size() / 2;
    {
        auto writer = CheckpointWriter::open(path.toStdString(), "{\"run\":1}", 0);
        QVERIFY2(writer.ok(), why(writer));
        for (std::size_t i = 0; i < half; ++i) (*writer)->add(points[i]);
        QVERIFY((*writer)->close().ok());
        QCOMPARE((*writer)->written(), std::int64_t(half));
    }
    // A new checkpoint never replaces an old one.
    QVERIFY(!CheckpointWriter::open(path.toStdString(), "{\"run\":1}", 0).ok());
    appendText(path, encodePointRecord(points[half]).substr(0, 25));  // a torn write
    auto read = readCheckpoint(path.toStdString(), grid);
    QVERIFY2(read.ok(), why(read));
    QCOMPARE(read->header, std::string("{\"run\":1}"));
    QVERIFY(read->tornTail);
    QCOMPARE(read->points.size(), half);
    for (std::size_t i = 0; i < half; ++i) compareExactly(read->points[i], points[i]);
    {
        // Resuming cuts the torn line off, then appends.
        auto writer = CheckpointWriter::open(path.toStdString(), read->header, read->validBytes,
                                             std::chrono::milliseconds(10));
        QVERIFY2(writer.ok(), why(writer));
        for (std::size_t i = half; i < points.size(); ++i) (*writer)->add(points[i]);
        QTRY_COMPARE((*writer)->written(), std::int64_t(points.size() - half));  // periodic
        QVERIFY((*writer)->close().ok());
    }
    auto again = readCheckpoint(path.toStdString(), grid);
    QVERIFY2(again.ok(), why(again));
    QVERIFY(!again->tornTail);
    QCOMPARE(again->points.size(), points.size());
    for (std::size_t i = 0; i < points.size(); ++i) compareExactly(again->points[i], points[i]);
}

void TestSearchSplit::damagedCheckpointsAreRefused() {
    QTemporaryDir dir;
    const SearchGrid grid = gridOf(smallReferenceSpace());
    const std::vector<EvaluatedPoint>& points = wholeRun().results->points();
    const std::string head = "tandem-checkpoint 1\n{\"run\":1}\n";
    const std::string one = encodePointRecord(points[0]) + "\n";
    const std::string two = encodePointRecord(points[1]) + "\n";
    EvaluatedPoint edited = points[0];
    edited.objective += 1;
    const std::string other = encodePointRecord(edited) + "\n";
    const struct {
        const char* name;
        std::string text;
        const char* says;
    } cases[] = {
        {"other", "{\"format\": \"tandem-project\"}\n", "not a Tandem checkpoint"},
        {"newer", "tandem-checkpoint 2\nx\n", "not a Tandem checkpoint"},
        {"no header", "tandem-checkpoint 1\n", "header is missing"},
        {"damaged", head + one + "garbage\n" + two, "line 4"},
        {"twice, disagreeing", head + one + two + other, "appears twice with different results"},
    };
    for (const auto& c : cases) {
        const QString path = dir.filePath(c.name);
        appendText(path, c.text);
        auto read = readCheckpoint(path.toStdString(), grid);
        QVERIFY2(!read.ok(), c.name);
        QVERIFY2(read.message().find(c.says) != std::string::npos, read.message().c_str());
        QVERIFY2(read.message().find(path.toStdString()) == 0, read.message().c_str());
    }
    QVERIFY(!readCheckpoint(dir.filePath("missing").toStdString(), grid).ok());
}

void TestSearchSplit::cancelledRunResumedFromItsCheckpointEqualsOneRun() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("resume.checkpoint").toStdString();
    const SearchRequest request = smallRequest();
    std::size_t kept = 0;
    {
        auto run = prepared(request);
        auto writer = CheckpointWriter::open(path, "run", 0);
        QVERIFY(writer.ok());
        RunControl control;
        std::atomic<int> seen{0};
        ChunkQueue work;
        work.fill(run->grid());
        const SearchResults part = run->explore(
            &control,
            [&](const EvaluatedPoint& p) {
                (*writer)->add(p);
                if (++seen == 40) control.cancel();
            },
            &work);
        QVERIFY(part.statistics().cancelled);
        QVERIFY(part.points().size() >= 40);
        QVERIFY(std::int64_t(part.points().size()) < run->grid().pointCount());
        QVERIFY((*writer)->close().ok());
        kept = part.points().size();
    }
    auto run = prepared(request);
    auto read = readCheckpoint(path, run->grid());
    QVERIFY2(read.ok(), why(read));
    QCOMPARE(read->points.size(), kept);
    std::set<std::int64_t> done;
    for (const EvaluatedPoint& p : read->points) done.insert(p.point.index);
    ChunkQueue rest;
    rest.fill(run->grid(), [&](std::int64_t i) { return !done.count(i); });
    QCOMPARE(rest.queuedPoints(), run->grid().pointCount() - std::int64_t(kept));
    auto all = std::make_shared<const SearchResults>(
        run->explore(nullptr, {}, &rest, std::move(read->points)));
    QVERIFY(!all->statistics().cancelled);
    QCOMPARE(all->statistics().carried, std::int64_t(kept));  // counted, not in the rate
    compareOutcomes(run->report(all), wholeRun());
}

QTEST_GUILESS_MAIN(TestSearchSplit)
#include "test_search_split.moc"
