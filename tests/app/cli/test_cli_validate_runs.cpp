// `tandem-cli validate --runs FILE.csv`: a user's measured runs, with the optional columns, on
// the default hardware, another preset and with --set key=value overrides; bad files and flags
// are exit 2 with a message naming the file and line (or what else was wrong).
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {

const char* const kCsv =
    "# GPUs,global batch,micro batch,hidden size,attention heads,# layers,sequence length,"
    "tensor parallelism,data parallelism,pipeline parallelism,iteration time (ms),recompute,"
    "sequence_parallel,interleave,optimizer,precision,vocab\n"
    "8,32,2,1024,16,24,1024,2,2,2,120.5,selective,true,2,adam,bf16,32000\n"
    "4,16,auto,2048,16,12,1024,1,4,1,300,on,false,1,sgd,fp32,50257\n"
    "2,8,4,1024,16,16,1024,2,1,1,90,off,no,1,adam,2,50257\n";

std::string write(const QTemporaryDir& dir, const char* name, const QByteArray& content) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    file.write(content);
    return path.toStdString();
}

QJsonObject firstSet(const std::string& out) {
    return parseObject(out).value("sets").toArray().first().toObject();
}

// `validate --runs PATH --hardware H --json`: the file's set (the run must succeed).
QJsonObject setOfFile(const std::string& path, const std::string& hardware) {
    const auto r = run({"validate", "--runs", path, "--hardware", hardware, "--json", "--quiet"});
    if (r.code != 0) qFatal("%s", r.err.c_str());
    return firstSet(r.out);
}

}  // namespace

