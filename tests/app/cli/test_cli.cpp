// tandem-cli as users and scripts see it: exit codes (0 ok, 2 bad input), JSON keys, and the
// check of GPT-3's GEMM FLOPs against the Megatron formula (Narayanan et al., SC 2021).
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <sstream>

#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void listsModelsAndPresets() {
        const auto models = run({"models", "--json"});
        QCOMPARE(models.code, 0);
        const auto list = QJsonDocument::fromJson(QByteArray::fromStdString(models.out)).array();
        QStringList names;
        for (const auto& v : list) names << v.toObject()["name"].toString();
        for (const char* expected :
             {"bert-large", "gpt2-xl", "megatron-gpt2-2.5b", "megatron-gpt2-8.3b", "gpt3-175b",
              "opt-350m", "opt-1.3b", "llama2-7b"})
            QVERIFY2(names.contains(expected), expected);
        const auto presets = run({"presets", "--json"});
        QCOMPARE(presets.code, 0);
        const auto plist = QJsonDocument::fromJson(QByteArray::fromStdString(presets.out)).array();
        QStringList pnames;
        for (const auto& v : plist) pnames << v.toObject()["name"].toString();
        QVERIFY(pnames.contains("tpuv4-like"));
        QVERIFY(pnames.contains("a100-like"));
        QVERIFY(run({"models"}).out.find("gpt3-175b") != std::string::npos);
    }

    void gpt3GemmFlopsMatchMegatron() {
        const auto r = run({"estimate", "--model", "gpt3-175b", "--hardware", "tpuv4-like", "--tp",
                            "8", "--mbs", "1", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject root = parseObject(r.out);
        for (const char* key : {"model", "hardware", "layers", "totals"})
            QVERIFY(root.contains(key));
        const QJsonObject totals = root["totals"].toObject();
        const double gemm =
            totals["gemm_forward_flops"].toDouble() + totals["gemm_backward_flops"].toDouble();
        const double B = 1, s = 2048, l = 96, h = 12288, V = 50257;
        const double megatron = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
        QVERIFY2(std::fabs(gemm * 8 / megatron - 1) < 0.02,
                 qPrintable(QString("ratio %1").arg(gemm * 8 / megatron)));
        const QJsonArray layers = root["layers"].toArray();
        QCOMPARE(layers.size(), 98);
        const QJsonObject op = layers[1].toObject()["operators"].toArray()[0].toObject();
        for (const char* key : {"name", "class", "flops", "bytes", "forward", "backward"})
            QVERIFY2(op.contains(key), key);
        QVERIFY(op["forward"].toObject().contains("one_core_s"));
        QVERIFY(op["backward"].toObject().contains("all_cores_s"));
        for (const char* key : {"forward_flops", "backward_flops", "parameters"})
            QVERIFY2(totals.contains(key), key);
    }

    void everyZooModelOnBothPresets() {
        for (const char* model :
             {"bert-large", "gpt2-xl", "megatron-gpt2-2.5b", "megatron-gpt2-8.3b", "gpt3-175b",
              "opt-350m", "opt-1.3b", "llama2-7b"}) {
            for (const char* hw : {"tpuv4-like", "a100-like"}) {
                const auto r = run({"estimate", "--model", model, "--hardware", hw, "--json"});
                QVERIFY2(
                    r.code == 0,
                    qPrintable(
                        QString("%1 on %2: %3").arg(model, hw, QString::fromStdString(r.err))));
                const auto totals = parseObject(r.out)["totals"].toObject();
                QVERIFY(totals["forward_flops"].toDouble() > 0);
                QVERIFY(totals["backward_flops"].toDouble() > totals["forward_flops"].toDouble());
            }
        }
    }

    void badInputsExitTwo_data() {
        QTest::addColumn<QString>("fileContent");  // written to a file passed as --hardware/--model
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("expect");  // substring of the message
        QTest::newRow("empty hardware") << ""
                                        << "hardware"
                                        << "empty";
        QTest::newRow("hardware array") << "[]"
                                        << "hardware"
                                        << "object";
        QTest::newRow("wrong type")
            << R"({"format":"tandem-hardware","version":1,"name":"x","accelerator":{"numTensorCores":"eight"}})"
            << "hardware"
            << "numTensorCores";
        QTest::newRow("zero cores")
            << R"({"format":"tandem-hardware","version":1,"name":"x","accelerator":{"numTensorCores":0}})"
            << "hardware"
            << "numTensorCores";
        QTest::newRow("1e30 bytes")
            << R"({"format":"tandem-hardware","version":1,"name":"x","accelerator":{"hbmCapacityBytes":1e30}})"
            << "hardware"
            << "hbmCapacityBytes";
        QTest::newRow("negative buffer")
            << R"({"format":"tandem-hardware","version":1,"name":"x","accelerator":{"globalBufferBytes":-4}})"
            << "hardware"
            << "globalBufferBytes";
        QTest::newRow("empty model") << ""
                                     << "model"
                                     << "empty";
        QTest::newRow("model not json") << "{{{"
                                        << "model"
                                        << "";
        QTest::newRow("negative model size")
            << R"({"format":"tandem-model","version":1,"name":"x","transformer":{"family":"gpt2","layers":-2,"hidden":64,"heads":4,"ffn":256,"vocab":100,"max_sequence":16}})"
            << "model"
            << "layers";
    }

    void badInputsExitTwo() {
        QFETCH(QString, fileContent);
        QFETCH(QString, flag);
        QFETCH(QString, expect);
        QTemporaryDir dir;
        const QString path = dir.filePath("input.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(fileContent.toUtf8());
        file.close();
        std::vector<std::string> args{"estimate", "--model", "gpt2-xl", "--hardware", "tpuv4-like"};
        args[flag == "model" ? 2 : 4] = path.toStdString();
        const auto r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(!r.err.empty(), "no message on stderr");
        QVERIFY2(QString::fromStdString(r.err).contains(expect, Qt::CaseInsensitive),
                 r.err.c_str());
    }

    void badArgumentsExitTwo() {
        QCOMPARE(run({}).code, 2);
        QCOMPARE(run({"frobnicate"}).code, 2);
        QCOMPARE(run({"estimate", "--model", "no-such-model"}).code, 2);
        QVERIFY(run({"estimate", "--model", "no-such-model"}).err.find("gpt3-175b") !=
                std::string::npos);  // the message lists what is available
        QCOMPARE(run({"estimate", "--model", "gpt2-xl", "--hardware", "nope"}).code, 2);
        QCOMPARE(run({"estimate", "--model", "gpt2-xl", "--tp", "8"}).code, 2);  // 25 heads
        QCOMPARE(run({"estimate", "--model", "gpt2-xl", "--mbs", "0"}).code, 2);
        QCOMPARE(run({"estimate", "--model", "gpt2-xl", "--mbs", "abc"}).code, 2);
        QCOMPARE(run({"estimate", "--model", "gpt2-xl", "--bogus"}).code, 2);
        QCOMPARE(run({"estimate", "--model", "gpt2-xl", "--set", "numTensorCores=0"}).code, 2);
        QCOMPARE(run({"estimate", "--model", "gpt2-xl", "--num-tensor-cores", "0"}).code, 2);
        QCOMPARE(run({"estimate", "--model", QDir::tempPath().toStdString()}).code, 2);
        QCOMPARE(run({"estimate", "--model", "/no/such/file.json"}).code, 2);
        QCOMPARE(run({"estimate", "--model", "gpt2-xl", "--num-tensor-cores", "16"}).code, 0);
    }

    void unknownFlagsListEveryFlag() {
        // The list of valid flags is shown whole, also after a pasted 100,000-character flag.
        for (const std::string& flag : {std::string("--bogus"), "--" + std::string(100000, 'x')}) {
            const auto r = run({"search", "--model", "gpt2-xl", flag});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.size() < 1000, std::to_string(r.err.size()).c_str());
            for (const char* listed :
                 {"--model", "--json", "--csv", "--shard", "--checkpoint", "--quiet", "--help"})
                QVERIFY2(r.err.find(listed) != std::string::npos, r.err.c_str());
        }
        const auto stray = run({"estimate", "gpt2-xl"});
        QCOMPARE(stray.code, 2);
        QVERIFY2(stray.err.find("unexpected argument 'gpt2-xl'") != std::string::npos &&
                     stray.err.find("--model") != std::string::npos,
                 stray.err.c_str());
    }

    void versionIsTheProjectVersion() {
        // One version number: CMake's project version (passed to the tests independently).
        const auto r = run({"--version"});
        QCOMPARE(r.code, 0);
        QCOMPARE(QString::fromStdString(r.out),
                 QStringLiteral("tandem-cli " TANDEM_PROJECT_VERSION "\n"));
        QCOMPARE(run({"--version", "extra"}).code, 2);
        QVERIFY(run({"--help"}).out.find("--version") != std::string::npos);
    }

    void binaryExitCodes() {
        // The real executable, as scripts call it.
        QProcess process;
        process.start(TANDEM_CLI_PATH, {"estimate", "--model", "gpt2-xl", "--summary"});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(process.readAllStandardOutput().contains("Totals"));
        process.start(TANDEM_CLI_PATH, {"estimate", "--model", "nope"});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(!process.readAllStandardError().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
