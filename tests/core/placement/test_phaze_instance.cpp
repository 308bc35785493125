// PHAZE instance files: both published examples must reproduce PHAZE's finalTimePerBatch and
// fixedStrategyTimePerBatch (relative 1e-9; in fact bit for bit) and its reported plan (d, t,
// stages with their node ids and devices); the output JSON has PHAZE's keys in alphabetical
// order with a 4-space indent; bad files (missing keys, wrong types, out-of-range values,
// duplicate ids, cycles, ...) are errors naming the key, not crashes; a fixed width that is not in
// the file and an instance with no feasible plan are results, not errors.
#include <sys/stat.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "core/placement/phaze_cost_model.h"
#include "core/placement/phaze_instance.h"
#include "core/placement/width_graph.h"
#include "test_paths.h"

using namespace tandem::core::placement;

namespace {

QString examplePath(const QString& name) {
    return QString::fromStdString(tandem::test::testDataDir()) + "/reference/phaze-dp-examples/" +
           name;
}

QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

std::string text(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString();
}

// Parses a modified copy of the first example; returns the error message ("" when it parsed).
std::string parseError(const QJsonObject& object) {
    const auto parsed = parsePhazeInstance(text(object), "edited.json");
    return parsed.ok() ? std::string() : parsed.message();
}

QJsonObject firstNode(const QJsonObject& root, const QString& width, int index) {
    return root["nodes"].toObject()[width].toArray()[index].toObject();
}

QJsonObject withNode(QJsonObject root, const QString& width, int index, const QJsonObject& node) {
    QJsonObject nodes = root["nodes"].toObject();
    QJsonArray list = nodes[width].toArray();
    list[index] = node;
    nodes[width] = list;
    root["nodes"] = nodes;
    return root;
}

QJsonObject withEdge(QJsonObject root, const QString& width, const QJsonObject& edge) {
    QJsonObject edges = root["edges"].toObject();
    QJsonArray list = edges[width].toArray();
    list.append(edge);
    edges[width] = list;
    root["edges"] = edges;
    return root;
}

}  // namespace

