// ONNX inputs at the edges: files beyond protobuf's 2 GB limit, malformed files, attribute values
// the ONNX library would crash on, symbolic dimensions that cannot be bound, and the grouping of
// node names into layers. Every failure must be an error value that names the problem.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

#include "core/importers/model_loader.h"
#include "core/importers/onnx_layer_grouper.h"
#include "core/importers/onnx_wire_reader.h"
#include "importer_test_helpers.h"
#include "onnx_test_support.h"
#include "test_paths.h"

using namespace tandem::core;
using namespace tandem::core::importers;
namespace pb = onnx_test;

using importer_test::contains;
using importer_test::gemm;
using importer_test::onnxPath;
using importer_test::options;

class TestImportersOnnxInputs : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string write(const std::string& name, const std::string& content) {
        const std::string path = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void filesBeyondTwoGigabytes() {
        // One MatMul with a 2.5 GiB weight, written as a sparse file: the reader must seek over it.
        const std::int64_t K = 32768, N = 20480, raw = K * N * 4;
        QVERIFY(raw > (std::int64_t(1) << 31));
        const std::string nodeField =
            pb::bytes(1, pb::node({"x", "W"}, {"y"}, "/fc/MatMul", "MatMul"));
        const std::string tensorHead = pb::integer(1, K) + pb::integer(1, N) + pb::integer(2, 1) +
                                       pb::bytes(8, "W") + pb::tag(9, 2) + pb::varint(raw);
        const std::string initHead =
            pb::tag(5, 2) + pb::varint(tensorHead.size() + raw) + tensorHead;
        const std::string tail =
            pb::bytes(11, pb::valueInfo("x", pb::kFloat, {{0, "batch"}, {K, ""}})) +
            pb::bytes(12, pb::valueInfo("y", pb::kFloat, {{0, "batch"}, {N, ""}}));
        const std::string graphHead = nodeField + pb::bytes(2, "big") + initHead;
        const std::string head = pb::modelHeader() + pb::tag(7, 2) +
                                 pb::varint(graphHead.size() + raw + tail.size()) + graphHead;
        const std::string path = dir_.filePath("big.onnx").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << head;
            out.seekp(std::streamoff(raw), std::ios::cur);
            out << tail;
        }
        QCOMPARE(std::int64_t(std::filesystem::file_size(path)),
                 std::int64_t(head.size() + tail.size()) + raw);
        const auto structure = readOnnxStructure(path);
        QVERIFY2(structure, structure ? "" : structure.message().c_str());
        QCOMPARE(structure->skippedPayloadBytes, raw);
        QVERIFY(structure->bytes.size() < 512);
        const auto source = loadModel(path);
        QVERIFY2(source, source ? "" : source.message().c_str());
        const auto graph = (*source)->build(options(4, 0));
        QVERIFY2(graph, graph ? "" : graph.message().c_str());
        QCOMPARE(graph->parameterCount(), double(K * N));
        QCOMPARE(graph->layers()[0].graph->forward()[0].gemm, gemm(1, 4, N, K));
        std::filesystem::remove(path);
    }

    void malformedFilesAreErrors() {
        const std::string truncated = loadModel(onnxPath("truncated.onnx")).message();
        QVERIFY2(contains(truncated, "truncated.onnx") && contains(truncated, "remain"),
                 truncated.c_str());
        const std::string cyclic = loadModel(onnxPath("cyclic.onnx")).message();
        QVERIFY2(contains(cyclic, "cycle") && contains(cyclic, "/a/Add"), cyclic.c_str());
        QVERIFY(contains(loadModel(write("empty.onnx", "")).message(), "empty"));
        QVERIFY(contains(loadModel(write("text.onnx", "hello, world\n")).message(),
                         "not a valid ONNX"));
        QVERIFY(contains(loadModel(dir_.path().toStdString()).message(), "directory"));
        // A FIFO would block a reader forever: it must be refused before anything reads it.
        const std::string fifo = dir_.filePath("pipe.onnx").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QVERIFY(contains(loadModel(fifo).message(), "not a regular file"));
        std::string random;
        std::uint32_t state = 12345;
        for (int i = 0; i < 4096; ++i) {
            state = state * 1664525u + 1013904223u;
            random.push_back(char(state >> 24));
        }
        QVERIFY(!loadModel(write("random.onnx", random)));
        // A node reading a tensor nobody writes, and one that does not match its schema.
        const std::string undefined =
            pb::model(pb::bytes(1, pb::node({"x", "nowhere"}, {"y"}, "/mm", "MatMul")) +
                      pb::bytes(11, pb::valueInfo("x", pb::kFloat, {{0, "batch"}, {4, ""}})) +
                      pb::bytes(12, pb::valueInfo("y", pb::kFloat, {{0, "batch"}, {4, ""}})));
        QVERIFY(contains(loadModel(write("undefined.onnx", undefined)).message(), "'nowhere'"));
        const std::string badArity =
            pb::model(pb::bytes(1, pb::node({"x"}, {"y"}, "/mm", "MatMul")) +
                      pb::bytes(11, pb::valueInfo("x", pb::kFloat, {{0, "batch"}, {4, ""}})) +
                      pb::bytes(12, pb::valueInfo("y", pb::kFloat, {{0, "batch"}, {4, ""}})));
        QVERIFY(contains(loadModel(write("arity.onnx", badArity)).message(), "schema"));
    }

    void symbolicNamesMustBeBindable() {
        const auto make = [](const std::vector<pb::Dim>& dims) {
            return pb::model(pb::bytes(1, pb::node({"x"}, {"y"}, "/relu", "Relu")) +
                             pb::bytes(11, pb::valueInfo("x", pb::kFloat, dims)) +
                             pb::bytes(12, pb::valueInfo("y", pb::kFloat, dims)));
        };
        const std::string odd = loadModel(write("odd.onnx", make({{0, "foo"}, {4, ""}}))).message();
        QVERIFY2(contains(odd, "'foo'"), odd.c_str());
        // A fixed batch: the microbatch must be the file's.
        const auto fixed = loadModel(write("fixed.onnx", make({{3, ""}, {4, ""}})));
        QVERIFY2(fixed, fixed ? "" : fixed.message().c_str());
        QVERIFY(contains((*fixed)->build(options(1, 0)).message(), "fixes the batch at 3"));
        const auto built = (*fixed)->build(options(3, 0));
        QVERIFY(built);
        QCOMPARE(built->layers()[0].graph->forward()[0].elements, std::int64_t(12));
    }

    void layerKeys() {
        const auto key = [](const std::string& name) {
            const auto k = findLayerKey(name);
            return k ? name.substr(0, k->end) : std::string("-");
        };
        QCOMPARE(key("/transformer/h.3/attn/MatMul"), std::string("/transformer/h.3"));
        QCOMPARE(key("model.layers.12.mlp.down_proj"), std::string("model.layers.12"));
        QCOMPARE(key("/bert/encoder/layer.0/attention"), std::string("/bert/encoder/layer.0"));
        QCOMPARE(key("/layer2/layer2.1/conv1/Conv"), std::string("/layer2/layer2.1"));
        QCOMPARE(key("/blocks_4/Add"), std::string("/blocks_4"));
        QCOMPARE(key("MatMul_12"), std::string("-"));
        QCOMPARE(key("/h.3x/MatMul"), std::string("-"));
        QCOMPARE(key("/headless.3/Add"), std::string("-"));
        QCOMPARE(key("/layer/Add"), std::string("-"));
    }

    void interleavedBlocksMergeIntoOneLayer() {
        // h.0 → h.1 → h.0 again would be a cycle between layers: the two merge.
        const std::vector<std::string> names{"/stem/Conv", "/h.0/a", "/h.1/b", "/h.0/c",
                                             "/h.2/d",     "/mid",   "/h.3/e", "/head/Gemm"};
        const std::vector<std::vector<int>> preds{{}, {0}, {1}, {2}, {3}, {4}, {5}, {6}};
        const LayerGrouping g = groupOnnxLayers(names, preds, "g");
        std::vector<std::string> layers;
        for (const auto& l : g.layers) layers.push_back(l.name);
        QCOMPARE(layers,
                 (std::vector<std::string>{"prologue", "h.0+h.1", "h.2", "h.3", "epilogue"}));
        QCOMPARE(g.layerOf, (std::vector<int>{0, 1, 1, 1, 2, 2, 3, 4}));  // "/mid" joins h.2
        const LayerGrouping plain = groupOnnxLayers({"a", "b"}, {{}, {0}}, "net");
        QCOMPARE(plain.layers.size(), std::size_t(1));
        QCOMPARE(plain.layers[0].name, std::string("net"));
    }

    void attributesOnnxWouldCrashOnAreErrors() {
        // A zero stride makes ONNX 1.12's convolution shape inference divide by zero.
        const auto conv = [](const std::vector<std::int64_t>& strides) {
            const std::string node = pb::node({"x", "w"}, {"y"}, "/conv", "Conv") +
                                     pb::intsAttribute("strides", strides);
            return pb::model(
                pb::bytes(1, node) +
                pb::bytes(
                    11, pb::valueInfo("x", pb::kFloat, {{0, "batch"}, {1, ""}, {6, ""}, {6, ""}})) +
                pb::bytes(11,
                          pb::valueInfo("w", pb::kFloat, {{2, ""}, {1, ""}, {3, ""}, {3, ""}})) +
                pb::bytes(12, pb::valueInfo("y", pb::kFloat,
                                            {{0, "batch"}, {2, ""}, {0, "h"}, {0, "w"}})));
        };
        const std::string zero = loadModel(write("stride0.onnx", conv({0, 1}))).message();
        QVERIFY2(contains(zero, "strides") && contains(zero, "between 1 and"), zero.c_str());
        // The same graph with stride 2 imports: (6 − 3)/2 + 1 = 2 outputs per side.
        const auto fine = loadModel(write("stride2.onnx", conv({2, 2})));
        QVERIFY2(fine, fine ? "" : fine.message().c_str());
        const auto graph = (*fine)->build(options(3, 0));
        QVERIFY2(graph, graph ? "" : graph.message().c_str());
        QCOMPARE(graph->layers()[0].graph->forward()[0].gemm, gemm(1, 3 * 2 * 2, 2, 9));
    }

    void manyUnknownOperatorsGiveAShortWarning() {
        // A chain of 200 custom operators, each with a 1,000-character type and node name: the
        // warning names the first few, shortly, and says how many more (it was every one, in
        // full: 5,220 characters for a real file).
        std::string graph;
        std::string input = "x";
        for (int i = 0; i < 200; ++i) {
            const std::string tag = std::to_string(i) + std::string(1000, 'o');
            const std::string output = "t" + std::to_string(i);
            graph += pb::bytes(
                1, pb::node({input}, {output}, "/n" + tag, "Op" + tag) + pb::domain("com.example"));
            input = output;
        }
        graph += pb::bytes(2, "custom") +
                 pb::bytes(11, pb::valueInfo("x", pb::kFloat, {{0, "batch"}, {16, ""}})) +
                 pb::bytes(12, pb::valueInfo(input, pb::kFloat, {{0, "batch"}, {16, ""}}));
        const std::string model = pb::integer(1, 8) + pb::bytes(8, pb::opset("", 17)) +
                                  pb::bytes(8, pb::opset("com.example", 1)) + pb::bytes(7, graph);
        const auto loaded = loadModelWithReport(write("custom.onnx", model));
        QVERIFY2(loaded, loaded ? "" : loaded.message().c_str());
        QCOMPARE(loaded->warnings.size(), std::size_t(1));
        const std::string& warning = loaded->warnings[0];
        qInfo("%s", warning.c_str());
        QVERIFY2(warning.size() < 1200, std::to_string(warning.size()).c_str());
        QVERIFY2(contains(warning, "com.example.Op0") && contains(warning, "and 195 more"),
                 warning.c_str());
    }
};

QTEST_GUILESS_MAIN(TestImportersOnnxInputs)
#include "test_importers_onnx_inputs.moc"
