// `tandem-cli schedule` and `tandem-cli place` as scripts use them: JSON keys,
// the Chrome trace (one complete event per operator), PHAZE's two example instances reproduced
// to 1e-9, the fixed baseline, and bad input exiting with code 2.
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <cmath>

#include "test_paths.h"
#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {
QString examples() {
    return QString::fromStdString(tandem::test::testDataDir() + "/reference/phaze-dp-examples/");
}

QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString writeTemp(QTemporaryDir& dir, const QString& name, const QByteArray& content) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly)) file.write(content);
    return path;
}
}  // namespace

class TestCliPipeline : public QObject {
    Q_OBJECT

private slots:
    void scheduleJsonAndTrace() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("llama.trace.json");
        const auto r = run({"schedule", "--model", "llama2-7b", "--hardware", "tpuv4-like",
                            "--json", "--trace", trace.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject root = parseObject(r.out);
        const QJsonArray layers = root["layers"].toArray();
        QCOMPARE(layers.size(), 34);  // embedding, 32 blocks, head
        int operators = 0;
        for (const auto& value : layers) {
            for (const char* direction : {"forward", "backward"}) {
                const QJsonObject s = value.toObject()[direction].toObject();
                for (const char* key : {"makespan_s", "lower_bound_s", "status", "operators"})
                    QVERIFY2(s.contains(key), key);
                QCOMPARE(s["status"].toString(), QString("optimal"));
                QVERIFY(s["lower_bound_s"].toDouble() <= s["makespan_s"].toDouble() * (1 + 1e-9));
                double end = 0;
                for (const auto& opValue : s["operators"].toArray()) {
                    const QJsonObject op = opValue.toObject();
                    for (const char* key :
                         {"name", "class", "start_s", "duration_s", "mode", "lanes"})
                        QVERIFY2(op.contains(key), key);
                    end = std::max(end, op["start_s"].toDouble() + op["duration_s"].toDouble());
                    ++operators;
                }
                QVERIFY(std::fabs(end - s["makespan_s"].toDouble()) <= 1e-9 * end);
            }
        }
        const QJsonObject traceRoot = readJson(trace);
        int complete = 0;
        for (const auto& event : traceRoot["traceEvents"].toArray()) {
            const QJsonObject e = event.toObject();
            if (e["ph"].toString() != "X") continue;
            ++complete;
            QVERIFY(e.contains("ts") && e.contains("dur") && e.contains("pid") &&
                    e.contains("tid"));
            QVERIFY(e["args"].toObject().contains("flops"));
        }
        QCOMPARE(complete, operators);
    }

    void scheduleOneLayerAndBadLayer() {
        const auto r = run({"schedule", "--model", "gpt2-xl", "--layer", "layer.3"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(r.out.find("layer.3 forward") != std::string::npos);
        QCOMPARE(run({"schedule", "--model", "gpt2-xl", "--layer", "layer.99"}).code, 2);
        QCOMPARE(run({"schedule", "--model", "gpt2-xl", "--formulation", "magic"}).code, 2);
    }

    void phazeExamplesReproduce_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("gpt24") << "gpt24_t1_norec_sgd_64";
        QTest::newRow("gpt48") << "gpt48_t48_rec_adam_64";
    }

    void phazeExamplesReproduce() {
        QFETCH(QString, name);
        const auto r = run({"place", "--phaze-instance",
                            (examples() + name + ".in.json").toStdString(), "--json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject ours = parseObject(r.out);
        const QJsonObject phaze = readJson(examples() + name + ".out.json");
        for (const char* key : {"finalTimePerBatch", "fixedStrategyTimePerBatch"}) {
            const double a = ours[key].toDouble();
            const double b = phaze[key].toDouble();
            QVERIFY2(std::fabs(a - b) <= 1e-9 * std::fabs(b),
                     qPrintable(QString("%1: %2 vs %3").arg(key).arg(a).arg(b)));
        }
        QCOMPARE(ours["dataParallelDegree"].toInt(), phaze["dataParallelDegree"].toInt());
        QCOMPARE(ours["tensorParallelDegree"].toInt(), phaze["tensorParallelDegree"].toInt());
        QCOMPARE(ours["stages"].toArray(), phaze["stages"].toArray());
        QVERIFY(ours.contains("solve_seconds"));
    }

    void placeModelJson() {
        const auto r = run({"place", "--model", "gpt2-xl", "--hardware", "tpuv4-like", "--devices",
                            "64", "--recompute", "on", "--optimizer", "adam", "--json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject root = parseObject(r.out);
        for (const char* key :
             {"throughput_samples_per_s", "time_per_batch_s", "tensor_parallel", "data_parallel",
              "microbatch", "recompute", "bubble_fraction", "stages", "baseline"})
            QVERIFY2(root.contains(key), key);
        const double throughput = root["throughput_samples_per_s"].toDouble();
        QVERIFY(throughput > 0);
        QVERIFY(std::fabs(throughput * root["time_per_batch_s"].toDouble() - 4096) < 1e-6 * 4096);
        int devices = 0;
        for (const auto& stageValue : root["stages"].toArray()) {
            const QJsonObject stage = stageValue.toObject();
            const QJsonObject memory = stage["memory"].toObject();
            for (const char* key :
                 {"weights", "gradients", "optimizer", "activations", "stash", "total", "capacity"})
                QVERIFY2(memory.contains(key), key);
            QVERIFY(memory["total"].toDouble() <= memory["capacity"].toDouble());
            devices += stage["devices"].toInt();
        }
        QVERIFY(devices * root["data_parallel"].toInt() <= 64);
        const QJsonObject baseline = root["baseline"].toObject();
        QVERIFY(baseline.contains("fits"));
        if (baseline["fits"].toBool()) {
            // The solver's optimum can never be slower than a strategy it could have chosen.
            QVERIFY(throughput >= baseline["throughput_samples_per_s"].toDouble() * (1 - 1e-12));
        }
    }

    void placeBadInput() {
        QTemporaryDir dir;
        const QByteArray good = [] {
            QFile f(examples() + "gpt24_t1_norec_sgd_64.in.json");
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QVERIFY(!good.isEmpty());
        QJsonObject missing = QJsonDocument::fromJson(good).object();
        missing.remove("maxDevices");
        QJsonObject wrongType = QJsonDocument::fromJson(good).object();
        wrongType["maxDevices"] = "sixty-four";
        QJsonObject zero = QJsonDocument::fromJson(good).object();
        zero["maxDevices"] = 0;
        for (const QByteArray& content :
             {QByteArray(), QByteArray("[]"), QByteArray("{\"nodes\": 3}"),
              QJsonDocument(missing).toJson(), QJsonDocument(wrongType).toJson(),
              QJsonDocument(zero).toJson()}) {
            const QString path = writeTemp(dir, "bad.json", content);
            const auto r = run({"place", "--phaze-instance", path.toStdString(), "--json"});
            QVERIFY2(r.code == 2,
                     qPrintable("exit " + QString::number(r.code) + " for " + content.left(80)));
            QVERIFY(!r.err.empty());
        }
        QCOMPARE(run({"place", "--model", "gpt2-xl", "--devices", "0"}).code, 2);
        QCOMPARE(run({"place", "--model", "gpt2-xl", "--seq", "0"}).code, 2);  // as estimate
        QCOMPARE(run({"place", "--model", "gpt2-xl", "--recompute", "sometimes"}).code, 2);
        QCOMPARE(run({"place", "--model", "gpt2-xl", "--hbm-gib", "-3"}).code, 2);
        QCOMPARE(run({"place", "--model", "gpt2-xl", "--tp", "8"}).code, 2);  // 25 heads
        QCOMPARE(run({"place", "--phaze-instance", "/no/such/file.json"}).code, 2);
        // A layer graph with a cycle is refused when the model file is read.
        const QString cyclic = writeTemp(dir, "cyclic.json", R"({"format": "tandem-model",
            "version": 1, "name": "loop", "layers": [
              {"name": "a", "operators": [{"name": "x", "class": "vector_core", "elements": 8,
                                           "cycles_per_element": 1}]},
              {"name": "b", "same_as": "a"}],
            "edges": [{"from": "a", "to": "b", "bytes": 8}, {"from": "b", "to": "a", "bytes": 8}]})");
        const auto r = run({"place", "--model", cyclic.toStdString()});
        QCOMPARE(r.code, 2);
        QVERIFY(!r.err.empty());
    }
};

QTEST_GUILESS_MAIN(TestCliPipeline)
#include "test_cli_pipeline.moc"
