// SearchRunInfo (core/io/search_run_info.h): describing a run (absolute paths, file digests
// checked against the FNV-1a test vectors, shards), its one-line JSON read back equal, the
// request rebuilt from it equal to the searched one bit for bit (PHAZE's space and a small
// space of awkward doubles, zoo and file models), a changed model file refused, and malformed
// run JSON refused with messages naming the source and the field.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/common/version.h"
#include "core/importers/model_loader.h"
#include "core/io/search_run_info.h"
#include "test_paths.h"
#include "tests/core/search/search_test_support.h"

using namespace tandem::core;
using namespace tandem::core::io;
using namespace search_test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kMlp = tandem::test::testDataDir() + "/models/mlp.json";
const std::string kOnnx = tandem::test::testDataDir() + "/importers/onnx/gpt_block.onnx";

void writeFile(const fs::path& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary);
    out << content;
}

model::ModelSourcePtr loaded(const std::string& spec) {
    auto m = importers::loadModel(spec);
    if (!m) qFatal("%s", m.message().c_str());
    return *m;
}

search::SearchRequest requestFor(const std::vector<std::string>& specs) {
    search::SearchRequest request;
    for (const std::string& spec : specs) request.models.push_back(loaded(spec));
    return request;
}

SearchRunInfo described(const std::vector<std::string>& specs, const search::SearchRequest& request,
                        SearchShard shard = {}) {
    auto info = describeSearchRun(specs, request, shard);
    if (!info) qFatal("%s", info.message().c_str());
    return *info;
}

// A small space whose doubles have no short decimal form, on an unnamed base hardware.
search::SearchSpace awkwardSpace() {
    search::SearchSpace s = smallReferenceSpace();
    s.name = "awkward";
    s.base.name.clear();
    s.base.description = "odd numbers";
    s.base.accelerator.clockHz = 1e9 / 3.0;
    s.base.accelerator.hbmBandwidthBytesPerSecond = 1.2e12 / 7.0;
    s.base.accelerator.tensorCoreEfficiency = 0.1 + 0.2;
    s.base.accelerator.operatorOverheadSeconds = 1e-6 / 3.0;
    s.base.cluster.devices = 96;
    s.base.cluster.interNodeBandwidthBytesPerSecond = 12.5e9 / 3.0;
    s.base.cluster.hopLatencySeconds = 2e-6 / 7.0;
    s.areaBudgetSquareMillimetres = hardware::AreaModel::kReferenceAreaSquareMillimetres * 1.1;
    s.minAreaFraction = 1.0 / 3.0;
    s.vectorLanes = search::VectorLanesRule::Free;
    s.vectorCoreLanes = {64, 128};
    // Not a run of three or more powers of two: SearchSpace::toJson writes such a run of widths
    // in the {"powersOfTwo": ...} form, which its reader does not accept for this key.
    s.tensorParallelWidths = {1, 2, 8};
    return s;
}

}  // namespace

class TestSearchRunInfo : public QObject {
    Q_OBJECT
private slots:
    void digestIsFnv1a64OfTheBytes();
    void describeRecordsTheRun();
    void describeMakesPathsAbsolute();
    void describeRefusesBadInput();
    void jsonIsOneLineAndReadsBackEqual();
    void requestRoundTripsExactly_data();
    void requestRoundTripsExactly();
    void changedModelFileIsRefused();
    void unknownCostModelIsRefused();
    void damagedJsonIsRefused_data();
    void damagedJsonIsRefused();
};

void TestSearchRunInfo::digestIsFnv1a64OfTheBytes() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const fs::path root = dir.path().toStdString();
    // The FNV-1a 64-bit test vectors (Fowler, Noll and Vo's reference values).
    const std::pair<std::string, std::string> vectors[] = {
        {"", "cbf29ce484222325"}, {"a", "af63dc4c8601ec8c"}, {"foobar", "85944171f73967e8"}};
    for (const auto& [content, hash] : vectors) {
        writeFile(root / "f.bin", content);
        const auto digest = modelFileDigest(root / "f.bin");
        QVERIFY2(digest.ok(), digest.ok() ? "" : digest.message().c_str());
        QCOMPARE(*digest, "fnv1a64:" + hash);
    }
    // Bytes beyond one read buffer (64 KiB) and NULs count too.
    writeFile(root / "big.bin", std::string(100000, '\0'));
    writeFile(root / "big2.bin", std::string(99999, '\0') + "x");
    QVERIFY(*modelFileDigest(root / "big.bin") != *modelFileDigest(root / "big2.bin"));

    const auto missing = modelFileDigest(root / "missing.onnx");
    QVERIFY(!missing.ok());
    QVERIFY2(missing.message().find("missing.onnx") != std::string::npos,
             missing.message().c_str());
    const auto directory = modelFileDigest(root);
    QVERIFY(!directory.ok());
    QVERIFY2(directory.message().find("not a regular file") != std::string::npos,
             directory.message().c_str());
}

