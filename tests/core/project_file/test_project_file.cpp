// The project file: a save → load round trip reproduces every field, paths next to the project
// are stored relative to it, omitted sections take their defaults, every malformed document is
// an error that names the field (never a crash), and a failed save leaves the old file whole.
#include <signal.h>
#include <sys/resource.h>

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/hardware/preset_library.h"
#include "core/io/project_file.h"
#include "text_checks.h"

using tandem::core::Status;
using tandem::core::hardware::HardwarePoint;
using tandem::core::hardware::Optimizer;
using tandem::core::hardware::PresetLibrary;
using tandem::core::hardware::Recompute;
using tandem::core::io::ProjectFile;
using tandem::core::search::ExplorerKind;
using tandem::core::search::SearchSpace;
using tandem::core::search::VectorLanesRule;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using tandem::test::contains;
using tandem::test::readAll;

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
}

// A project in which every field differs from its default.
ProjectFile unusualProject(const fs::path& directory) {
    ProjectFile p;
    p.model = (directory / "models" / "tiny.json").string();
    auto a100 = PresetLibrary::preset("a100-like");
    p.hardware = a100.ok() ? *a100 : HardwarePoint{};
    p.hardware.name = "my chip";
    p.hardware.description = "edited A100, ünïcode";
    p.hardware.accelerator.numTensorCores = 96;
    p.hardware.accelerator.globalBufferBytes = (40LL << 20) + 4096;  // not a round display value
    p.hardware.accelerator.hbmBandwidthBytesPerSecond = 1.555e12;
    p.hardware.cluster.devices = 512;
    p.hardware.cluster.devicesPerNode = 8;
    p.hardware.cluster.interNodeBandwidthBytesPerSecond = 25e9;
    p.hardware.cluster.hopLatencySeconds = 2e-6;
    p.training.globalBatch = 1536;
    p.training.microbatch = 4;
    p.training.sequenceLength = 4096;
    p.training.recompute = Recompute::Auto;
    p.training.optimizer = Optimizer::Adam;
    p.search = SearchSpace::phaze();
    p.search.name = "small";
    p.search.numTensorCores = {1, 2, 4, 8, 16};
    p.search.tensorCoreRows = {32, 128};
    p.search.vectorLanes = VectorLanesRule::Free;
    p.search.vectorCoreLanes = {64, 256};
    p.search.areaBudgetSquareMillimetres = 400.5;
    p.search.minAreaFraction = 0.25;
    p.search.allowAreaExtrapolation = true;
    p.search.hbmCapacityBytes = {16LL << 30};
    p.search.microbatchSizes = {2, 4};
    p.search.recompute = {Recompute::Auto};
    p.search.tensorParallelWidths = {1, 8};
    p.explorer = ExplorerKind::Pruned;
    p.threads = 3;
    p.view = {{"tab", "Schedule"}, {"layer", "layer.3"}, {"splitter", "AAAA/w=="}};
    p.results = "/elsewhere/results.json";
    p.searchModels = {"bert-large", (directory / "models" / "extra.json").string()};
    return p;
}

// A minimal valid document with `extra` members spliced in (they override earlier keys).
std::string document(const std::string& extra) {
    json root = {{"format", "tandem-project"},
                 {"version", 1},
                 {"model", "gpt3-175b"},
                 {"hardware", {{"format", "tandem-hardware"}, {"version", 1}}}};
    const json patch = json::parse("{" + extra + "}");
    for (const auto& item : patch.items()) {
        if (item.value().is_null())
            root.erase(item.key());
        else
            root[item.key()] = item.value();
    }
    return root.dump();
}

}  // namespace