class TestPhazeInstance : public QObject {
    Q_OBJECT

private slots:
    void examplesReproducePhaze_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("gpt24 t1 norec sgd") << "gpt24_t1_norec_sgd_64";
        QTest::newRow("gpt48 t4,8 rec adam") << "gpt48_t48_rec_adam_64";
    }
    void examplesReproducePhaze() {
        QFETCH(QString, name);
        const auto instance = loadPhazeInstance(examplePath(name + ".in.json").toStdString());
        QVERIFY2(instance.ok(), instance.ok() ? "" : instance.message().c_str());
        const auto output = solvePhazeInstance(*instance);
        QVERIFY2(output.ok(), output.ok() ? "" : output.message().c_str());
        const QJsonObject expected = readJson(examplePath(name + ".out.json"));
        QVERIFY(!expected.isEmpty());
        const QJsonObject got = QJsonDocument::fromJson(QByteArray::fromStdString(
                                                            formatPhazeOutput(*instance, *output)))
                                    .object();

        const double final = got["finalTimePerBatch"].toDouble();
        const double fixed = got["fixedStrategyTimePerBatch"].toDouble();
        const double wantFinal = expected["finalTimePerBatch"].toDouble();
        const double wantFixed = expected["fixedStrategyTimePerBatch"].toDouble();
        qInfo("%s: finalTimePerBatch %.17g (PHAZE %.17g), fixed %.17g (PHAZE %.17g), solve %.3f ms",
              qPrintable(name), final, wantFinal, fixed, wantFixed, output->solveSeconds * 1e3);
        QVERIFY(std::fabs(final - wantFinal) <= 1e-9 * wantFinal);
        QVERIFY(std::fabs(fixed - wantFixed) <= 1e-9 * wantFixed);
        QVERIFY(final == wantFinal);  // bit for bit (QCOMPARE on doubles is fuzzy)
        QVERIFY(fixed == wantFixed);
        QCOMPARE(got["dataParallelDegree"].toInt(), expected["dataParallelDegree"].toInt());
        QCOMPARE(got["tensorParallelDegree"].toInt(), expected["tensorParallelDegree"].toInt());
        QCOMPARE(got["stages"].toArray(), expected["stages"].toArray());
        QVERIFY(got.contains("solve_seconds"));
    }

    void outputFormatIsPhazes() {
        const auto instance =
            loadPhazeInstance(examplePath("gpt24_t1_norec_sgd_64.in.json").toStdString());
        QVERIFY(instance.ok());
        const auto output = solvePhazeInstance(*instance);
        QVERIFY(output.ok());
        const QString out = QString::fromStdString(formatPhazeOutput(*instance, *output));
        const QStringList keys = {"\"dataParallelDegree\"",
                                  "\"finalTimePerBatch\"",
                                  "\"fixedStrategyTimePerBatch\"",
                                  "\"solve_seconds\"",
                                  "\"stages\"",
                                  "\"tensorParallelDegree\""};
        int last = -1;
        for (const QString& key : keys) {  // alphabetical, at the first indent level
            const int at = out.indexOf("\n    " + key);
            QVERIFY2(at > last, qPrintable(key));
            last = at;
        }
        QVERIFY(out.contains("\n            \"devicesForStage\": 1"));  // 4-space steps
        QVERIFY(out.contains("\"finalTimePerBatch\": 2174.9624338,"));
    }

    void badFilesAreErrors() {
        const QJsonObject good = readJson(examplePath("gpt24_t1_norec_sgd_64.in.json"));
        QVERIFY(parseError(good).empty());
        const auto expectError = [&](const QJsonObject& bad, const char* mention) {
            const std::string message = parseError(bad);
            QVERIFY2(!message.empty(), mention);
            QVERIFY2(message.find(mention) != std::string::npos, message.c_str());
        };
        for (const char* key : {"maxMemoryPerDevice", "maxDevices", "bandwidth", "mbsInBatch",
                                "nodes", "edges", "activationRecomputation", "optimizerAlgorithm",
                                "fixedPP", "fixedTMPC", "fixedDP", "numTransformerLayers"}) {
            QJsonObject bad = good;
            bad.remove(key);
            expectError(bad, key);
        }
        QJsonObject bad = good;
        bad["maxDevices"] = 0;
        expectError(bad, "maxDevices");
        bad = good;
        bad["maxDevices"] = 10001;
        expectError(bad, "1..10000");
        bad = good;
        bad["maxDevices"] = "64";
        expectError(bad, "expected an integer");
        bad = good;
        bad["bandwidth"] = 0;
        expectError(bad, "bandwidth");
        bad = good;
        bad["mbsInBatch"] = 2.5;
        expectError(bad, "mbsInBatch");
        bad = good;
        bad["optimizerAlgorithm"] = "Adagrad";
        expectError(bad, "optimizerAlgorithm");
        bad = good;
        bad["activationRecomputation"] = 1;
        expectError(bad, "activationRecomputation");

        QJsonObject node = firstNode(good, "1", 3);
        node["parameterSize"] = -1;
        expectError(withNode(good, "1", 3, node), "parameterSize");
        node = firstNode(good, "1", 3);
        node["optimalLatencyFw"] = "fast";
        expectError(withNode(good, "1", 3, node), "optimalLatencyFw");
        node = firstNode(good, "1", 3);
        node.remove("activationSize");
        expectError(withNode(good, "1", 3, node), "activationSize");
        node = firstNode(good, "1", 3);
        node["isTensorParallelized"] = true;
        expectError(withNode(good, "1", 3, node), "isTensorParallelized");
        node = firstNode(good, "1", 3);
        node["id"] = 5;
        expectError(withNode(good, "1", 3, node), "duplicate node id 5");

        expectError(withEdge(good, "1", {{"sourceId", 7}, {"destId", 2}, {"communicationCost", 1}}),
                    "cycle");
        expectError(withEdge(good, "1", {{"sourceId", 2}, {"destId", 2}, {"communicationCost", 1}}),
                    "self-loop");
        expectError(withEdge(good, "1", {{"sourceId", 2}, {"destId", 3}, {"communicationCost", 1}}),
                    "parallel edge");
        expectError(
            withEdge(good, "1", {{"sourceId", 2}, {"destId", 99}, {"communicationCost", 1}}),
            "unknown node id 99");
        expectError(
            withEdge(good, "1", {{"sourceId", 2}, {"destId", 9}, {"communicationCost", -3}}),
            "communicationCost");

        bad = good;
        QJsonObject nodes = bad["nodes"].toObject();
        nodes["two"] = nodes["1"];
        bad["nodes"] = nodes;
        expectError(bad, "\"two\"");
        bad = good;
        nodes = bad["nodes"].toObject();
        nodes["2"] = nodes["1"];  // a width without edges
        bad["nodes"] = nodes;
        expectError(bad, "edges[\"2\"]");

        const auto notJson = parsePhazeInstance("{\"maxDevices\": ", "broken.json");
        QVERIFY(!notJson.ok());
        QVERIFY(notJson.message().find("broken.json: invalid JSON") != std::string::npos);
        const auto missing = loadPhazeInstance("/nonexistent/instance.json");
        QVERIFY(!missing.ok());
        QVERIFY(missing.message().find("no such file") != std::string::npos);
        // Special and huge files are refused before anything is read: no hang on a FIFO, no
        // unbounded read of /dev/zero or a sparse file, a directory named as one.
        for (const auto& [path, reason] :
             {std::pair<std::string, std::string>{"/dev/zero", "not a regular file"},
              {"/tmp", "directory"},
              {"", "no file name"}}) {
            const auto special = loadPhazeInstance(path);
            QVERIFY(!special.ok());
            QVERIFY2(special.message().find(reason) != std::string::npos,
                     special.message().c_str());
        }
        QTemporaryDir dir;
        const QByteArray fifo = dir.filePath("fifo").toLocal8Bit();
        QCOMPARE(::mkfifo(fifo.constData(), 0600), 0);
        QVERIFY(loadPhazeInstance(fifo.toStdString()).message().find("not a regular file") !=
                std::string::npos);
        const QString sparse = dir.filePath("sparse.json");
        {
            QFile f(sparse);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(10) << 30));  // 10 GiB, no blocks allocated
        }
        QVERIFY(loadPhazeInstance(sparse.toStdString()).message().find("more than the limit") !=
                std::string::npos);
    }

    void fixedWidthMissingIsNotAnError() {
        QJsonObject root = readJson(examplePath("gpt24_t1_norec_sgd_64.in.json"));
        root["fixedTMPC"] = 8;  // PHAZE aborts with exit 134 here
        const auto instance = parsePhazeInstance(text(root), "t8.json");
        QVERIFY(instance.ok());
        const auto output = solvePhazeInstance(*instance);
        QVERIFY(output.ok());
        QVERIFY(!output->fixed.fits);
        QVERIFY(output->fixed.reason.find("t = 8") != std::string::npos);
        const QJsonObject got = QJsonDocument::fromJson(QByteArray::fromStdString(
                                                            formatPhazeOutput(*instance, *output)))
                                    .object();
        QVERIFY(got["fixedStrategyTimePerBatch"].isNull());
        QVERIFY(got.contains("fixedStrategyError"));
        QVERIFY(got["finalTimePerBatch"].toDouble() == 2174.9624338);  // the DP answer survives
    }

    void infeasibleInstanceGivesEmptyStages() {
        QJsonObject root = readJson(examplePath("gpt24_t1_norec_sgd_64.in.json"));
        root["maxMemoryPerDevice"] = 1.0e6;  // not even one layer fits
        const auto instance = parsePhazeInstance(text(root), "tiny.json");
        QVERIFY(instance.ok());
        const auto output = solvePhazeInstance(*instance);
        QVERIFY(output.ok());
        QVERIFY(!output->placement.plan);
        const QJsonObject got = QJsonDocument::fromJson(QByteArray::fromStdString(
                                                            formatPhazeOutput(*instance, *output)))
                                    .object();
        QVERIFY(got["stages"].toArray().isEmpty());
        QVERIFY(got["finalTimePerBatch"].isNull());
        QVERIFY(got["infeasibleReason"].toString().contains("alone needs"));
    }

    // Beyond PhazeCostModel::kExactOrderLayers a chain's backward sums are kept running instead
    // of re-summed from each stage's end (cubic: a 20,000-layer chain took minutes). Both
    // orders give the same stage costs up to rounding, on every range of a random chain.
    void longChainsSumIncrementally() {
        using namespace tandem::core::placement;
        PlacementProblem pb;
        LayerCostSet set;
        set.tensorParallel = 1;
        std::uint64_t state = 7;
        const auto draw = [&state] {  // SplitMix64
            std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            return double((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
        };
        const int n = 300;
        for (int v = 0; v < n; ++v) {
            LayerCost l;
            l.name = "L" + std::to_string(v);
            l.forwardSeconds = 1e-3 * draw();
            l.backwardSeconds = 2e-3 * draw();
            l.parameterBytes = 1e6 * draw();
            l.activationBytes = 1e6 * draw();
            set.layers.push_back(l);
            if (v > 0) set.edges.push_back({v - 1, v, 1e5 * draw()});
        }
        pb.widths.push_back(set);
        pb.cluster.devices = 8;
        pb.cluster.devicesPerNode = 8;
        pb.cluster.intraNodeBandwidthBytesPerSecond = 1e9;
        pb.cluster.interNodeBandwidthBytesPerSecond = 1e9;
        pb.hbmCapacityBytes = 1e12;
        QVERIFY(pb.validate().ok());
        const WidthGraph graph(set, WidthGraph::topologicalOrder(set));
        const PhazeCostModel exact(pb), running(pb, 0);
        const auto close = [](double a, double b) {
            return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
        };
        int compared = 0, differentBits = 0;
        for (int first : {0, 1, 150, n - 1}) {
            std::vector<StageCost> a, b;
            exact.evaluateRanges(graph, first, graph.size() - 1, false, a);
            running.evaluateRanges(graph, first, graph.size() - 1, false, b);
            QCOMPARE(a.size(), std::size_t(n - first));
            QCOMPARE(b.size(), a.size());
            for (std::size_t k = 0; k < a.size(); ++k, ++compared) {
                QVERIFY(close(a[k].forwardSeconds, b[k].forwardSeconds));
                QVERIFY2(close(a[k].backwardSeconds, b[k].backwardSeconds),
                         qPrintable(QString("first %1, range %2: %3 vs %4")
                                        .arg(first)
                                        .arg(k)
                                        .arg(a[k].backwardSeconds, 0, 'g', 17)
                                        .arg(b[k].backwardSeconds, 0, 'g', 17)));
                QVERIFY(close(a[k].backwardRecomputeSeconds, b[k].backwardRecomputeSeconds));
                QVERIFY(close(a[k].loadSeconds, b[k].loadSeconds));
                QCOMPARE(a[k].maxInFlight, b[k].maxInFlight);
                differentBits += a[k].backwardSeconds != b[k].backwardSeconds;
            }
        }
        QCOMPARE(compared, n + (n - 1) + (n - 150) + 1);
        QVERIFY(differentBits > 0);  // the two orders really are different computations
    }
};

QTEST_GUILESS_MAIN(TestPhazeInstance)
#include "test_phaze_instance.moc"
