// What differs between two runs (differences(): each change named once, in its place, the shard
// and names ignored), and the search-results file's "run" member: written before the points,
// read back equal with the rest of the report unchanged, absent in a file without one, and a
// damaged one refused with a message naming the source and "run".
#include <QtTest>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "core/common/version.h"
#include "core/io/search_results_json.h"
#include "core/io/search_results_reader.h"
#include "core/io/search_run_info.h"
#include "core/search/search_run.h"
#include "test_paths.h"
#include "tests/core/search/search_test_support.h"
#include "tests/core/search_results_reader/report_compare.h"

using namespace tandem::core;
using namespace tandem::core::io;
using namespace search_test;
using nlohmann::json;

namespace {

const std::string kMlp = tandem::test::testDataDir() + "/models/mlp.json";

// The run of a search over `specs`; zoo models stand in for files (describe only digests them).
SearchRunInfo described(const std::vector<std::string>& specs, SearchShard shard = {}) {
    search::SearchRequest request;
    for (std::size_t i = 0; i < specs.size(); ++i) request.models.push_back(zoo("gpt2-xl"));
    request.space = smallReferenceSpace();
    auto info = describeSearchRun(specs, request, shard);
    if (!info) qFatal("%s", info.message().c_str());
    return *info;
}

// A real search of gpt2-xl over two chips of the small reference space, as a report with run.
SearchReport reportWithRun() {
    search::SearchRequest request;
    request.models = {zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.space.numTensorCores = {8};
    request.space.numVectorCores = {2};
    request.space.globalBufferBytes = {128 * kMiB};
    request.space.microbatchSizes = {1};
    request.space.recompute = {hardware::Recompute::Off};
    auto outcome = search::runSearch(request);
    if (!outcome) qFatal("%s", outcome.message().c_str());
    SearchReport report = makeSearchReport(*outcome, request.space.base);
    auto run = describeSearchRun({"gpt2-xl"}, request, {1, 3});
    if (!run) qFatal("%s", run.message().c_str());
    report.run = *run;
    return report;
}

}  // namespace

class TestSearchRunInResults : public QObject {
    Q_OBJECT
private slots:
    void equalRunsHaveNoDifferences();
    void eachChangeIsNamedOnce();
    void severalChangesKeepTheirOrder();
    void runReadsBackWithTheReport();
    void fileWithoutRunReadsWithoutOne();
    void damagedRunIsRefused_data();
    void damagedRunIsRefused();
};

void TestSearchRunInResults::equalRunsHaveNoDifferences() {
    const SearchRunInfo a = described({"gpt2-xl", kMlp});
    QVERIFY(differences(a, a).empty());
    // Shards of one search, and names that change no result, are the same run.
    SearchRunInfo b = described({"gpt2-xl", kMlp}, {3, 4});
    b.project.search.name = "renamed";
    b.project.hardware.name = "my chip";
    b.project.hardware.description = "described";
    QVERIFY(!(a == b));
    QVERIFY(differences(a, b).empty());
}

void TestSearchRunInResults::eachChangeIsNamedOnce() {
    const SearchRunInfo base = described({"gpt2-xl", kMlp});
    const std::string mlp = base.project.searchModels.at(0);
    struct Change {
        std::string expected;
        std::function<void(SearchRunInfo&)> apply;
    };
    const Change changes[] = {
        {"Tandem version (" + std::string(version()) + " vs 9.9.9)",
         [](SearchRunInfo& r) { r.version = "9.9.9"; }},
        {"models (gpt2-xl, " + mlp + " vs bert-large, " + mlp + ")",
         [](SearchRunInfo& r) { r.project.model = "bert-large"; }},
        {"models (gpt2-xl, " + mlp + " vs gpt2-xl, " + mlp + ", gpt3-175b)",
         [](SearchRunInfo& r) {
             r.project.searchModels.push_back("gpt3-175b");
             r.modelDigests.push_back("zoo");
         }},
        {"model file contents (" + mlp + " changed)",
         [](SearchRunInfo& r) { r.modelDigests[1] = "fnv1a64:0000000000000000"; }},
        {"search space (microbatchSizes)",
         [](SearchRunInfo& r) {
             r.project.search.microbatchSizes = {1, 2, 4};
         }},
        {"search space (accelerator.numTensorCores)",
         [](SearchRunInfo& r) {
             r.project.search.numTensorCores = {4, 8};
         }},
        {"search space (minAreaFraction)",
         [](SearchRunInfo& r) { r.project.search.minAreaFraction = 0.25; }},
        {"hardware and cluster (accelerator.clockHz)",
         [](SearchRunInfo& r) { r.project.hardware.accelerator.clockHz *= 1.5; }},
        {"hardware and cluster (cluster.devices)",
         [](SearchRunInfo& r) { r.project.hardware.cluster.devices = 64; }},
        {"training (globalBatch)", [](SearchRunInfo& r) { r.project.training.globalBatch = 8; }},
        {"explorer (exhaustive vs pruned)",
         [](SearchRunInfo& r) { r.project.explorer = search::ExplorerKind::Pruned; }},
        {"cost model (native vs phaze-compat)",
         [](SearchRunInfo& r) { r.costModel = "phaze-compat"; }},
    };
    for (const Change& change : changes) {
        SearchRunInfo other = base;
        change.apply(other);
        const std::vector<std::string> found = differences(base, other);
        QVERIFY2(found.size() == 1, change.expected.c_str());
        QCOMPARE(found.front(), change.expected);
    }
}

void TestSearchRunInResults::severalChangesKeepTheirOrder() {
    const SearchRunInfo a = described({"gpt2-xl"});
    SearchRunInfo b = a;
    b.costModel = "phaze-compat";
    b.project.training.globalBatch = 8;
    b.version = "0.0.1";
    const std::vector<std::string> found = differences(a, b);
    QCOMPARE(found.size(), std::size_t(3));
    QVERIFY(found[0].rfind("Tandem version", 0) == 0);
    QVERIFY(found[1].rfind("training", 0) == 0);
    QVERIFY(found[2].rfind("cost model", 0) == 0);
}

void TestSearchRunInResults::runReadsBackWithTheReport() {
    const SearchReport written = reportWithRun();
    QVERIFY(written.run);
    const std::string text = searchReportToJson(written);
    const std::size_t run = text.find(",\"run\":{\"tandem_version\":");
    QVERIFY(run != std::string::npos);
    QVERIFY(run < text.find("\"points\""));
    const auto read = parseSearchReportJson(text, "results.json");
    QVERIFY2(read.ok(), read.ok() ? "" : read.message().c_str());
    QVERIFY(read->run);
    QVERIFY(*read->run == *written.run);
    QVERIFY((read->run->shard == SearchShard{1, 3}));
    report_compare::report(*read, written);
}

void TestSearchRunInResults::fileWithoutRunReadsWithoutOne() {
    SearchReport written = reportWithRun();
    written.run.reset();
    const std::string text = searchReportToJson(written);
    QVERIFY(text.find("\"run\"") == std::string::npos);
    const auto read = parseSearchReportJson(text, "results.json");
    QVERIFY2(read.ok(), read.ok() ? "" : read.message().c_str());
    QVERIFY(!read->run);
    report_compare::report(*read, written);
}

void TestSearchRunInResults::damagedRunIsRefused_data() {
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("run type") << "/run"
                              << "5"
                              << "results.json: run: expected a JSON object";
    QTest::newRow("run array") << "/run"
                               << "[]"
                               << "results.json: run: expected a JSON object";
    QTest::newRow("shard 5 of 4") << "/run/shard"
                                  << "{\"index\":5,\"count\":4}"
                                  << "results.json: run: shard 5 of 4 is out of range";
    QTest::newRow("version type") << "/run/tandem_version"
                                  << "[1]"
                                  << "results.json: run: tandem_version: expected a non-empty";
    QTest::newRow("explorer") << "/run/project/run/explorer"
                              << "\"random\""
                              << "results.json: run: project: run.explorer";
    QTest::newRow("digests") << "/run/model_digests"
                             << "[]"
                             << "results.json: run: model_digests: 0 digests for 1 models";
}

void TestSearchRunInResults::damagedRunIsRefused() {
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    QFETCH(QString, message);
    static const std::string text = searchReportToJson(reportWithRun());
    nlohmann::ordered_json document = nlohmann::ordered_json::parse(text);
    document[nlohmann::ordered_json::json_pointer(pointer.toStdString())] =
        nlohmann::ordered_json::parse(value.toStdString());
    const auto read = parseSearchReportJson(document.dump(), "results.json");
    QVERIFY(!read.ok());
    QVERIFY2(read.message().rfind(message.toStdString(), 0) == 0, read.message().c_str());
}

QTEST_GUILESS_MAIN(TestSearchRunInResults)
#include "test_search_run_in_results.moc"
