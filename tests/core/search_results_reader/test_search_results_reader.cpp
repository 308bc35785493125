// The search-results reader (core/io/search_results_reader.h) against its writer: real searches
// (as test_search_run runs them) written with searchReportToJson and read back must equal the
// written report field for field, exactly; a cancelled search reads back partial; indices the
// file carries are used; a hand-built report of 100,000 points round-trips; files load by path.
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <nlohmann/json.hpp>

#include "core/common/text_file.h"
#include "core/io/search_results_json.h"
#include "core/io/search_results_reader.h"
#include "core/search/search_grid.h"
#include "core/search/search_run.h"
#include "report_compare.h"
#include "synthetic_report.h"
#include "tests/core/search/search_test_support.h"

using namespace tandem::core;
using namespace tandem::core::search;
using namespace search_test;

namespace {

io::SearchReport searchReport(const SearchRequest& request, RunControl* control = nullptr,
                              const PointCallback& onPoint = {}) {
    auto outcome = runSearch(request, control, onPoint);
    if (!outcome) qFatal("%s", outcome.message().c_str());
    return io::makeSearchReport(*outcome, request.space.base);
}

}  // namespace

// Reads `text` back into `name` (a const SearchReport&), failing the test with the reader's
// message when it refuses.
#define READ_BACK(name, text)                                                       \
    const auto name##Read = io::parseSearchReportJson(text, "results.json");        \
    QVERIFY2(name##Read.ok(), name##Read.ok() ? "" : name##Read.message().c_str()); \
    const io::SearchReport& name = *name##Read

class TestSearchResultsReader : public QObject {
    Q_OBJECT
private slots:
    void singleModelSearchReadsBackExactly();
    void multiModelSearchReadsBackExactly();
    void cancelledSearchStaysPartial();
    void indicesInTheFileAreUsed();
    void largeSyntheticReportReadsBackExactly();
    void loadsFilesByPath();
    void unnamedBaseHardwareReadsBack();
};

void TestSearchResultsReader::singleModelSearchReadsBackExactly() {
    SearchRequest request;
    request.models = {zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.space.hbmCapacityBytes = {64 * kMiB, 32 * kGiB};  // some points fit nowhere
    const io::SearchReport written = searchReport(request);
    const SearchResults& r = *written.results;
    // The run is a real one: complete, with feasible and infeasible points, plans and baselines.
    QCOMPARE(r.statistics().evaluated, r.statistics().pointsInSpace);
    QVERIFY(r.best());
    QVERIFY(std::any_of(r.points().begin(), r.points().end(),
                        [](const EvaluatedPoint& p) { return !p.feasible(); }));
    QVERIFY(!written.models.front().plans.empty());
    QVERIFY(written.models.front().baselines.referencePlaced.plan);

    READ_BACK(read, io::searchReportToJson(written));
    report_compare::report(read, written);
    if (QTest::currentTestFailed()) return;
    // The derived numbering is the grid's: every point equals the grid's point at its index
    // (apart from the area, which the grid does not hold).
    const SearchGrid grid = gridOf(request.space);
    for (const EvaluatedPoint& p : read.results->points()) {
        SearchPoint expected = grid.point(p.point.index);
        expected.areaSquareMillimetres = p.point.areaSquareMillimetres;
        QVERIFY(p.point == expected);
    }
}

void TestSearchResultsReader::multiModelSearchReadsBackExactly() {
    SearchRequest request;
    request.models = {zoo("bert-large"), zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.space.globalBufferBytes = {128 * kMiB};
    const io::SearchReport written = searchReport(request);
    QCOMPARE(written.models.size(), std::size_t(2));
    const auto& points = written.results->points();
    QVERIFY(std::any_of(points.begin(), points.end(), [](const EvaluatedPoint& p) {
        return p.modelThroughputsSamplesPerSecond.size() == 2 && p.objective > 0;
    }));

    const std::string text = io::searchReportToJson(written);
    QVERIFY(text.find("\"objective\"") != std::string::npos);  // the multi-model form
    READ_BACK(read, text);
    report_compare::report(read, written);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(read.models[0].name, std::string("bert-large"));
    QCOMPARE(read.models[1].name, std::string("gpt2-xl"));
    // Objectives are the file's geometric means, not a throughput.
    QVERIFY(read.results->best());
    const EvaluatedPoint& best = read.results->points()[*read.results->best()];
    QVERIFY(best.objective != best.throughputSamplesPerSecond);
}

void TestSearchResultsReader::cancelledSearchStaysPartial() {
    SearchRequest request;
    request.models = {zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.threads = 2;
    RunControl control;
    std::atomic<int> seen{0};
    const io::SearchReport written = searchReport(request, &control, [&](const EvaluatedPoint&) {
        if (++seen == 20) control.cancel();
    });
    const SearchResults& w = *written.results;
    QVERIFY(w.statistics().cancelled);
    QVERIFY(w.points().size() < std::size_t(w.statistics().pointsInSpace));
    QVERIFY(written.models.front().baselines.partial);

    READ_BACK(read, io::searchReportToJson(written));
    // Everything, the grid numbering included: the writer stores each point's index and chip
    // index.
    report_compare::report(read, written, true);
    if (QTest::currentTestFailed()) return;
    const SearchResults& r = *read.results;
    QVERIFY(r.statistics().cancelled);
    QVERIFY(read.models.front().baselines.partial);
    QCOMPARE(r.statistics().evaluated, std::int64_t(w.points().size()));

    // A file written before the indices were stored is numbered by position and chip rank: the
    // order, fronts and best point stay.
    auto old = nlohmann::ordered_json::parse(io::searchReportToJson(written));
    for (auto& point : old["points"]) {
        point.erase("index");
        point.erase("chip_index");
    }
    for (auto& [key, entry] : old["baselines"].items())
        if (entry.contains("point")) {
            entry["point"].erase("index");
            entry["point"].erase("chip_index");
        }
    READ_BACK(renumbered, old.dump());
    report_compare::report(renumbered, written, false);
    if (QTest::currentTestFailed()) return;
    std::int64_t chip = 0;
    for (std::size_t i = 0; i < renumbered.results->points().size(); ++i) {
        QCOMPARE(renumbered.results->points()[i].point.index, std::int64_t(i));
        if (i > 0 && w.points()[i].point.chipIndex != w.points()[i - 1].point.chipIndex) ++chip;
        QCOMPARE(renumbered.results->points()[i].point.chipIndex, chip);
    }
}

void TestSearchResultsReader::indicesInTheFileAreUsed() {
    // A partial file whose points and baseline points carry "index" and "chip_index" (as the
    // writer stores them) reads back with the grid's numbers, and wrong ones are refused.
    SearchRequest request;
    request.models = {zoo("bert-large")};
    request.space = smallReferenceSpace();
    request.threads = 2;
    RunControl control;
    std::atomic<int> seen{0};
    const io::SearchReport written = searchReport(request, &control, [&](const EvaluatedPoint&) {
        if (++seen == 30) control.cancel();
    });
    QVERIFY(written.results->statistics().cancelled);
    auto json = nlohmann::ordered_json::parse(io::searchReportToJson(written));
    const auto& points = written.results->points();
    for (std::size_t i = 0; i < points.size(); ++i) {
        json["points"][i]["index"] = points[i].point.index;
        json["points"][i]["chip_index"] = points[i].point.chipIndex;
    }
    for (int i = 0; i < kBaselineCount; ++i) {
        const BaselineOutcome& o = baselineOutcome(written.models.front().baselines, i);
        if (!o.available) continue;
        auto& entry = json["baselines"][std::string(baselineKey(i))]["point"];
        entry["index"] = o.point.index;
        entry["chip_index"] = o.point.chipIndex;
    }
    READ_BACK(read, json.dump());
    report_compare::report(read, written, true);
    if (QTest::currentTestFailed()) return;

    // Indices out of order or past the space are refused.
    auto bad = json;
    bad["points"][1]["index"] = points[0].point.index;
    auto refused = io::parseSearchReportJson(bad.dump(), "results.json");
    QVERIFY(!refused.ok());
    QVERIFY2(refused.message().find("results.json: points[1].index") == 0,
             refused.message().c_str());
    bad = json;
    bad["points"][0].erase("chip_index");
    refused = io::parseSearchReportJson(bad.dump(), "results.json");
    QVERIFY(!refused.ok());
    QVERIFY2(refused.message().find("points[1].chip_index: given") != std::string::npos,
             refused.message().c_str());
}

void TestSearchResultsReader::largeSyntheticReportReadsBackExactly() {
    const io::SearchReport written = synthetic::report(100'000);
    QCOMPARE(written.results->points().size(), std::size_t(100'000));
    QVERIFY(written.models.front().plans.size() >= 2);
    READ_BACK(read, io::searchReportToJson(written));
    report_compare::report(read, written);
}

void TestSearchResultsReader::loadsFilesByPath() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::filesystem::path path = dir.filePath("results.json").toStdString();
    const io::SearchReport written = synthetic::report(64);
    QVERIFY(io::saveSearchReportJson(path, written).ok());
    auto read = io::loadSearchReportJson(path);
    QVERIFY2(read.ok(), read.ok() ? "" : read.message().c_str());
    report_compare::report(*read, written);
    if (QTest::currentTestFailed()) return;

    const std::filesystem::path missing = dir.filePath("missing.json").toStdString();
    auto absent = io::loadSearchReportJson(missing);
    QVERIFY(!absent.ok());
    QVERIFY2(absent.message().find(missing.string()) != std::string::npos,
             absent.message().c_str());
    // Errors inside the file name the path as their source.
    std::string text = io::searchReportToJson(written);
    text.resize(text.size() / 2);
    const std::filesystem::path truncated = dir.filePath("truncated.json").toStdString();
    QVERIFY(writeFileAtomically(truncated, text).ok());
    auto cut = io::loadSearchReportJson(truncated);
    QVERIFY(!cut.ok());
    QVERIFY2(cut.message().find(truncated.string() + ": invalid JSON") == 0, cut.message().c_str());
}

void TestSearchResultsReader::unnamedBaseHardwareReadsBack() {
    // A hardware file needs a name; a search's base may have none, and keeps none.
    io::SearchReport written = synthetic::report(16);
    written.baseHardware.name.clear();
    READ_BACK(read, io::searchReportToJson(written));
    QCOMPARE(read.baseHardware.name, std::string());
    report_compare::report(read, written);
}

QTEST_GUILESS_MAIN(TestSearchResultsReader)
#include "test_search_results_reader.moc"