class TestProjectFile : public QObject {
    Q_OBJECT
private slots:
    // Results stay current across edits a search point makes itself, and go stale otherwise.
    void searchFingerprintSeparatesWhatResultsDependOn() {
        QTemporaryDir dir;
        const ProjectFile base = unusualProject(dir.path().toStdString());
        const std::string print = base.searchFingerprint();
        ProjectFile same = base;
        same.hardware.accelerator.numTensorCores *= 2;
        same.hardware.accelerator.globalBufferBytes /= 2;
        same.hardware.accelerator.hbmCapacityBytes *= 2;
        same.hardware.name += " (modified)";
        same.training.microbatch += 1;
        same.threads = 3;
        same.view["tab"] = "2";
        QCOMPARE(same.searchFingerprint(), print);
        const auto differs = [&](auto edit) {
            ProjectFile p = base;
            edit(p);
            return p.searchFingerprint() != print;
        };
        QVERIFY(differs([](ProjectFile& p) { p.model = "gpt2-xl"; }));
        QVERIFY(differs([](ProjectFile& p) { p.training.globalBatch *= 2; }));
        QVERIFY(differs([](ProjectFile& p) { p.hardware.cluster.devices *= 2; }));
        QVERIFY(differs(
            [](ProjectFile& p) { p.hardware.accelerator.hbmBandwidthBytesPerSecond *= 2; }));
        QVERIFY(differs([](ProjectFile& p) { p.search.microbatchSizes.push_back(64); }));
        QVERIFY(differs([](ProjectFile& p) { p.searchModels.push_back("opt-350m"); }));
        QVERIFY(differs([](ProjectFile& p) { p.searchModels.clear(); }));
    }
    void roundTripKeepsEveryField() {
        QTemporaryDir dir;
        const fs::path base = dir.path().toStdString();
        const fs::path path = base / "study.tandem";
        const ProjectFile saved = unusualProject(base);
        QVERIFY2(saved.validate().ok(), saved.validate().message().c_str());
        const Status status = saved.save(path);
        QVERIFY2(status.ok(), status.message().c_str());

        // The document as written, read by an independent parser.
        const json root = json::parse(readAll(path));
        QCOMPARE(root["format"].get<std::string>(), std::string("tandem-project"));
        QCOMPARE(root["version"].get<int>(), 1);
        QCOMPARE(root["model"].get<std::string>(), std::string("models/tiny.json"));
        QCOMPARE(root["results"].get<std::string>(), std::string("/elsewhere/results.json"));
        QCOMPARE(root["hardware"]["accelerator"]["numTensorCores"].get<int>(), 96);
        QCOMPARE(root["hardware"]["cluster"]["devices"].get<int>(), 512);
        QCOMPARE(root["training"]["optimizer"].get<std::string>(), std::string("adam"));
        QCOMPARE(root["search"]["format"].get<std::string>(), std::string("tandem-search-space"));
        QCOMPARE(root["run"]["explorer"].get<std::string>(), std::string("pruned"));
        QCOMPARE(root["run"]["threads"].get<int>(), 3);
        QCOMPARE(root["view"]["tab"].get<std::string>(), std::string("Schedule"));
        QCOMPARE(root["search_models"], json::parse(R"(["bert-large", "models/extra.json"])"));

        const auto loaded = ProjectFile::load(path);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.message().c_str());
        QCOMPARE(loaded->model, saved.model);
        QVERIFY(loaded->hardware == saved.hardware);
        QVERIFY(loaded->training == saved.training);
        QVERIFY(loaded->search == saved.search);
        QVERIFY(loaded->explorer == saved.explorer);
        QCOMPARE(loaded->threads, saved.threads);
        QVERIFY(loaded->view == saved.view);
        QCOMPARE(loaded->results, saved.results);
        QVERIFY(loaded->searchModels == saved.searchModels);
        QVERIFY(*loaded == saved);

        // Saving the loaded project again gives the same bytes.
        const std::string first = readAll(path);
        QVERIFY(loaded->save(path).ok());
        QCOMPARE(readAll(path), first);

        // Moving the folder keeps the model next to the project.
        const fs::path moved = base / "moved";
        fs::create_directory(moved);
        fs::copy_file(path, moved / "study.tandem");
        const auto again = ProjectFile::load(moved / "study.tandem");
        QVERIFY(again.ok());
        QCOMPARE(again->model, (moved / "models" / "tiny.json").string());
        QCOMPARE(again->searchModels.at(1), (moved / "models" / "extra.json").string());