void TestSearchRunInfo::describeRecordsTheRun() {
    search::SearchRequest request = requestFor({"gpt2-xl", kMlp});
    request.space = awkwardSpace();
    request.training.globalBatch = 512;
    request.explorer = search::ExplorerKind::Pruned;
    request.costModel = placement::CostModelKind::PhazeCompat;
    request.threads = 3;
    const SearchRunInfo info = described({"gpt2-xl", kMlp}, request, {2, 4});
    QCOMPARE(info.version, std::string(version()));
    QCOMPARE(info.version, std::string(TANDEM_PROJECT_VERSION));
    QCOMPARE(info.project.model, std::string("gpt2-xl"));
    QCOMPARE(info.project.searchModels, std::vector<std::string>{kMlp});
    QVERIFY(info.project.search == request.space);
    QVERIFY(info.project.hardware == request.space.base);
    QVERIFY(info.project.training == request.training);
    QVERIFY(info.project.explorer == search::ExplorerKind::Pruned);
    QCOMPARE(info.project.threads, std::int64_t(0));  // not part of the run
    QCOMPARE(info.costModel, std::string("phaze-compat"));
    QCOMPARE(info.modelDigests, (std::vector<std::string>{"zoo", *modelFileDigest(kMlp)}));
    QVERIFY(info.modelDigests[1].rfind("fnv1a64:", 0) == 0);
    QVERIFY((info.shard == SearchShard{2, 4}));
}

void TestSearchRunInfo::describeMakesPathsAbsolute() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const fs::path root = dir.path().toStdString();
    fs::create_directory(root / "sub");
    fs::copy_file(kMlp, root / "m.json");
    const QString previous = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    const auto info = describeSearchRun({"./sub/../m.json"}, requestFor({"m.json"}));
    const fs::path cwd = fs::current_path();
    QVERIFY(QDir::setCurrent(previous));
    QVERIFY2(info.ok(), info.ok() ? "" : info.message().c_str());
    QCOMPARE(info->project.model, (cwd / "m.json").string());
    QVERIFY(fs::path(info->project.model).is_absolute());
    QCOMPARE(info->modelDigests.front(), *modelFileDigest(kMlp));  // same bytes, same digest
}

void TestSearchRunInfo::describeRefusesBadInput() {
    const search::SearchRequest one = requestFor({"gpt2-xl"});
    const auto refused = [](const Expected<SearchRunInfo>& info, const std::string& fragment) {
        QVERIFY(!info.ok());
        QVERIFY2(info.message().find(fragment) != std::string::npos, info.message().c_str());
    };
    refused(describeSearchRun({}, search::SearchRequest{}), "no model");
    refused(describeSearchRun({"gpt2-xl", "bert-large"}, one), "2 model names for 1 models");
    refused(describeSearchRun({"/nonexistent/model.onnx"}, one), "/nonexistent/model.onnx");
    refused(describeSearchRun({"gpt2-xl"}, one, {5, 4}), "shard 5 of 4 is out of range");
    refused(describeSearchRun({"gpt2-xl"}, one, {0, 4}), "shard 0 of 4 is out of range");
    refused(describeSearchRun({"gpt2-xl"}, one, {1, -1}), "negative");
    refused(describeSearchRun({"gpt2-xl"}, one, {1, 0}), "without a shard count");
    QVERIFY(describeSearchRun({"gpt2-xl"}, one, {4, 4}).ok());
}

