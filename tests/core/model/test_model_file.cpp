// The native model file: round trips of the zoo specs and of built graphs, the parametric graph
// form (example file), and the error messages for malformed files.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "core/model/model_file.h"
#include "core/model/model_zoo.h"
#include "core/model/transformer_source.h"
#include "test_paths.h"

using namespace tandem::core;
using namespace tandem::core::model;

namespace {

const std::string kDataDir = tandem::test::testDataDir();

void requireIdentical(const ModelGraph& a, const ModelGraph& b) {
    QCOMPARE(a.name(), b.name());
    QCOMPARE(a.layers().size(), b.layers().size());
    for (std::size_t i = 0; i < a.layers().size(); ++i) {
        const Layer& x = a.layers()[i];
        const Layer& y = b.layers()[i];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.tensorParallel, y.tensorParallel);
        QCOMPARE(x.graph->kind(), y.graph->kind());
        QVERIFY(x.graph->forward() == y.graph->forward());
        QVERIFY(x.graph->backward() == y.graph->backward());
        QCOMPARE(x.graph->signature(), y.graph->signature());
    }
    QVERIFY(a.edges() == b.edges());
    QCOMPARE(a.uniqueIndexOfLayer(), b.uniqueIndexOfLayer());
}

// A small valid graph file with one operator whose JSON can be swapped for error tests.
std::string graphWith(const std::string& op, const std::string& extra = "") {
    return R"({"format": "tandem-model", "version": 1, "name": "g", )" + extra +
           R"("layers": [{"name": "l0", "kind": "k", "operators": [)" +
           R"({"name": "a", "class": "vector_core", "elements": "b*s", "cycles_per_element": 1})" +
           (op.empty() ? "" : "," + op) + "]}]}";
}

void expectError(const std::string& text, const std::vector<std::string>& needles) {
    auto source = parseModelJson(text, "test.json");
    QVERIFY2(!source.ok(), text.c_str());
    for (const std::string& needle : needles) {
        QVERIFY2(source.message().find(needle) != std::string::npos,
                 (source.message() + "  [expected: " + needle + "]").c_str());
    }
    QVERIFY2(source.message().rfind("test.json", 0) == 0, source.message().c_str());
}

}  // namespace

class TestModelFile : public QObject {
    Q_OBJECT

private slots:
    void zooSpecsRoundTrip() {
        for (const ZooEntry& entry : zooModels()) {
            auto source = zooModel(entry.name);
            QVERIFY(source.ok());
            auto original = std::dynamic_pointer_cast<const TransformerSource>(*source);
            QVERIFY(original);
            const std::string text = transformerToJson(original->spec());
            auto reparsed = parseModelJson(text, entry.name);
            QVERIFY2(reparsed.ok(), reparsed.ok() ? "" : reparsed.message().c_str());
            auto copy = std::dynamic_pointer_cast<const TransformerSource>(*reparsed);
            QVERIFY(copy);
            QVERIFY(copy->spec() == original->spec());
            const BuildOptions options{2, 128, original->tensorParallelWidths().back(), 2};
            requireIdentical(*original->build(options), *copy->build(options));
        }
    }

