// Hardware and training JSON and atomic saving: round trips are exact, every malformed input is
// an error with a useful message (never a crash), and a failed save leaves the old file and no
// temp file behind. (The presets' numbers: test_presets.cpp.)
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/common/text_file.h"
#include "core/hardware/area_model.h"
#include "core/hardware/cluster_presets.h"
#include "core/hardware/hardware_json.h"
#include "core/hardware/preset_library.h"
#include "test_paths.h"
#include "test_presets.h"
#include "text_checks.h"

using namespace tandem::core::hardware;
using tandem::core::Status;
namespace fs = std::filesystem;

namespace {

using tandem::test::contains;
using tandem::test::presetOrDie;
using tandem::test::readAll;

// A hardware document with the given accelerator and cluster members.
std::string document(const std::string& accelerator, const std::string& cluster = "") {
    return "{\"format\": \"tandem-hardware\", \"version\": 1, \"name\": \"t\", "
           "\"accelerator\": {" +
           accelerator + "}, \"cluster\": {" + cluster + "}}";
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
}

}  // namespace

class TestHardwareJson : public QObject {
    Q_OBJECT

private slots:
    void roundTrips() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const auto& info : PresetLibrary::list()) {
            const HardwarePoint point = presetOrDie(info.name.c_str());
            const auto parsed = parseHardwareJson(toHardwareJson(point), "memory");
            QVERIFY(parsed.ok());
            QCOMPARE(*parsed, point);
            const fs::path path = fs::path(dir.path().toStdString()) / (info.name + ".json");
            const Status saved = saveHardwareFile(path, point);
            QVERIFY2(saved.ok(), saved.message().c_str());
            const auto loaded = loadHardwareFile(path);
            QVERIFY(loaded.ok());
            QCOMPARE(*loaded, point);
            const auto resolved = PresetLibrary::resolveHardware(path.string());
            QVERIFY(resolved.ok());
            QCOMPARE(*resolved, point);
            const auto object = hardwareFromJsonObject(hardwareToJsonObject(point), "object");
            QVERIFY(object.ok());
            QCOMPARE(*object, point);
        }
        // Awkward doubles survive too.
        HardwarePoint odd = presetOrDie("a100-like");
        odd.accelerator.clockHz = 1.0 / 3.0 * 1e9;
        odd.cluster.hopLatencySeconds = 1e-7 / 3;
        odd.accelerator.hbmCapacityBytes = (std::int64_t(16) << 40) - 1;
        odd.description = "quotes \" and\nnewlines and unicode \xC2\xB5m\xC2\xB2";
        QCOMPARE(*parseHardwareJson(toHardwareJson(odd), "memory"), odd);
        // Invalid UTF-8 set through the API is replaced on output, not thrown.
        odd.name = "bad \xFF byte";
        const auto replaced = parseHardwareJson(toHardwareJson(odd), "memory");
        QVERIFY(replaced.ok());
        QCOMPARE(replaced->name, std::string("bad \xEF\xBF\xBD byte"));
    }

    void missingKeysTakeDefaults() {
        const auto minimal = parseHardwareJson("{\"format\": \"tandem-hardware\", \"version\": 1}",
                                               "dir/my-chip.json");
        QVERIFY2(minimal.ok(), minimal.ok() ? "" : minimal.message().c_str());
        QCOMPARE(minimal->name, std::string("my-chip"));
        QCOMPARE(minimal->description, std::string());
        QCOMPARE(minimal->accelerator, AcceleratorConfig{});
        QCOMPARE(minimal->cluster, ClusterConfig{});
        const auto partial = parseHardwareJson(document("\"numTensorCores\": 16"), "p.json");
        QVERIFY(partial.ok());
        AcceleratorConfig expected;
        expected.numTensorCores = 16;
        QCOMPARE(partial->accelerator, expected);
        const auto floatInteger =
            parseHardwareJson(document("\"hbmCapacityBytes\": 8.589934592e10"), "f");
        QVERIFY(floatInteger.ok());
        QCOMPARE(floatInteger->accelerator.hbmCapacityBytes, std::int64_t(80) << 30);
    }

    void malformedInputsAreErrors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mention");
        const auto row = [](const char* tag, const std::string& text, const char* mention) {
            QTest::newRow(tag) << QString::fromStdString(text) << QString(mention);
        };
        const std::string header = "{\"format\": \"tandem-hardware\", \"version\": 1, ";
        row("empty", "", "src.json: the file is empty");
        row("blank", " \n\t ", "the file is empty");
        row("array", "[]", "expected a JSON object");
        row("number", "42", "found number 42");
        row("truncated", "{\"format\": ", "src.json: invalid JSON");
        row("garbage", "hello", "invalid JSON: parse error at line 1, column");
        row("trailing", document("") + " x", "invalid JSON");
        row("no format", "{\"version\": 1}", "missing \"format\"");
        row("other format", "{\"format\": \"tandem-project\", \"version\": 1}",
            "\"tandem-project\" is not a hardware file");
        row("no version", "{\"format\": \"tandem-hardware\"}", "missing \"version\"");
        row("newer version", "{\"format\": \"tandem-hardware\", \"version\": 2}",
            "version 2 was written by a newer");
        row("string version", "{\"format\": \"tandem-hardware\", \"version\": \"1\"}",
            "version must be a positive integer");
        row("unknown top key", header + "\"acelerator\": {}}", "unknown key \"acelerator\"");
        row("name type", header + "\"name\": 5}", "\"name\" must be a string, found number 5");
        row("empty name", header + "\"name\": \"\"}", "\"name\" must not be empty");
        row("section type", header + "\"accelerator\": []}",
            "\"accelerator\" must be a JSON object, found array");
        row("wrong type", document("\"numTensorCores\": \"eight\""),
            "accelerator.numTensorCores must be a number, an integer in [1, 65536] (cores); "
            "found string \"eight\"");
        row("bool", document("\"numTensorCores\": true"), "found boolean true");
        row("null", document("\"clockHz\": null"), "accelerator.clockHz must be a number");
        row("zero cores", document("\"numTensorCores\": 0"),
            "src.json: accelerator.numTensorCores = 0 is out of range: must be an integer in "
            "[1, 65536] (cores)");
        row("negative size", document("\"hbmCapacityBytes\": -1"),
            "accelerator.hbmCapacityBytes = -1 is out of range");
        row("1e30 bytes", document("\"hbmCapacityBytes\": 1e30"),
            "accelerator.hbmCapacityBytes = 1e+30 is out of range: must be an integer in "
            "[1048576, 17592186044416] (B)");
        row("huge literal", document("\"globalBufferBytes\": 1000000000000000000000000000000"),
            "globalBufferBytes = 1e+30 is out of range");
        row("fraction", document("\"numVectorCores\": 2.5"), "is not an integer");
        row("zero bandwidth", document("", "\"interNodeBandwidthBytesPerSecond\": 0"),
            "cluster.interNodeBandwidthBytesPerSecond = 0 is out of range: must be a number in "
            "[1e+06, 1e+15] (B/s)");
        row("unknown key", document("\"numTensorCore\": 8"),
            "unknown key accelerator.numTensorCore; valid keys are numTensorCores, ");
        row("cluster key in accelerator", document("\"devices\": 8"),
            "unknown key accelerator.devices");
        row("cross field", document("", "\"devices\": 4, \"devicesPerNode\": 8"),
            "cluster.devicesPerNode = 8 is larger than cluster.devices = 4");
        row("deep nesting", std::string(100000, '['), "nested deeper than 64 levels");
        row("nul byte", std::string("{\"format\"\0: 1}", 15), "invalid JSON");
    }

    void malformedInputsAreErrors() {
        QFETCH(QString, text);
        QFETCH(QString, mention);
        const std::string bytes = text.toStdString();
        const auto parsed = parseHardwareJson(bytes, "src.json");
        QVERIFY(!parsed.ok());
        VERIFY_CONTAINS(parsed.message(), mention.toStdString());
        VERIFY_CONTAINS(parsed.message(), "src.json");
    }

    void filesThatCannotBeRead() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const auto missing = loadHardwareFile(root / "nope.json");
        QVERIFY(!missing.ok());
        VERIFY_CONTAINS(missing.message(), (root / "nope.json").string() + ": no such file");
        const auto directory = loadHardwareFile(root);
        QVERIFY(!directory.ok());
        VERIFY_CONTAINS(directory.message(), "is a directory");
        std::ofstream(root / "empty.json").flush();
        const auto empty = loadHardwareFile(root / "empty.json");
        QVERIFY(!empty.ok());
        VERIFY_CONTAINS(empty.message(), "empty.json: the file is empty");
        QVERIFY(!loadHardwareFile("/dev/null").ok());
        VERIFY_CONTAINS(loadHardwareFile("/dev/null").message(), "not a regular file");
        const auto big = tandem::core::readTextFile(root / "empty.json", 0);
        QVERIFY(big.ok());
        std::ofstream(root / "ten.json") << "0123456789";
        VERIFY_CONTAINS(tandem::core::readTextFile(root / "ten.json", 9).message(),
                        "10 bytes, more than");
    }

    void resolveHardware() {
        QCOMPARE(*PresetLibrary::resolveHardware("tpuv4-like"), presetOrDie("tpuv4-like"));
        const auto unknown = PresetLibrary::resolveHardware("tpuv9");
        QVERIFY(!unknown.ok());
        VERIFY_CONTAINS(unknown.message(),
                        "not a preset (available: a100-40gb, a100-80gb, a100-like, b200-192gb");
        const auto missing = PresetLibrary::resolveHardware("no-such-dir/chip.json");
        QVERIFY(!missing.ok());
        VERIFY_CONTAINS(missing.message(), "no-such-dir/chip.json: no such file");
        QVERIFY(!PresetLibrary::resolveHardware("").ok());
    }

    void saveIsAtomic() {
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / "chip.json";
        HardwarePoint point = presetOrDie("tpuv4-like");
        QVERIFY(saveHardwareFile(path, point).ok());
        QCOMPARE(entries(dir.path()), QStringList{"chip.json"});
        QVERIFY((fs::status(path).permissions() & fs::perms::all) ==
                (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                 fs::perms::others_read));
        point.accelerator.numTensorCores = 16;
        QVERIFY(saveHardwareFile(path, point).ok());
        QCOMPARE(loadHardwareFile(path)->accelerator.numTensorCores, std::int64_t(16));
        QCOMPARE(entries(dir.path()), QStringList{"chip.json"});
        const std::string before = readAll(path);

        // An invalid point is refused before anything is written.
        HardwarePoint invalid = point;
        invalid.accelerator.numTensorCores = 0;
        const Status refused = saveHardwareFile(path, invalid);
        QVERIFY(!refused.ok());
        VERIFY_CONTAINS(refused.message(), "accelerator.numTensorCores = 0 is out of range");
        QCOMPARE(readAll(path), before);

        // A directory that does not exist, and a target that is a directory.
        const Status noDir =
            saveHardwareFile(fs::path(dir.path().toStdString()) / "x" / "c.json", point);
        QVERIFY(!noDir.ok());
        VERIFY_CONTAINS(noDir.message(), "does not exist");
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        const Status isDir = saveHardwareFile(fs::path(dir.path().toStdString()) / "sub", point);
        QVERIFY(!isDir.ok());
        VERIFY_CONTAINS(isDir.message(), "is a directory");

        // A write that fails half-way (file size limit, which binds even root) keeps the old
        // file whole and leaves no temp file.
        signal(SIGXFSZ, SIG_IGN);
        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        rlimit small = old;
        small.rlim_cur = 64;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const Status tooBig = saveHardwareFile(path, presetOrDie("a100-like"));
        setrlimit(RLIMIT_FSIZE, &old);
        signal(SIGXFSZ, SIG_DFL);
        QVERIFY(!tooBig.ok());
        VERIFY_CONTAINS(tooBig.message(), "cannot save " + path.string());
        VERIFY_CONTAINS(tooBig.message(), "File too large");
        QCOMPARE(readAll(path), before);
        QCOMPARE(entries(dir.path()), (QStringList{"chip.json", "sub"}));

        // Permission denial (only meaningful when not running as root).
        if (geteuid() != 0) {
            QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
            const Status denied = saveHardwareFile(path, point);
            QFile::setPermissions(dir.path(),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            QVERIFY(!denied.ok());
            VERIFY_CONTAINS(denied.message(), "cannot create a temporary file");
            QCOMPARE(readAll(path), before);
        }
    }

    void trainingJson() {
        TrainingConfig t;
        t.globalBatch = 1536;
        t.microbatch = 8;
        t.sequenceLength = 2048;
        t.recompute = Recompute::Auto;
        t.optimizer = Optimizer::Adam;
        const std::string text = toTrainingJson(t);
        VERIFY_CONTAINS(text, "\"recompute\": \"auto\"");
        VERIFY_CONTAINS(text, "\"optimizer\": \"adam\"");
        QCOMPARE(*parseTrainingJson(text, "t.json"), t);
        QCOMPARE(*trainingFromJsonObject(trainingToJsonObject(t), "project"), t);
        QCOMPARE(*parseTrainingJson("{}", "t.json"), TrainingConfig{});
        struct Case {
            const char* text;
            const char* mention;
        };
        for (const Case& c :
             {Case{"{\"recompute\": \"maybe\"}",
                   "t.json: training.recompute = \"maybe\" is not a valid choice: must be one of "
                   "off, on, auto"},
              Case{"{\"recompute\": 1}",
                   "training.recompute must be a string, one of off, on, auto"},
              Case{"{\"optimizer\": \"lamb\"}", "must be one of sgd, adam"},
              Case{"{\"globalBatch\": 4, \"microbatch\": 8}",
                   "training.microbatch = 8 is larger than training.globalBatch = 4"},
              Case{"{\"sequenceLength\": -1}", "training.sequenceLength = -1 is out of range"},
              Case{"{\"seqLength\": 1}", "unknown key training.seqLength"},
              Case{"[1]", "\"training\" must be a JSON object, found array [1]"},
              Case{"", "empty"}}) {
            const auto parsed = parseTrainingJson(c.text, "t.json");
            QVERIFY2(!parsed.ok(), c.text);
            VERIFY_CONTAINS(parsed.message(), c.mention);
        }
    }
};

QTEST_GUILESS_MAIN(TestHardwareJson)
#include "test_hardware_json.moc"
