// Values inside a file's syntax but outside what gives a meaningful answer: a bandwidth of
// 5e-324 B/s, 1e308 cycles per element, a PHAZE latency of 1e308 s, a model or instance that does
// no work. Each was exit 0 with "inf s", "inf samples/s" or a null time beside "fits": true; now
// each is exit 2 naming the file's key, the value and the allowed range. Also the flags that were
// silently ignored or inconsistent: --phaze-instance with other flags, --devices below the
// preset's node size, and messages naming solver knobs a user cannot reach.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <regex>

#include "test_paths.h"
#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {

std::string readAll(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// `text` with the first match of `pattern` replaced, so that each case edits a real file.
std::string edited(const std::string& text, const std::string& pattern,
                   const std::string& replacement) {
    const std::string result = std::regex_replace(text, std::regex(pattern), replacement,
                                                  std::regex_constants::format_first_only);
    if (result == text) qWarning("pattern %s not found", pattern.c_str());
    return result;
}

// JSON written with single quotes, for readability: q("{'a': 1}") is {"a": 1}.
std::string q(std::string text) {
    std::replace(text.begin(), text.end(), '\'', '"');
    return text;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

class TestCliHostileValues : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string write(const std::string& name, const std::string& text) {
        const std::string path = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path) << text;
        return path;
    }

private slots:
    void nearZeroBandwidthIsRefused_data() {
        QTest::addColumn<QString>("key");
        QTest::newRow("hbm") << "hbmBandwidthBytesPerSecond";
        QTest::newRow("intra-node") << "intraNodeBandwidthBytesPerSecond";
        QTest::newRow("inter-node") << "interNodeBandwidthBytesPerSecond";
    }
    void nearZeroBandwidthIsRefused() {
        QFETCH(QString, key);
        const std::string preset =
            readAll(tandem::test::sourceDir() + "/resources/hardware/a100-80gb.json");
        const std::string path =
            write("bw.json", edited(preset, "\"" + key.toStdString() + "\": [0-9.e+]+",
                                    "\"" + key.toStdString() + "\": 5e-324"));
        for (const char* command : {"estimate", "place"}) {
            const auto r = run({command, "--model", "gpt2-xl", "--hardware", path});
            QCOMPARE(r.code, 2);
            QVERIFY2(contains(r.err, key.toStdString()) && contains(r.err, "5e-324") &&
                         contains(r.err, "[1e+06, 1e+15]"),
                     r.err.c_str());
            QVERIFY2(!contains(r.out, "inf"), r.out.c_str());
        }
    }

    void hugeCyclesPerElementAreRefused() {
        const std::string mlp = readAll(tandem::test::testDataDir() + "/models/mlp.json");
        const std::string number = write("cycles.json", edited(mlp, "\"cycles_per_element\": 12",
                                                               "\"cycles_per_element\": 1e308"));
        auto r = run({"estimate", "--model", number});
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, number) && contains(r.err, "cycles_per_element") &&
                     contains(r.err, "1e+308") && contains(r.err, "[0, 1000000]"),
                 r.err.c_str());
        // The same through an expression that only grows too large at the given sizes.
        const std::string expression = write(
            "cycles-expr.json",
            edited(mlp, "\"cycles_per_element\": 12", "\"cycles_per_element\": \"b*s*1000\""));
        QCOMPARE(run({"estimate", "--model", expression}).code, 0);   // 128,000 at b = 1, s = 128
        r = run({"estimate", "--model", expression, "--mbs", "16"});  // 2,048,000
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "cycles_per_element") && contains(r.err, "2048000") &&
                     contains(r.err, "at most 1000000"),
                 r.err.c_str());
    }

    void aModelWithoutWorkIsRefused() {
        const std::string path = write("nowork.json", R"({"format": "tandem-model", "version": 1,
            "name": "nowork", "layers": [{"name": "a", "operators": [
              {"name": "x", "class": "nop"},
              {"name": "y", "class": "vector_core", "elements": 0, "cycles_per_element": 3}]}]})");
        for (const char* command : {"estimate", "schedule", "place", "search"}) {
            const auto r = run({command, "--model", path});
            QCOMPARE(r.code, 2);
            QVERIFY2(contains(r.err, "does no work"), r.err.c_str());
            QVERIFY2(!contains(r.out, "inf"), r.out.c_str());
        }
    }

    void phazeInstanceValuesAreBounded() {
        const std::string instance =
            readAll(tandem::test::testDataDir() +
                    "/reference/phaze-dp-examples/gpt24_t1_norec_sgd_64.in.json");
        QCOMPARE(run({"place", "--phaze-instance", write("ok.json", instance)}).code, 0);
        const std::string slow = write(
            "slow.json",
            edited(instance, "\"optimalLatencyFw\": [0-9.e+-]+", "\"optimalLatencyFw\": 1e308"));
        auto r = run({"place", "--phaze-instance", slow});
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, slow) && contains(r.err, "optimalLatencyFw") &&
                     contains(r.err, "1e+308") && contains(r.err, "[0, 1e+09]"),
                 r.err.c_str());
        // Every latency zero: the instance does no work (it was "inf samples/s", exit 0).
        const std::string idle =
            write("idle.json",
                  std::regex_replace(instance, std::regex("\"optimalLatency(Fw|Bw)\": [0-9.e+-]+"),
                                     "\"optimalLatency$1\": 0"));
        r = run({"place", "--phaze-instance", idle});
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "does no work"), r.err.c_str());
    }

    void phazeInstanceRefusesFlagsItWouldIgnore() {
        const std::string path = tandem::test::testDataDir() +
                                 "/reference/phaze-dp-examples/gpt24_t1_norec_sgd_64.in.json";
        for (const std::vector<std::string>& extra :
             {std::vector<std::string>{"--devices", "8"}, {"--tp", "2"}, {"--mbs", "2"}}) {
            std::vector<std::string> args{"place", "--phaze-instance", path};
            args.insert(args.end(), extra.begin(), extra.end());
            const auto r = run(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(contains(r.err, extra[0] + " cannot be combined with --phaze-instance"),
                     r.err.c_str());
        }
        QCOMPARE(run({"place", "--phaze-instance", path, "--json"}).code, 0);
    }

    void fewerDevicesThanANodeFormOneNode() {
        // a100-like has nodes of 8: two devices are one node of two (refused before), in place
        // as in search; given explicitly, a node larger than the cluster is still an error.
        const auto r = run(
            {"place", "--model", "gpt2-xl", "--hardware", "a100-like", "--devices", "2", "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "\"devices\""), r.out.c_str());
        const auto both = run({"place", "--model", "gpt2-xl", "--hardware", "a100-like",
                               "--devices", "2", "--devices-per-node", "8"});
        QCOMPARE(both.code, 2);
        QVERIFY2(contains(both.err, "devicesPerNode = 8"), both.err.c_str());
        // --devices appears once in the help, with the limit that is enforced.
        const auto help = run({"place", "--help"});
        std::size_t count = 0;
        for (std::size_t at = help.out.find("--devices "); at != std::string::npos;
             at = help.out.find("--devices ", at + 1))
            ++count;
        QCOMPARE(count, std::size_t(1));
        QCOMPARE(run({"place", "--model", "gpt2-xl", "--devices", "1000001"}).code, 2);
    }

    // Inputs at the documented limits answer (a result or a refusal) instead of running for
    // minutes or out of memory. No time is asserted: before, these ran past ctest's timeout.
    void extremeSizesAnswer() {
        // 100,000 chained layers: the reader looked names up linearly (quadratic: 82 s).
        std::string layers, edges;
        const int n = 100000;
        for (int i = 0; i < n; ++i) {
            layers += std::string(i ? "," : "") + q("{'name': 'l") + std::to_string(i) +
                      q("', 'operators': [{'name': 'mm', 'class': 'tensor_core', 'm': 'b*s', 'n': "
                        "64, 'k': 64, 'parameter_bytes': '64*64*e'}]}");
            if (i) {
                edges += std::string(i > 1 ? "," : "") + q("{'from': 'l") + std::to_string(i - 1) +
                         q("', 'to': 'l") + std::to_string(i) + q("'}");
            }
        }
        const std::string chain =
            write("chain.json",
                  q("{'format': 'tandem-model', 'version': 1, 'name': 'chain', 'layers': [") +
                      layers + q("], 'edges': [") + edges + "]}");
        auto r = run({"estimate", "--model", chain, "--summary"});
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "100000 layers") || contains(r.out, "100,000"), r.out.c_str());

        // 20,000 unconnected layers: 2^20000 possible pipeline prefixes (place took > 4.5 GB).
        layers.clear();
        for (int i = 0; i < 20000; ++i) {
            layers += std::string(i ? "," : "") + q("{'name': 'w") + std::to_string(i) +
                      q("', 'operators': [{'name': 'mm', 'class': 'tensor_core', 'm': 'b*s', 'n': "
                        "64, 'k': 64, 'parameter_bytes': '64*64*e'}]}");
        }
        const std::string wide = write(
            "wide.json", q("{'format': 'tandem-model', 'version': 1, 'name': 'wide', 'layers': [") +
                             layers + "]}");
        r = run({"place", "--model", wide});
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "downsets") && contains(r.err, "20000 layers") &&
                     contains(r.err, "Merge parallel branches"),
                 r.err.c_str());

        // A 20,000-node PHAZE chain (no answer after 300 s): every stage range is a candidate.
        std::string nodes;
        edges.clear();
        for (int i = 0; i < 20000; ++i) {
            nodes += std::string(i ? "," : "") + q("{'id': ") + std::to_string(i) +
                     q(", 'parameterSize': 1e6, 'activationSize': 1e6, 'optimalLatencyFw': 0.001, "
                       "'optimalLatencyBw': 0.002, 'isTensorParallelized': false}");
            if (i) {
                edges += std::string(i > 1 ? "," : "") + q("{'sourceId': ") +
                         std::to_string(i - 1) + q(", 'destId': ") + std::to_string(i) +
                         q(", 'communicationCost': 1e6}");
            }
        }
        const std::string phaze =
            write("phaze-chain.json",
                  q("{'maxMemoryPerDevice': 17179869184, 'maxDevices': 64, 'bandwidth': 25e9, "
                    "'mbsInBatch': 512, 'activationRecomputation': false, 'optimizerAlgorithm': "
                    "'SGD', 'fixedPP': 1, 'fixedTMPC': 1, 'fixedDP': 64, 'numTransformerLayers': "
                    "20000, 'nodes': {'1': [") +
                      nodes + q("]}, 'edges': {'1': [") + edges + "]}}");
        r = run({"place", "--phaze-instance", phaze});
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "candidate pipeline stages"), r.err.c_str());

        // A transformer of 100,000 blocks (estimate --json took 3.9 GB): refused with its range.
        const std::string gpt2 =
            readAll(tandem::test::sourceDir() + "/resources/models/gpt2-xl.json");
        const std::string deep =
            write("deep.json", edited(gpt2, "\"layers\": 48", "\"layers\": 100000"));
        r = run({"estimate", "--model", deep, "--json"});
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "layers = 100000") && contains(r.err, "[1, 10000]"),
                 r.err.c_str());
        QCOMPARE(run({"estimate", "--model",
                      write("deep-ok.json", edited(gpt2, "\"layers\": 48", "\"layers\": 10000")),
                      "--summary"})
                     .code,
                 0);
    }

    // An explicit empty list of tensor-parallel widths is refused in both model forms (the
    // transformer form accepted it and fell back to its default widths).
    void emptyWidthListsAreRefused() {
        const std::string gpt2 =
            readAll(tandem::test::sourceDir() + "/resources/models/gpt2-xl.json");
        const std::string mlp = readAll(tandem::test::testDataDir() + "/models/mlp.json");
        const std::string transformer =
            write("widths-t.json", edited(gpt2, "\"tensor_parallel_widths\": \\[[^\\]]*\\]",
                                          "\"tensor_parallel_widths\": []"));
        const std::string graph =
            write("widths-g.json", edited(mlp, "\"tensor_parallel_widths\": \\[1, 2, 4\\]",
                                          "\"tensor_parallel_widths\": []"));
        for (const std::string& path : {transformer, graph}) {
            const auto r = run({"estimate", "--model", path});
            QCOMPARE(r.code, 2);
            QVERIFY2(contains(r.err, path) && contains(r.err, "tensor_parallel_widths") &&
                         contains(r.err, "at least one width"),
                     r.err.c_str());
        }
    }

    void errorsFoundAtBuildNameTheFile() {
        // A Hugging Face config is named after its folder; a refusal found only when the model
        // is built (25 heads cannot be split three ways) must still name the file.
        QVERIFY(QDir(dir_.path()).mkpath("gpt2"));
        const std::string config = write("gpt2/config.json", readAll(tandem::test::testDataDir() +
                                                                     "/importers/hf/gpt2-xl.json"));
        const auto r = run({"estimate", "--model", config, "--tp", "3"});
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, config) && contains(r.err, "not divisible by t = 3"),
                 r.err.c_str());
    }

    void messagesQuoteLongValuesShortly() {
        // A megabyte-long layer name in a message is cut; the file and the rule stay readable.
        const std::string mlp = readAll(tandem::test::testDataDir() + "/models/mlp.json");
        const std::string path =
            write("long-name.json", edited(mlp, "\"same_as\": \"block.0\"",
                                           "\"same_as\": \"" + std::string(1 << 20, 'x') + "\""));
        const auto r = run({"estimate", "--model", path});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.size() < 1200, std::to_string(r.err.size()).c_str());
        QVERIFY2(contains(r.err, path) && contains(r.err, "characters left out") &&
                     contains(r.err, "is not the name of an earlier layer"),
                 r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliHostileValues)
#include "test_cli_hostile_values.moc"
