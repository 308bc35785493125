// ONNX graphs the ONNX library (1.12) crashes on or silently accepts (issue 12): each must be an
// error value naming the file, the node and the offending value, and a valid variant of the same
// graph must still import with the shapes counted by hand. Before the importer checked these,
// the crash cases killed the process inside onnx::shape_inference (SIGSEGV, SIGFPE) and the
// invalid graphs imported without a word. This file: what can be checked before inference.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>

#include "core/importers/model_loader.h"
#include "onnx_test_support.h"

using namespace tandem::core;
using namespace tandem::core::importers;
namespace pb = onnx_test;

namespace {

model::BuildOptions options(std::int64_t b) {
    model::BuildOptions o;
    o.microbatch = b;
    return o;
}

model::GemmShape gemm(std::int64_t batch, std::int64_t m, std::int64_t n, std::int64_t k) {
    return {batch, m, n, k};
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A GraphProto body: nodes, initializers, inputs, outputs and value_info.
std::string graph(const std::vector<std::string>& nodes, const std::vector<std::string>& inputs,
                  const std::vector<std::string>& outputs,
                  const std::vector<std::string>& initializers = {},
                  const std::vector<std::string>& valueInfo = {}) {
    std::string g;
    for (const std::string& n : nodes) g += pb::bytes(1, n);
    g += pb::bytes(2, "g");
    for (const std::string& t : initializers) g += pb::bytes(5, t);
    for (const std::string& i : inputs) g += pb::bytes(11, i);
    for (const std::string& o : outputs) g += pb::bytes(12, o);
    for (const std::string& v : valueInfo) g += pb::bytes(13, v);
    return g;
}

// A float output without a shape (ValueInfoProto name 1, type 2 → tensor_type 1 → elem_type 1).
std::string output(const std::string& name) {
    return pb::bytes(1, name) + pb::bytes(2, pb::bytes(1, pb::integer(1, pb::kFloat)));
}

std::string input(const std::string& name, const std::vector<pb::Dim>& dims,
                  int type = pb::kFloat) {
    return pb::valueInfo(name, type, dims);
}

const pb::Dim kBatch{0, "batch"};

// The forward operators of a one-layer model, by name.
std::map<std::string, model::Operator> operatorsOf(const model::ModelGraph& graph) {
    std::map<std::string, model::Operator> ops;
    for (const auto& layer : graph.layers())
        for (const model::Operator& op : layer.graph->forward()) ops[op.name] = op;
    return ops;
}

}  // namespace

class TestImportersOnnxValidation : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string write(const std::string& name, const std::string& content) {
        const std::string path = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }
    // The load error of a file, which must name it.
    std::string refused(const std::string& name, const std::string& content) {
        const auto loaded = loadModel(write(name, content));
        if (loaded) return "(loaded)";
        if (!contains(loaded.message(), name))
            return "(message without the file) " + loaded.message();
        return loaded.message();
    }
    // The model built at microbatch b; fails the test when it does not load or build.
    model::ModelGraph built(const std::string& name, const std::string& content, std::int64_t b) {
        const auto loaded = loadModel(write(name, content));
        if (!loaded) qFatal("%s", loaded.message().c_str());
        auto graph = (*loaded)->build(options(b));
        if (!graph) qFatal("%s", graph.message().c_str());
        return std::move(*graph);
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void blockSizesOutOfRange() {
        const auto model = [](const std::string& op, std::int64_t blocksize) {
            return pb::model(graph(
                {pb::node({"x"}, {"d"}, "/d2s", op) + pb::intAttribute("blocksize", blocksize),
                 pb::node({"d"}, {"y"}, "/relu", "Relu")},
                {input("x", {kBatch, {16, ""}, {4, ""}, {4, ""}})}, {output("y")}));
        };
        // 2^32 squared is 0 in 64 bits: ONNX 1.12 divides the channels by it (SIGFPE).
        for (const std::string op : {"DepthToSpace", "SpaceToDepth"})
            for (const std::int64_t b :
                 {std::int64_t(1) << 32, std::int64_t(0), std::int64_t(-3)}) {
                const std::string message = refused("blocks.onnx", model(op, b));
                QVERIFY2(contains(message, "node '/d2s' (" + op + ")") &&
                             contains(message, "blocksize = " + std::to_string(b)) &&
                             contains(message, "between 1 and 2147483647"),
                         message.c_str());
            }
        // Block size 2: 16 channels of 4×4 become 4 channels of 8×8.
        const auto graph = built("blocks_ok.onnx", model("DepthToSpace", 2), 3);
        QCOMPARE(operatorsOf(graph).at("relu").elements, std::int64_t(3 * 4 * 8 * 8));
    }

    void recursiveFunctions() {
        const auto call = [](const std::string& in, const std::string& out, const std::string& f,
                             const std::string& name) {
            return pb::node({in}, {out}, name, f) + pb::domain("local");
        };
        const std::string main =
            graph({call("x", "y", "F", "/f")}, {input("x", {kBatch, {4, ""}})}, {output("y")});
        // F calls itself: ONNX 1.12 expands the call forever (stack overflow, SIGSEGV).
        const std::string direct =
            refused("recursive.onnx",
                    pb::modelWithFunctions(
                        main, "local",
                        {pb::function("local", "F", {"a"}, {"b"}, {call("a", "b", "F", "")})}));
        QVERIFY2(contains(direct, "local.F → local.F") && contains(direct, "cannot be recursive"),
                 direct.c_str());
        // F calls G, which calls F.
        const std::string indirect =
            refused("mutual.onnx",
                    pb::modelWithFunctions(
                        main, "local",
                        {pb::function("local", "F", {"a"}, {"b"}, {call("a", "b", "G", "")}),
                         pb::function("local", "G", {"a"}, {"b"}, {call("a", "b", "F", "")})}));
        QVERIFY2(contains(indirect, "local.F → local.G → local.F"), indirect.c_str());
        // A function that does not recurse is inferred through its body: y has x's shape, so the
        // MatMul after it is sized.
        const std::string fine = pb::modelWithFunctions(
            graph({call("x", "y", "F", "/f"), pb::node({"y", "w"}, {"z"}, "/fc", "MatMul")},
                  {input("x", {kBatch, {4, ""}})}, {output("z")},
                  {pb::tensorWithoutData("w", pb::kFloat, {4, 6})}),
            "local",
            {pb::function("local", "F", {"a"}, {"b"}, {pb::node({"a"}, {"b"}, "", "Relu")})});
        const auto graph = built("function.onnx", fine, 5);
        QCOMPARE(operatorsOf(graph).at("fc").gemm, gemm(1, 5, 6, 4));
    }

    void unknownElementTypes() {
        const auto model = [](int inputType, int weightType, int infoType) {
            return pb::model(graph({pb::node({"x", "w"}, {"y"}, "/fc", "MatMul")},
                                   {input("x", {kBatch, {4, ""}}, inputType)}, {output("y")},
                                   {pb::tensorWithoutData("w", weightType, {4, 2})},
                                   {input("y", {kBatch, {2, ""}}, infoType)}));
        };
        const std::string undefinedInput = refused("type_in0.onnx", model(0, 1, 1));
        QVERIFY2(contains(undefinedInput, "graph input 'x' has element type 0 (UNDEFINED)") &&
                     contains(undefinedInput, "1 FLOAT"),
                 undefinedInput.c_str());
        QVERIFY(contains(refused("type_in999.onnx", model(999, 1, 1)),
                         "graph input 'x' has element type 999 (unknown)"));
        QVERIFY(contains(refused("type_w999.onnx", model(1, 999, 1)),
                         "initializer 'w' has element type 999 (unknown)"));
        QVERIFY(contains(refused("type_info0.onnx", model(1, 1, 0)),
                         "value_info 'y' has element type 0 (UNDEFINED)"));
        QCOMPARE(operatorsOf(built("type_ok.onnx", model(1, 1, 1), 3)).at("fc").gemm,
                 gemm(1, 3, 2, 4));
    }
};

QTEST_GUILESS_MAIN(TestImportersOnnxValidation)
#include "test_importers_onnx_validation.moc"