    void builtGraphsRoundTrip_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<bool>("sp");
        QTest::newRow("gpt2-xl t1") << "gpt2-xl" << qint64(1) << false;
        QTest::newRow("megatron-gpt2-8.3b t4") << "megatron-gpt2-8.3b" << qint64(4) << false;
        QTest::newRow("gpt3-175b t8") << "gpt3-175b" << qint64(8) << false;
        QTest::newRow("bert-large t2") << "bert-large" << qint64(2) << false;
        QTest::newRow("opt-350m t1") << "opt-350m" << qint64(1) << false;
        QTest::newRow("llama2-7b t2") << "llama2-7b" << qint64(2) << false;
        // Sequence parallelism: all-gathers and reduce-scatters with transposed backwards, and
        // the selective-recomputation marks, survive the export.
        QTest::newRow("gpt3-175b t8 sp") << "gpt3-175b" << qint64(8) << true;
        QTest::newRow("llama2-7b t2 sp") << "llama2-7b" << qint64(2) << true;
    }
    void builtGraphsRoundTrip() {
        QFETCH(QString, name);
        QFETCH(qint64, t);
        QFETCH(bool, sp);
        const BuildOptions options{3, 64, t, 2, sp};
        auto graph = (*zooModel(name.toStdString()))->build(options);
        QVERIFY2(graph.ok(), graph.ok() ? "" : graph.message().c_str());
        const std::string text = graphToJson(*graph);
        auto source = parseModelJson(text, "exported.json");
        QVERIFY2(source.ok(), source.ok() ? "" : source.message().c_str());
        auto rebuilt = (*source)->build(options);
        QVERIFY2(rebuilt.ok(), rebuilt.ok() ? "" : rebuilt.message().c_str());
        requireIdentical(*graph, *rebuilt);
        QCOMPARE(rebuilt->parameterCount(), graph->parameterCount());
        // Numbers are only valid for the options they were exported with.
        auto other = (*source)->build({4, 64, t, 2});
        QVERIFY(!other.ok());
        QVERIFY2(other.message().find("exported for microbatch 3") != std::string::npos,
                 other.message().c_str());
        // Written again, the file is the same: the export is a fixed point.
        QCOMPARE(graphToJson(*rebuilt), text);
    }

    void exampleGraphIsParametric() {
        auto source = resolveModel(kDataDir + "/models/mlp.json");
        QVERIFY2(source.ok(), source.ok() ? "" : source.message().c_str());
        QCOMPARE((*source)->defaultSequenceLength(), std::int64_t(128));
        QCOMPARE((*source)->tensorParallelWidths(), (std::vector<std::int64_t>{1, 2, 4}));
        for (std::int64_t t : {1, 2, 4}) {
            const std::int64_t b = 2, s = 128;
            auto graph = (*source)->build({b, 0, t, 2});
            QVERIFY2(graph.ok(), graph.ok() ? "" : graph.message().c_str());
            QVERIFY(graph->isChain());
            QCOMPARE(graph->uniqueGraphs().size(), std::size_t(2));
            const double tokens = double(b * s);
            const double blockGemm = 2 * tokens * 4096 * 1024 * 2 / double(t);
            QCOMPARE(graph->forwardGemmFlops(), 2 * blockGemm + 2 * tokens * 10 * 1024);
            QCOMPARE(graph->backwardGemmFlops(), 2 * graph->forwardGemmFlops());
            QCOMPARE(graph->parameterCount(), 2.0 * 2 * 4096 * 1024 + 10 * 1024);
            const LayerGraph& block = *graph->layers()[0].graph;
            QCOMPARE(graph->layers()[0].tensorParallel, t > 1);
            QVERIFY(!graph->layers()[2].tensorParallel);
            QCOMPARE(block.forward()[4].groupSize, t);
            QVERIFY(block.backward().back().opClass == OpClass::Collective);  // bwd of f
            QCOMPARE(block.backward().back().collectiveBytes, b * s * 1024 * 2);
            QCOMPARE(graph->edges()[1].bytes, b * s * 1024 * 2);
        }
        auto odd = (*source)->build({1, 0, 3, 2});
        QVERIFY(!odd.ok());
        QVERIFY2(odd.message().find("layers[0].operators[1].n = \"4096/t\": 4096 / 3 is not an "
                                    "exact integer division") != std::string::npos,
                 odd.message().c_str());
    }

    void operatorsMayBeListedInAnyOrderAndLayersDeduplicate() {
        const std::string text = R"({"format": "tandem-model", "version": 1, "name": "g",
            "layers": [
              {"name": "x", "operators": [
                 {"name": "second", "class": "vector_core", "elements": 4, "inputs": ["first"]},
                 {"name": "first", "class": "tensor_core", "m": 2, "n": 2, "k": 2}]},
              {"name": "y", "operators": [
                 {"name": "first", "class": "tensor_core", "m": 2, "n": 2, "k": 2},
                 {"name": "second", "class": "vector_core", "elements": 4, "inputs": ["first"]}]},
              {"name": "z", "operators": [
                 {"name": "first", "class": "tensor_core", "m": 2, "n": 2, "k": "b*2"}]}],
            "edges": [{"from": "x", "to": "y", "bytes": 8}, {"from": "x", "to": "z", "bytes": 8}]})";
        auto source = parseModelJson(text, "inline");
        QVERIFY2(source.ok(), source.ok() ? "" : source.message().c_str());
        auto graph = (*source)->build({});
        QVERIFY(graph.ok());
        QCOMPARE(graph->layers()[0].graph->forward()[0].name, std::string("first"));
        QCOMPARE(graph->layers()[0].graph->forward()[1].inputs, std::vector<int>{0});
        QCOMPARE(graph->uniqueGraphs().size(), std::size_t(2));  // x and y are the same graph
        QVERIFY(!graph->isChain());
        QVERIFY(graph->layers()[0].graph->forward()[0].backwardRule == BackwardRule::WeightGemm);
        QVERIFY(graph->layers()[0].graph->forward()[1].backwardRule == BackwardRule::Elementwise);
    }

    void malformedFilesGiveClearErrors() {
        expectError("", {"is empty"});
        expectError("  \n ", {"is empty"});
        expectError("{\"format\": ", {"invalid JSON"});
        expectError("[1, 2]", {"must be a JSON object"});
        expectError(R"({"version": 1})", {"format", "is missing"});
        expectError(R"({"format": "onnx", "version": 1})", {"\"onnx\" is not a Tandem model"});
        expectError(R"({"format": "tandem-model", "version": 2, "name": "x"})",
                    {"version", "2 is not supported"});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "x"})",
                    {"exactly one of \"transformer\"", "\"layers\""});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "x", "transformer": {},
                       "layers": []})",
                    {"exactly one of"});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "x",
                       "transformer": {"family": "gpt2", "layers": 2, "hidden": 64, "heads": 4,
                       "ffn": 256, "vocab": 100, "max_sequence": 32, "hiden": 3}})",
                    {"transformer.hiden", "unknown key", "hidden"});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "x",
                       "transformer": {"family": "gpt2", "layers": 2, "hidden": 64, "heads": 4,
                       "ffn": 256, "vocab": 100}})",
                    {"transformer.max_sequence", "is required"});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "x",
                       "transformer": {"family": "gpt2", "layers": 2, "hidden": 64, "heads": 5,
                       "ffn": 256, "vocab": 100, "max_sequence": 32}})",
                    {"hidden = 64 is not divisible by heads = 5"});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "x",
                       "transformer": {"family": "gpt2", "layers": 2, "hidden": 64, "heads": 4,
                       "ffn": 256, "vocab": 100, "max_sequence": 32, "norm": "batch_norm"}})",
                    {"transformer.norm", "\"batch_norm\" is not allowed", "rms_norm"});

        expectError(graphWith(R"({"name": "b", "class": "tensor_core", "m": -3})"),
                    {"layers[0].operators[1].m", "-3 is out of range", ">= 0"});
        expectError(graphWith(R"({"name": "b", "class": "tensor_core", "m": true})"),
                    {"layers[0].operators[1].m", "must be a non-negative integer"});
        expectError(graphWith(R"({"name": "b", "class": "tensor_core", "m": 2.5})"),
                    {"layers[0].operators[1].m", "must be an integer"});
        expectError(graphWith(R"({"name": "b", "class": "tensor_core", "m": "b - 2"})"),
                    {"layers[0].operators[1].m", "evaluates to -1", ">= 0"});
        expectError(graphWith(R"({"name": "b", "class": "gpu_core"})"),
                    {"layers[0].operators[1].class", "\"gpu_core\" is not allowed", "tensor_core"});
        expectError(graphWith(R"({"name": "b", "m": 2})"), {"operators[1].class", "required"});
        expectError(graphWith(R"({"name": "b", "class": "nop", "inputs": ["zzz"]})"),
                    {"layers[0].operators[1].inputs[0]", "unknown operator 'zzz'"});
        expectError(graphWith(R"({"name": "a", "class": "nop"})"), {"'a' is used twice"});
        expectError(graphWith(R"({"name": "b", "class": "nop", "inputs": ["c"]},
                                 {"name": "c", "class": "nop", "inputs": ["b"]})"),
                    {"layers[0]", "cycle"});
        expectError(graphWith(R"({"name": "b", "class": "nop", "sizes": 3})"),
                    {"layers[0].operators[1].sizes", "unknown key"});
        expectError(graphWith(R"({"name": "b", "class": "tensor_core", "m": "h*2"})"),
                    {"layers[0].operators[1].m", "unknown variable 'h'"});
        expectError(graphWith("{\"name\": \"b\", \"class\": \"tensor_core\", \"m\": \"b*2)\"}"),
                    {"layers[0].operators[1].m", "unexpected ')'"});
        expectError(graphWith("{\"name\": \"b\", \"class\": \"tensor_core\", \"m\": \"b/(t-1)\"}"),
                    {"layers[0].operators[1].m", "division by zero"});
        expectError(graphWith(R"({"name": "b", "class": "tensor_core",
                                  "m": "s+9223372036854775807"})"),
                    {"layers[0].operators[1].m", "overflows"});
        expectError(
            graphWith(R"({"name": "b", "class": "vector_core", "backward": "weight_gemm"})"),
            {"layers[0]", "does not apply to class 'vector_core'"});
        expectError(graphWith(R"({"name": "b", "class": "vector_core",
                                  "cycles_per_element": -1})"),
                    {"operators[1].cycles_per_element", "in [0, 1000000]"});
        QVERIFY(parseModelJson(graphWith(""), "ok.json").ok());
        expectError(graphWith("", R"("tensor_parallel_widths": [0], )"),
                    {"tensor_parallel_widths[0]", ">= 1"});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "g", "layers": []})",
                    {"layers", "is empty"});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "g", "layers": [
                       {"name": "l0", "operators": [{"name": "a", "class": "nop"}]},
                       {"name": "l1", "same_as": "l9"}]})",
                    {"layers[1].same_as", "'l9' is not the name of an earlier layer"});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "g", "layers": [
                       {"name": "l0", "operators": [{"name": "a", "class": "nop"}]}],
                       "edges": [{"from": "l0", "to": "l7", "bytes": 1}]})",
                    {"edges[0].to", "unknown layer 'l7'"});
        expectError(R"({"format": "tandem-model", "version": 1, "name": "g", "layers": [
                       {"name": "l0", "operators": [{"name": "a", "class": "nop"}]},
                       {"name": "l1", "operators": [{"name": "a", "class": "nop"}]}],
                       "edges": [{"from": "l0", "to": "l1"}, {"from": "l1", "to": "l0"}]})",
                    {"cycle"});
    }

    void resolveModelHandlesNamesAndPaths() {
        QVERIFY(resolveModel("gpt3-175b").ok());
        auto missing = resolveModel("/nonexistent/model.json");
        QVERIFY(!missing.ok());
        QVERIFY(missing.message().find("neither a zoo model") != std::string::npos);
        QVERIFY(missing.message().find("gpt2-xl") != std::string::npos);
        auto directory = resolveModel(kDataDir);
        QVERIFY(!directory.ok());
        QVERIFY(directory.message().find("is a directory") != std::string::npos);
        QVERIFY(!resolveModel("").ok());

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string empty = dir.path().toStdString() + "/empty.json";
        std::ofstream(empty).close();
        auto emptyResult = resolveModel(empty);
        QVERIFY(!emptyResult.ok());
        QVERIFY2(emptyResult.message().find(empty + ": the file is empty") != std::string::npos,
                 emptyResult.message().c_str());
        const std::string broken = dir.path().toStdString() + "/broken.json";
        std::ofstream(broken) << "{\"format\": \"tandem-model\", ";
        auto brokenResult = resolveModel(broken);
        QVERIFY(!brokenResult.ok());
        QVERIFY(brokenResult.message().find("invalid JSON") != std::string::npos);
        const std::string spec = dir.path().toStdString() + "/spec.json";
        std::ofstream(spec) << transformerToJson(
            std::dynamic_pointer_cast<const TransformerSource>(*zooModel("opt-350m"))->spec());
        auto fromFile = resolveModel(spec);
        QVERIFY(fromFile.ok());
        QCOMPARE((*fromFile)->name(), std::string("opt-350m"));
    }
};

QTEST_GUILESS_MAIN(TestModelFile)
#include "test_model_file.moc"