        // A zoo name stays a name even if a file of that name sits next to the project.
        ProjectFile zoo = saved;
        zoo.model = "gpt3-175b";
        std::ofstream(base / "gpt3-175b") << "{}";
        QVERIFY(zoo.save(path).ok());
        QCOMPARE(json::parse(readAll(path))["model"].get<std::string>(), std::string("gpt3-175b"));
        QCOMPARE(ProjectFile::load(path)->model, std::string("gpt3-175b"));
    }

    void omittedSectionsTakeDefaults() {
        const auto p = ProjectFile::parse(document(""), "p.tandem", "/projects");
        QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        QCOMPARE(p->model, std::string("gpt3-175b"));
        QVERIFY(p->hardware.accelerator == tandem::core::hardware::AcceleratorConfig{});
        QVERIFY(p->training == tandem::core::hardware::TrainingConfig{});
        QVERIFY(p->search == SearchSpace::phaze());
        QVERIFY(p->explorer == ExplorerKind::Exhaustive);
        QCOMPARE(p->threads, std::int64_t(0));
        QVERIFY(p->view.empty());
        QVERIFY(p->results.empty());
        QVERIFY(p->searchModels.empty());
        // Without extra models nothing is written: older readers see the same document.
        QVERIFY(!contains(p->toJson("/projects"), "search_models"));

        // Relative paths resolve against the project's folder; hand-written view scalars read
        // as their JSON text.
        const auto q = ProjectFile::parse(
            document(
                R"("model": "m/x.json", "results": "../r.json", "view": {"tab": 2, "dark": true})"),
            "p.tandem", "/projects/a");
        QVERIFY2(q.ok(), q.ok() ? "" : q.message().c_str());
        QCOMPARE(q->model, std::string("/projects/a/m/x.json"));
        QCOMPARE(q->results, std::string("/projects/r.json"));
        QCOMPARE(q->view.at("tab"), std::string("2"));
        QCOMPARE(q->view.at("dark"), std::string("true"));
    }

    void malformedDocumentsNameTheField_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mention");
        const auto row = [](const char* tag, const std::string& text, const char* mention) {
            QTest::newRow(tag) << QString::fromStdString(text) << QString(mention);
        };
        const std::string valid = document("");
        row("empty", "  \n", "the file is empty");
        row("truncated", valid.substr(0, valid.size() / 2), "invalid JSON");
        row("array", "[1, 2]", "expected a JSON object");
        row("no format", document(R"("format": null)"), "missing \"format\"");
        row("other format", document(R"("format": "tandem-hardware")"), "is not a project");
        row("version 99", document(R"("version": 99)"), "version 99 was written by a newer Tandem");
        row("version text", document(R"("version": "1")"), "version must be a positive integer");
        row("unknown key", document(R"("colour": "red")"), "unknown key \"colour\"");
        row("missing model", document(R"("model": null)"), "missing \"model\"");
        row("model number", document(R"("model": 3)"), "model must be a string");
        row("model empty", document(R"("model": "")"), "model is empty");
        row("missing hardware", document(R"("hardware": null)"), "missing \"hardware\"");
        row("hardware string", document(R"("hardware": "tpuv4-like")"), "hardware");
        row("hardware field", document(R"("hardware": {"format": "tandem-hardware", "version": 1,
                "accelerator": {"numTensorCores": "many"}})"),
            "p.tandem: hardware: accelerator.numTensorCores must be a number");
        row("training type", document(R"("training": {"globalBatch": "big"})"),
            "p.tandem: training: training.globalBatch must be a number");
        row("training range", document(R"("training": {"microbatch": 0})"),
            "training.microbatch = 0 is out of range");
        row("search type", document(R"("search": [1])"), "search must be a");
        row("search field", document(R"("search": {"format": "tandem-search-space", "version": 1,
                "accelerator": {"numTensorCores": "x"}})"),
            "p.tandem: search: accelerator.numTensorCores must be a list");
        row("run type", document(R"("run": 4)"), "run must be a JSON object");
        row("run explorer", document(R"("run": {"explorer": "random"})"),
            "run.explorer: explorer \"random\" is unknown: must be one of exhaustive, phaze, "
            "pruned");
        row("run threads", document(R"("run": {"threads": -1})"), "run.threads = -1");
        row("run threads above the pool limit", document(R"("run": {"threads": 4096})"),
            "[0, 256]");
        row("run key", document(R"("run": {"speed": 1})"), "run: unknown key \"speed\"");
        row("view type", document(R"("view": "tab")"), "view must be a JSON object");
        row("view nested", document(R"("view": {"tab": [1]})"), "view.tab must be a string");
        row("results type", document(R"("results": false)"), "results must be a string");
        row("search_models type", document(R"("search_models": "bert-large")"),
            "search_models must be an array");
        row("search_models entry", document(R"("search_models": ["bert-large", 3])"),
            "search_models: each entry must be");
        row("search_models empty", document(R"("search_models": [""])"),
            "search_models: each entry must be");
    }

    void malformedDocumentsNameTheField() {
        QFETCH(QString, text);
        QFETCH(QString, mention);
        const auto p = ProjectFile::parse(text.toStdString(), "p.tandem", "/projects");
        QVERIFY(!p.ok());
        VERIFY_CONTAINS(p.message(), "p.tandem: ");
        VERIFY_CONTAINS(p.message(), mention.toStdString());
    }

    void everyTruncationIsAnError() {
        QTemporaryDir dir;
        const std::string text =
            unusualProject(dir.path().toStdString()).toJson(dir.path().toStdString());
        QVERIFY(ProjectFile::parse(text, "p", dir.path().toStdString()).ok());
        int checked = 0;
        for (std::size_t cut = 0; cut + 2 < text.size(); cut += 13, ++checked)
            QVERIFY(!ProjectFile::parse(text.substr(0, cut), "p", "/").ok());
        QVERIFY(checked > 100);
    }

    void failedSaveKeepsTheOldFile() {
        QTemporaryDir dir;
        const fs::path base = dir.path().toStdString();
        const fs::path path = base / "p.tandem";
        ProjectFile project = unusualProject(base);
        QVERIFY(project.save(path).ok());
        const std::string before = readAll(path);
        QCOMPARE(entries(dir.path()), QStringList{"p.tandem"});

        // Invalid content is refused before anything is written.
        ProjectFile invalid = project;
        invalid.hardware.accelerator.numTensorCores = 0;
        Status s = invalid.save(path);
        QVERIFY(!s.ok());
        VERIFY_CONTAINS(s.message(), "accelerator.numTensorCores = 0 is out of range");
        invalid = project;
        invalid.explorer = ExplorerKind(99);  // only by a cast: its name would not read back
        VERIFY_CONTAINS(invalid.save(path).message(), "run.explorer");
        invalid = project;
        invalid.search.microbatchSizes.clear();
        VERIFY_CONTAINS(invalid.save(path).message(), "microbatchSizes is empty");
        QCOMPARE(readAll(path), before);

        // A write that fails half-way (file size limit; binds even root, which ignores
        // directory permissions) leaves the old file whole and no temp file behind.
        project.view["note"] = std::string(4096, 'x');
        signal(SIGXFSZ, SIG_IGN);
        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        rlimit small = old;
        small.rlim_cur = 256;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        s = project.save(path);
        setrlimit(RLIMIT_FSIZE, &old);
        signal(SIGXFSZ, SIG_DFL);
        QVERIFY(!s.ok());
        VERIFY_CONTAINS(s.message(), path.string());
        QCOMPARE(readAll(path), before);
        QCOMPARE(entries(dir.path()), QStringList{"p.tandem"});

        // A folder that cannot hold files (it is a regular file) and a missing folder.
        std::ofstream(base / "plain") << "x";
        QVERIFY(!project.save(base / "plain" / "p.tandem").ok());
        VERIFY_CONTAINS(project.save(base / "nope" / "p.tandem").message(), "does not exist");
        QCOMPARE(readAll(path), before);

        const auto missing = ProjectFile::load(base / "absent.tandem");
        QVERIFY(!missing.ok());
        VERIFY_CONTAINS(missing.message(), "absent.tandem");
    }
};

QTEST_APPLESS_MAIN(TestProjectFile)
#include "test_project_file.moc"