class TestCliValidateRuns : public QObject {
    Q_OBJECT

private slots:
    void userFileWithOptionalColumns() {
        QTemporaryDir dir;
        const std::string path = write(dir, "mine.csv", kCsv);
        const auto r = run({"validate", "--runs", path, "--json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject set = firstSet(r.out);
        QCOMPARE(set.value("name").toString(), QString("mine.csv"));
        QCOMPARE(set.value("hardware").toString(), QString("a100-like"));
        const QJsonArray runs = set.value("runs").toArray();
        QCOMPARE(runs.size(), 3);
        const QJsonObject a = runs.at(0).toObject(), b = runs.at(1).toObject(),
                          c = runs.at(2).toObject();
        QCOMPARE(a.value("name").toString(), QString("line 2"));
        QCOMPARE(a.value("recompute").toString(), QString("selective"));
        QVERIFY(a.value("sequence_parallel").toBool());
        QCOMPARE(a.value("interleave").toInt(), 2);
        QCOMPARE(a.value("bytes_per_element").toInt(), 2);
        QCOMPARE(a.value("padded_vocab").toInt(), 32000);
        QVERIFY(a.value("microbatch_given").toBool());
        QCOMPARE(b.value("optimizer").toString(), QString("sgd"));
        QCOMPARE(b.value("bytes_per_element").toInt(), 4);
        QVERIFY(!b.value("microbatch_given").toBool());
        QCOMPARE(b.value("padded_vocab").toInt(), 50304);  // 50,257 padded to 128·1
        QCOMPARE(c.value("recompute").toString(), QString("off"));
        QCOMPARE(c.value("padded_vocab").toInt(), 50432);  // to 128·2
        for (const auto& value : runs) {
            const QJsonObject o = value.toObject();
            QVERIFY2(o.value("fits").toBool(), qPrintable(o.value("name").toString()));
            QVERIFY(o.value("predicted_s").toDouble() > 0);
            QVERIFY(!o.contains("predicted_tflops_per_gpu"));
        }
        QCOMPARE(b.value("measured_s").toDouble(), 0.3);
        QCOMPARE(a.value("microbatch").toInt(), 2);
        const int chosen = b.value("microbatch").toInt();
        QVERIFY(chosen == 1 || chosen == 2 || chosen == 4);  // per replica: 16 / 4
        const QJsonObject s = set.value("summary").toObject();
        QCOMPARE(s.value("runs").toInt(), 3);
        QVERIFY(s.value("groups").toArray().isEmpty());  // no model on one GPU count 3 times
        QVERIFY(s.value("mean_spearman").isNull());

        // Text output names the file's runs by line.
        const auto text = run({"validate", "--runs", path});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.find("Measured runs 'mine.csv' on a100-like (3 runs") !=
                std::string::npos);
        QVERIFY(text.out.find("line 4") != std::string::npos);
    }

    void hardwareAndOverrides() {
        QTemporaryDir dir;
        const std::string path = write(dir, "mine.csv", kCsv);
        const auto base = run({"validate", "--runs", path, "--json"});
        const auto slow = run({"validate", "--runs", path, "--json", "--set",
                               "tensorCoreEfficiency=0.4", "--threads", "1"});
        QVERIFY2(slow.code == 0, slow.err.c_str());
        const QJsonArray a = firstSet(base.out).value("runs").toArray();
        const QJsonArray b = firstSet(slow.out).value("runs").toArray();
        for (int i = 0; i < a.size(); ++i)
            QVERIFY(b.at(i)["predicted_s"].toDouble() > a.at(i)["predicted_s"].toDouble());
        // A bundled set on another preset, with a set name and an override in --set.
        const auto tpu = run({"validate", "--set", "megatron-a100", "--hardware", "tpuv4-like",
                              "--set", "hbmCapacityBytes=80GiB", "--json"});
        QVERIFY2(tpu.code == 0, tpu.err.c_str());
        QCOMPARE(firstSet(tpu.out).value("hardware").toString(), QString("tpuv4-like"));
    }

    // Without a precision column a run takes the hardware's own (bf16 on a100-like: its
    // gradients reduced in fp32, so a data-parallel run differs from the same run in fp16).
    void precisionDefaultsToTheHardwares() {
        const QByteArray header =
            "gpus,global batch,micro batch,hidden size,attention heads,layers,sequence length,"
            "tensor parallelism,data parallelism,pipeline parallelism,iteration time (ms)";
        const QByteArray row = "8,64,2,2048,16,24,1024,1,8,1,500";
        QTemporaryDir dir;
        auto predicted = [&](const char* file, const QByteArray& content) {
            return setOfFile(write(dir, file, content), "a100-like")
                .value("runs")
                .toArray()
                .first()["predicted_s"]
                .toDouble();
        };
        const double none = predicted("none.csv", header + "\n" + row + "\n");
        const double bf16 = predicted("bf16.csv", header + ",precision\n" + row + ",bf16\n");
        const double fp16 = predicted("fp16.csv", header + ",precision\n" + row + ",fp16\n");
        QCOMPARE(none, bf16);
        QVERIFY(fp16 < bf16);
    }

    // The cross-check files docs/cost-model.md cites (MosaicML's MPT runs on 8 A100s and on 8
    // H100s) stay readable and fully predicted with the commands the docs give, with every
    // column read as written: ZeRO 3 over 8 replicas, fused attention, MPT's vocabulary, the
    // published checkpointing, and iteration times that are the published tokens per second
    // per GPU turned into seconds.
    void documentedCrossCheckFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<int>("runs");
        QTest::addColumn<QString>("firstRun");
        QTest::addColumn<double>("firstTokensPerGpuSecond");
        QTest::newRow("a100") << "mosaicml-mpt-a100-80gb"
                              << "a100-80gb"
                              << "bf16" << 46 << "mpt-30b seq 8192" << 574.0;
        QTest::newRow("h100") << "mosaicml-mpt-h100-80gb"
                              << "h100-80gb"
                              << "bf16" << 37 << "mpt-30b seq 8192" << 1384.0;
        QTest::newRow("h100 fp8") << "mosaicml-mpt-h100-80gb-fp8"
                                  << "h100-80gb"
                                  << "fp8" << 10 << "mpt-3b seq 32768" << 5856.0;
    }