void TestSearchRunInfo::jsonIsOneLineAndReadsBackEqual() {
    search::SearchRequest request = requestFor({"bert-large", kMlp, kOnnx});
    request.space = awkwardSpace();
    for (const SearchShard shard : {SearchShard{}, SearchShard{3, 7}}) {
        const SearchRunInfo info = described({"bert-large", kMlp, kOnnx}, request, shard);
        const std::string text = info.toJson();
        QVERIFY(text.find('\n') == std::string::npos);
        QVERIFY(text.rfind("{\"tandem_version\":\"" + std::string(version()) + "\",\"project\":{",
                           0) == 0);
        QVERIFY(text.find("\"cost_model\":\"native\"") != std::string::npos);
        QVERIFY(text.find("\"threads\"") == std::string::npos);
        QVERIFY(text.find("\"view\"") == std::string::npos);
        QCOMPARE(text.find("\"shard\":{\"index\":3,\"count\":7}") != std::string::npos,
                 shard.count > 0);
        QCOMPARE(text.find("\"shard\"") != std::string::npos, shard.count > 0);
        const auto back = SearchRunInfo::parseJson(text, "run.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.message().c_str());
        QVERIFY(*back == info);
        QVERIFY(back->project.hardware.name.empty());  // the unnamed base stays unnamed
        QCOMPARE(back->toJson(), text);
    }
}

void TestSearchRunInfo::requestRoundTripsExactly_data() {
    QTest::addColumn<bool>("phaze");
    QTest::newRow("phaze space, zoo model") << true;
    QTest::newRow("awkward space, zoo and file models") << false;
}

void TestSearchRunInfo::requestRoundTripsExactly() {
    QFETCH(bool, phaze);
    const std::vector<std::string> specs =
        phaze ? std::vector<std::string>{"gpt2-xl"}
              : std::vector<std::string>{"bert-large", kMlp, kOnnx};
    search::SearchRequest request = requestFor(specs);
    request.space = phaze ? search::SearchSpace::phaze() : awkwardSpace();
    request.training.globalBatch = 1536;
    request.training.sequenceLength = 777;
    request.training.optimizer = hardware::Optimizer::Adam;
    request.training.interleave = 2;
    request.explorer = phaze ? search::ExplorerKind::Exhaustive : search::ExplorerKind::Phaze;
    request.costModel =
        phaze ? placement::CostModelKind::Native : placement::CostModelKind::PhazeCompat;

    const SearchRunInfo info = described(specs, request);
    const auto read = SearchRunInfo::parseJson(info.toJson(), "run.json");
    QVERIFY2(read.ok(), read.ok() ? "" : read.message().c_str());
    const auto rebuilt = toSearchRequest(*read, importers::loadModel, 5);
    QVERIFY2(rebuilt.ok(), rebuilt.ok() ? "" : rebuilt.message().c_str());
    QVERIFY(rebuilt->space == request.space);  // every double bit for bit
    QVERIFY(rebuilt->space.base == request.space.base);
    QCOMPARE(rebuilt->space.base.accelerator.clockHz, request.space.base.accelerator.clockHz);
    QVERIFY(rebuilt->training == request.training);
    QVERIFY(rebuilt->explorer == request.explorer);
    QVERIFY(rebuilt->costModel == request.costModel);
    QCOMPARE(rebuilt->threads, 5);
    QCOMPARE(rebuilt->models.size(), request.models.size());
    for (std::size_t i = 0; i < request.models.size(); ++i)
        QCOMPARE(rebuilt->models[i]->name(), request.models[i]->name());
}

void TestSearchRunInfo::changedModelFileIsRefused() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = (fs::path(dir.path().toStdString()) / "model.json").string();
    fs::copy_file(kMlp, path);
    const SearchRunInfo before = described({path}, requestFor({path}));
    QVERIFY(toSearchRequest(before, importers::loadModel).ok());

    std::ofstream(path, std::ios::app) << "\n";  // still the same model, other bytes
    const auto changed = toSearchRequest(before, importers::loadModel);
    QVERIFY(!changed.ok());
    QVERIFY2(
        changed.message().rfind(path + ": the model file changed since the search ran", 0) == 0,
        changed.message().c_str());
    QVERIFY2(changed.message().find(before.modelDigests[0]) != std::string::npos,
             changed.message().c_str());

    fs::remove(path);
    const auto removed = toSearchRequest(before, importers::loadModel);
    QVERIFY(!removed.ok());
    QVERIFY2(removed.message().rfind(path, 0) == 0, removed.message().c_str());
}

