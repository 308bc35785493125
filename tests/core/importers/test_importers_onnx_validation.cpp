// ONNX graphs the ONNX library (1.12) crashes on or silently accepts (issue 12): each must be an
// error value naming the file, the node and the offending value, and a valid variant of the same
// graph must still import with the shapes counted by hand. Before the importer checked these,
// the crash cases killed the process inside onnx::shape_inference (SIGSEGV, SIGFPE) and the
// invalid graphs imported without a word.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>

#include "core/importers/model_loader.h"
#include "importer_test_helpers.h"
#include "onnx_test_support.h"

using namespace tandem::core;
using namespace tandem::core::importers;
namespace pb = onnx_test;

using importer_test::contains;
using importer_test::gemm;

namespace {

model::BuildOptions options(std::int64_t b) {
    model::BuildOptions o;
    o.microbatch = b;
    return o;
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

    // Relu(x) → Conv(·, w) → y: the input's rank is known only after inference of the Relu.
    static std::string convModel(const std::string& op, const std::vector<pb::Dim>& x,
                                 const std::vector<std::int64_t>& w) {
        return pb::model(graph(
            {pb::node({"x"}, {"r"}, "/relu", "Relu"), pb::node({"r", "w"}, {"y"}, "/conv", op)},
            {input("x", x)}, {output("y")}, {pb::tensorWithoutData("w", pb::kFloat, w)}));
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void convolutionWeightOfAnotherRank() {
        // Conv of a rank-3 input with a rank-5 weight: ONNX 1.12 reads past the input's dims.
        const std::string conv = refused(
            "conv_rank.onnx", convModel("Conv", {kBatch, {3, ""}, {8, ""}}, {4, 3, 3, 3, 3}));
        QVERIFY2(contains(conv, "node '/conv' (Conv)") &&
                     contains(conv, "rank 5 [4, 3, 3, 3, 3]") && contains(conv, "rank 3 [1, 3, 8]"),
                 conv.c_str());
        // ConvTranspose of a rank-4 input with a rank-2 weight.
        const std::string transposed =
            refused("convt_rank.onnx",
                    convModel("ConvTranspose", {kBatch, {3, ""}, {8, ""}, {8, ""}}, {3, 4}));
        QVERIFY2(contains(transposed, "node '/conv' (ConvTranspose)") &&
                     contains(transposed, "rank 2 [3, 4]") && contains(transposed, "rank >= 3"),
                 transposed.c_str());
        // The same graph with a weight of the input's rank: 3 → 4 channels, 3×3 on 8×8.
        const auto graph =
            built("conv_ok.onnx",
                  convModel("Conv", {kBatch, {3, ""}, {8, ""}, {8, ""}}, {4, 3, 3, 3}), 2);
        QCOMPARE(operatorsOf(graph).at("conv").gemm, gemm(1, 2 * 6 * 6, 4, 3 * 9));
    }

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
        // 3 does not divide into 16 channels.
        const std::string odd = refused("blocks_odd.onnx", model("DepthToSpace", 3));
        QVERIFY2(contains(odd, "multiple of blocksize² = 9"), odd.c_str());
    }

    void stftOfAScalar() {
        for (const auto& [name, dims] :
             {std::pair{std::string("stft0.onnx"), std::vector<pb::Dim>{}},
              std::pair{std::string("stft1.onnx"), std::vector<pb::Dim>{{16, ""}}}}) {
            const std::string model = pb::model(
                graph({pb::node({"x", "step"}, {"y"}, "/stft", "STFT")}, {input("x", dims)},
                      {output("y")}, {pb::int64Tensor("step", {}, {4})}));
            const std::string message = refused(name, model);
            QVERIFY2(contains(message, "node '/stft' (STFT)") &&
                         contains(message, "rank " + std::to_string(dims.size())) &&
                         contains(message, "must have rank 3"),
                     message.c_str());
        }
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

    void badConvolutionInsideAnIfBranch() {
        const auto ifModel = [](const std::vector<std::int64_t>& w) {
            const auto branch = [&](const std::string& name) {
                return graph({pb::node({"x", "w"}, {name + "_y"}, "/" + name + "/conv", "Conv")},
                             {}, {output(name + "_y")});
            };
            return pb::model(
                graph({pb::node({"c"}, {"y"}, "/if", "If") +
                           pb::graphAttribute("then_branch", branch("then")) +
                           pb::graphAttribute("else_branch", branch("else")),
                       pb::node({"y"}, {"z"}, "/relu", "Relu")},
                      {input("c", {}, 9), input("x", {kBatch, {3, ""}, {8, ""}, {8, ""}})},
                      {output("z")}, {pb::tensorWithoutData("w", pb::kFloat, w)}));
        };
        const std::string message = refused("if_conv.onnx", ifModel({4, 3, 3, 3, 3}));
        QVERIFY2(contains(message,
                          "node '/then/conv' (Conv) in attribute then_branch of node '/if' (If)") &&
                     contains(message, "rank 5 [4, 3, 3, 3, 3]"),
                 message.c_str());
        // With a rank-4 weight both branches give [b, 4, 6, 6], and so does the If.
        const auto graph = built("if_ok.onnx", ifModel({4, 3, 3, 3}), 2);
        QCOMPARE(operatorsOf(graph).at("relu").elements, std::int64_t(2 * 4 * 6 * 6));
    }

    void reshapesMustKeepTheElementCount() {
        // x [b, 6, 4] reshaped to a constant target, then multiplied by w [24, 8].
        const auto model = [](const std::vector<std::int64_t>& target) {
            return pb::model(graph({pb::node({"x", "shape"}, {"r"}, "/reshape", "Reshape"),
                                    pb::node({"r", "w"}, {"y"}, "/fc", "MatMul")},
                                   {input("x", {kBatch, {6, ""}, {4, ""}})}, {output("y")},
                                   {pb::int64Tensor("shape", {std::int64_t(target.size())}, target),
                                    pb::tensorWithoutData("w", pb::kFloat, {24, 8})}));
        };
        const std::string more = refused("reshape25.onnx", model({0, 25}));
        QVERIFY2(contains(more, "node '/reshape' (Reshape)") &&
                     contains(more, "[1, 6, 4] (24 elements)") &&
                     contains(more, "to [0, 25] (25 elements)"),
                 more.c_str());
        const std::string inexact = refused("reshape5.onnx", model({0, 5, -1}));
        QVERIFY2(contains(inexact, "[0, 5, -1]") && contains(inexact, "does not divide"),
                 inexact.c_str());
        const std::string twice = refused("reshape_twice.onnx", model({-1, -1}));
        QVERIFY2(contains(twice, "more than one -1"), twice.c_str());
        // 0 copies the batch, -1 takes the rest: [b, 24].
        QCOMPARE(operatorsOf(built("reshape_ok.onnx", model({0, -1}), 3)).at("fc").gemm,
                 gemm(1, 3, 8, 24));
    }

    void reshapeTargetsComputedAtRunTime() {
        // The exporter's pattern: Concat(Unsqueeze(Gather(Shape(x), 0)), [tail]) as the target.
        const auto model = [](std::int64_t tail) {
            return pb::model(
                graph({pb::node({"x"}, {"s"}, "/Shape", "Shape"),
                       pb::node({"s", "zero"}, {"b"}, "/Gather", "Gather"),
                       pb::node({"b", "axes"}, {"b1"}, "/Unsqueeze", "Unsqueeze"),
                       pb::node({"b1", "tail"}, {"shape"}, "/Concat", "Concat") +
                           pb::intAttribute("axis", 0),
                       pb::node({"x", "shape"}, {"r"}, "/reshape", "Reshape"),
                       pb::node({"r", "w"}, {"y"}, "/fc", "MatMul")},
                      {input("x", {kBatch, {6, ""}, {4, ""}})}, {output("y")},
                      {pb::int64Tensor("zero", {}, {0}), pb::int64Tensor("axes", {1}, {0}),
                       pb::int64Tensor("tail", {1}, {tail}),
                       pb::tensorWithoutData("w", pb::kFloat, {24, 8})}));
        };
        QCOMPARE(operatorsOf(built("runtime_ok.onnx", model(-1), 7)).at("fc").gemm,
                 gemm(1, 7, 8, 24));
        const std::string wrong = refused("runtime_bad.onnx", model(7));
        QVERIFY2(contains(wrong, "node '/reshape' (Reshape)") && contains(wrong, "to [1, 7]"),
                 wrong.c_str());
    }

    void transposePermutations() {
        const auto model = [](const std::vector<std::int64_t>& perm) {
            return pb::model(graph({pb::node({"x"}, {"t"}, "/transpose", "Transpose") +
                                        pb::intsAttribute("perm", perm),
                                    pb::node({"t", "w"}, {"y"}, "/fc", "MatMul")},
                                   {input("x", {kBatch, {3, ""}, {4, ""}})}, {output("y")},
                                   {pb::tensorWithoutData("w", pb::kFloat, {3, 5})}));
        };
        const std::string message = refused("perm.onnx", model({0, 0, 5}));
        QVERIFY2(contains(message, "node '/transpose' (Transpose)") &&
                     contains(message, "perm [0, 0, 5]") &&
                     contains(message, "permutation of 0..2"),
                 message.c_str());
        QVERIFY(contains(refused("perm_short.onnx", model({1, 0})), "permutation of 0..2"));
        // [b, 3, 4] → [b, 4, 3], times [3, 5].
        QCOMPARE(operatorsOf(built("perm_ok.onnx", model({0, 2, 1}), 2)).at("fc").gemm,
                 gemm(1, 2 * 4, 5, 3));
    }

    void concatAxesAndDims() {
        const auto model = [](std::int64_t axis, std::int64_t lastOfB) {
            return pb::model(graph(
                {pb::node({"a", "b"}, {"c"}, "/concat", "Concat") + pb::intAttribute("axis", axis),
                 pb::node({"c", "w"}, {"y"}, "/fc", "MatMul")},
                {input("a", {kBatch, {3, ""}, {4, ""}}),
                 input("b", {kBatch, {5, ""}, {lastOfB, ""}})},
                {output("y")}, {pb::tensorWithoutData("w", pb::kFloat, {4, 2})}));
        };
        const std::string axis = refused("concat77.onnx", model(77, 4));
        QVERIFY2(contains(axis, "node '/concat' (Concat)") && contains(axis, "axis = 77") &&
                     contains(axis, "between -3 and 2"),
                 axis.c_str());
        const std::string dims = refused("concat_dims.onnx", model(1, 6));
        QVERIFY2(contains(dims, "[1, 5, 6]") && contains(dims, "dim 2: 6 vs 4"), dims.c_str());
        // [b, 3, 4] and [b, 5, 4] along axis 1 (also spelled -2): [b, 8, 4], times [4, 2].
        QCOMPARE(operatorsOf(built("concat_ok.onnx", model(1, 4), 3)).at("fc").gemm,
                 gemm(1, 24, 2, 4));
        QCOMPARE(operatorsOf(built("concat_neg.onnx", model(-2, 4), 3)).at("fc").gemm,
                 gemm(1, 24, 2, 4));
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