    void documentedCrossCheckFiles() {
        QFETCH(QString, file);
        QFETCH(QString, hardware);
        QFETCH(QString, precision);
        QFETCH(int, runs);
        QFETCH(QString, firstRun);
        QFETCH(double, firstTokensPerGpuSecond);
        const std::string path =
            std::string(TANDEM_SOURCE_DIR) + "/docs/data/" + file.toStdString() + ".csv";
        const QJsonObject set = setOfFile(path, hardware.toStdString());
        QCOMPARE(set.value("hardware").toString(), hardware);
        const QJsonArray list = set.value("runs").toArray();
        QCOMPARE(list.size(), runs);
        for (const auto& value : list) {
            const QJsonObject o = value.toObject();
            const QByteArray name = o.value("name").toString().toUtf8();
            QVERIFY2(o.value("fits").toBool(), name.constData());
            QVERIFY(o.value("microbatch_given").toBool());
            QCOMPARE(o.value("zero").toInt(), 3);
            QCOMPARE(o.value("data").toInt(), 8);
            QVERIFY(o.value("flash_attention").toBool());
            QCOMPARE(o.value("padded_vocab").toInt(), 50368);
            QVERIFY(o.value("predicted_s").toDouble() > 0);
        }
        if (precision == "fp8") {  // the precision column is read: the same runs in bf16 are slower
            QFile in(QString::fromStdString(path));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QByteArray bf16 = in.readAll();
            QVERIFY(bf16.contains(",fp8,"));
            bf16.replace(",fp8,", ",bf16,");
            QTemporaryDir dir;
            const QJsonArray other = setOfFile(write(dir, "bf16.csv", bf16), hardware.toStdString())
                                         .value("runs")
                                         .toArray();
            QCOMPARE(other.size(), runs);
            for (int i = 0; i < runs; ++i)
                QVERIFY(list.at(i)["predicted_s"].toDouble() <
                        other.at(i)["predicted_s"].toDouble());
        }
        const QJsonObject first = list.first().toObject();
        QCOMPARE(first.value("name").toString(), firstRun);
        QCOMPARE(first.value("recompute").toString(), QString("on"));
        const double tokens =
            first.value("global_batch").toDouble() * first.value("sequence").toDouble();
        QVERIFY(std::abs(first.value("measured_s").toDouble() -
                         tokens / (firstTokensPerGpuSecond * 8)) < 1e-3);
    }

    void badFiles_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        const QByteArray header =
            "gpus,global batch,micro batch,hidden size,attention heads,layers,sequence length,"
            "tensor parallelism,data parallelism,pipeline parallelism,iteration time (ms)\n";
        QTest::newRow("empty") << QByteArray() << "bad.csv: the file is empty";
        QTest::newRow("non-numeric cell")
            << header + "8,32,4,1024,16,24,1024,2,2,2,1\n8,32,4,1O24,16,24,1024,2,2,2,1\n"
            << "bad.csv: line 3, column 4 (hidden size): \"1O24\" is not an integer";
        QTest::newRow("t·p·d ≠ GPUs") << header + "8,32,4,1024,16,24,1024,2,2,1,1\n"
                                      << "bad.csv: line 2: t·p·d = 2·1·2 = 4 but the run has 8";
        QTest::newRow("missing column") << QByteArray("gpus,hidden size\n8,1024\n")
                                        << "bad.csv: line 1: the header has no column";
        QTest::newRow("binary") << QByteArray(
                                       "\x7f"
                                       "ELF\x02\x01\x01\0\0\0",
                                       10)
                                << "bad.csv: line 1: holds a NUL byte";
    }

    void badFiles() {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = write(dir, "bad.csv", content);
        const auto r = run({"validate", "--runs", path});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY(r.out.empty());
    }

    void badArguments() {
        QTemporaryDir dir;
        const auto folder = run({"validate", "--runs", dir.path().toStdString()});
        QCOMPARE(folder.code, 2);
        QVERIFY2(folder.err.find("it is a directory") != std::string::npos, folder.err.c_str());
        const auto missing = run({"validate", "--runs", dir.filePath("none.csv").toStdString()});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.find("none.csv: no such file") != std::string::npos,
                 missing.err.c_str());
        const auto unknown = run({"validate", "--set", "nosuch"});
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.find("megatron-a100, single-node-a100") != std::string::npos,
                 unknown.err.c_str());
        const std::string path = write(dir, "mine.csv", kCsv);
        const auto both = run({"validate", "--set", "megatron-a100", "--runs", path});
        QCOMPARE(both.code, 2);
        QVERIFY2(both.err.find("not both") != std::string::npos, both.err.c_str());
        const auto override = run({"validate", "--runs", path, "--set", "noSuchKey=1"});
        QCOMPARE(override.code, 2);
        QVERIFY2(override.err.find("noSuchKey") != std::string::npos, override.err.c_str());
        const auto hardware = run({"validate", "--runs", path, "--hardware", "nosuch-chip"});
        QCOMPARE(hardware.code, 2);
        const auto tight = run({"validate", "--runs", path, "--set", "hbmCapacityBytes=1GiB"});
        QCOMPARE(tight.code, 0);  // runs that do not fit are reported, not refused
    }
};

QTEST_GUILESS_MAIN(TestCliValidateRuns)
#include "test_cli_validate_runs.moc"