void TestSearchRunInfo::unknownCostModelIsRefused() {
    SearchRunInfo info = described({"gpt2-xl"}, requestFor({"gpt2-xl"}));
    info.costModel = "roofline";
    const auto request = toSearchRequest(info, importers::loadModel);
    QVERIFY(!request.ok());
    QVERIFY2(request.message().find("\"roofline\"") != std::string::npos,
             request.message().c_str());
    info.costModel = "native";
    info.modelDigests.push_back("zoo");
    QVERIFY(!toSearchRequest(info, importers::loadModel).ok());  // 2 digests, 1 model
}

void TestSearchRunInfo::damagedJsonIsRefused_data() {
    // A JSON pointer into a valid run (gpt2-xl, shard 2 of 4), the value put there (empty:
    // removed) and how the message must begin.
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const char* pointer, const char* value,
                        const char* message) {
        QTest::newRow(name) << pointer << value << QString("run.json: ") + message;
    };
    row("not an object", "", "[1]", "expected a JSON object");
    row("unknown key", "/seed", "1", "unknown key \"seed\"");
    row("version missing", "/tandem_version", "", "tandem_version: missing");
    row("version type", "/tandem_version", "3", "tandem_version: expected a non-empty string");
    row("version empty", "/tandem_version", "\"\"", "tandem_version: expected a non-empty");
    row("project missing", "/project", "", "project: missing");
    row("project type", "/project", "7", "project: expected a {\"format\": \"tandem-project\"");
    row("project key", "/project/colour", "1", "project: unknown key \"colour\"");
    row("project field", "/project/training/globalBatch", "\"many\"", "project: training");
    row("project hardware", "/project/hardware/cluster/devices", "0", "project: hardware");
    row("cost model missing", "/cost_model", "", "cost_model: missing");
    row("cost model type", "/cost_model", "1", "cost_model: expected a non-empty string");
    row("digests missing", "/model_digests", "", "model_digests: missing");
    row("digests type", "/model_digests", "\"zoo\"", "model_digests: expected an array");
    row("digest count", "/model_digests", "[\"zoo\",\"zoo\"]",
        "model_digests: 2 digests for 1 models");
    row("digest form", "/model_digests/0", "\"fnv1a64:0123456789ABCDEF\"",
        "model_digests[0]: expected \"zoo\" or \"fnv1a64:\"");
    row("digest type", "/model_digests/0", "null", "model_digests[0]: expected");
    row("shard type", "/shard", "[2,4]", "shard: expected {\"index\": i, \"count\": n}");
    row("shard key", "/shard/first", "1", "shard: unknown key \"first\"");
    row("shard index missing", "/shard/index", "", "shard.index: missing");
    row("shard index type", "/shard/index", "\"2\"", "shard.index: expected an integer");
    row("shard index huge", "/shard/index", "1e300", "shard.index: expected an integer");
    row("shard past count", "/shard/index", "5", "shard 5 of 4 is out of range");
    row("shard zero", "/shard/index", "0", "shard 0 of 4 is out of range");
    row("shard count negative", "/shard/count", "-1", "shard count -1 is negative");
}

void TestSearchRunInfo::damagedJsonIsRefused() {
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    QFETCH(QString, message);
    const std::string text = described({"gpt2-xl"}, requestFor({"gpt2-xl"}), {2, 4}).toJson();
    QVERIFY(SearchRunInfo::parseJson(text, "run.json").ok());
    json document = json::parse(text);
    const json::json_pointer at(pointer.toStdString());
    if (value.isEmpty())
        document[at.parent_pointer()].erase(at.back());
    else
        document[at] = json::parse(value.toStdString());
    const auto read = SearchRunInfo::parseJson(document.dump(), "run.json");
    QVERIFY(!read.ok());
    QVERIFY2(read.message().rfind(message.toStdString(), 0) == 0, read.message().c_str());
    // Invalid JSON is refused as such, naming the source.
    const auto cut = SearchRunInfo::parseJson(text.substr(0, text.size() / 2), "run.json");
    QVERIFY(!cut.ok());
    QVERIFY2(cut.message().rfind("run.json: ", 0) == 0, cut.message().c_str());
}

QTEST_GUILESS_MAIN(TestSearchRunInfo)
#include "test_search_run_info.moc"
