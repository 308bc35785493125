// The folding of shape computations (core/importers/onnx_shape_folding.h): each operator on
// small integer tensors against values worked out by hand from the ONNX operator definitions,
// including negative indices and axes, reverse slices, truncating Div, Python-style Mod,
// broadcasting, wrapping casts, and the cases that must not fold (division by zero, overflow,
// floats, results beyond kMaxFoldedElements).
#include <QtTest>

#include <limits>

#include "core/importers/onnx_shape_folding.h"

using namespace tandem::core::importers;
using Values = std::vector<std::int64_t>;

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr int kInt64 = onnx::TensorProto::INT64;
constexpr int kBool = onnx::TensorProto::BOOL;

OnnxIntTensor tensor(Values dims, Values values, int type = kInt64) {
    return {type, std::move(dims), std::move(values)};
}
OnnxIntTensor vec(Values values) {
    const auto n = std::int64_t(values.size());
    return tensor({n}, std::move(values));
}
OnnxIntTensor scalar(std::int64_t v) {
    return tensor({}, {v});
}

class Node {
public:
    explicit Node(const std::string& op) { node_.set_op_type(op); }
    Node& ints(const std::string& name, const Values& values) {
        auto* a = node_.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (std::int64_t v : values) a->add_ints(v);
        return *this;
    }
    Node& integer(const std::string& name, std::int64_t value) {
        auto* a = node_.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(value);
        return *this;
    }
    Node& tensorAttribute(const std::string& name, const OnnxIntTensor& value) {
        auto* a = node_.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::TENSOR);
        *a->mutable_t() = toOnnxTensor(value, name);
        return *this;
    }
    // Folds with these input values ("" for an omitted input).
    std::optional<OnnxIntTensor> fold(const std::vector<const OnnxIntTensor*>& values) {
        node_.clear_input();
        std::vector<OnnxFoldInput> inputs;
        for (std::size_t i = 0; i < values.size(); ++i) {
            node_.add_input(values[i] ? "in" + std::to_string(i) : "");
            inputs.push_back({values[i], std::nullopt});
        }
        return run(inputs);
    }
    std::optional<OnnxIntTensor> foldShapeOf(const Values& dims) {
        node_.clear_input();
        node_.add_input("x");
        return run({{nullptr, dims}});
    }

private:
    std::optional<OnnxIntTensor> run(const std::vector<OnnxFoldInput>& inputs) {
        if (node_.output_size() == 0) node_.add_output("y");
        auto out = foldOnnxNode(node_, inputs);
        if (!out) return std::nullopt;
        return out->front();
    }
    onnx::NodeProto node_;
};

}  // namespace

#define QCOMPARE_TENSOR(actual, dims_, values_)       \
    do {                                              \
        const auto folded = (actual);                 \
        QVERIFY2(folded.has_value(), "did not fold"); \
        QCOMPARE(folded->dims, (Values dims_));       \
        QCOMPARE(folded->values, (Values values_));   \
    } while (false)

class TestImportersOnnxFolding : public QObject {
    Q_OBJECT

private slots:
    void shapeAndSize() {
        QCOMPARE_TENSOR(Node("Shape").foldShapeOf({2, 3, 4, 5}), ({4}), ({2, 3, 4, 5}));
        QCOMPARE_TENSOR(
            Node("Shape").integer("start", 1).integer("end", -1).foldShapeOf({2, 3, 4, 5}), ({2}),
            ({3, 4}));
        QCOMPARE_TENSOR(Node("Size").foldShapeOf({2, 3, 4}), ({}), ({24}));
        QVERIFY(!Node("Shape").fold({nullptr}));  // no known dims
    }

    void gatherUnsqueezeSqueezeConcat() {
        const OnnxIntTensor shape = vec({2, 3, 4});
        const OnnxIntTensor last = vec({-1, 0});
        QCOMPARE_TENSOR(Node("Gather").fold({&shape, &last}), ({2}), ({4, 2}));
        const OnnxIntTensor matrix = tensor({2, 3}, {1, 2, 3, 4, 5, 6});
        const OnnxIntTensor columns = vec({2, 0});
        QCOMPARE_TENSOR(Node("Gather").integer("axis", 1).fold({&matrix, &columns}), ({2, 2}),
                        ({3, 1, 6, 4}));
        const OnnxIntTensor outOfRange = vec({3});
        QVERIFY(!Node("Gather").fold({&shape, &outOfRange}));

        const OnnxIntTensor seven = scalar(7), axes = vec({0, -1});
        QCOMPARE_TENSOR(Node("Unsqueeze").fold({&seven, &axes}), ({1, 1}), ({7}));
        QCOMPARE_TENSOR(Node("Unsqueeze").ints("axes", {0}).fold({&seven}), ({1}),
                        ({7}));  // opset < 13
        const OnnxIntTensor padded = tensor({1, 3, 1}, {4, 5, 6});
        QCOMPARE_TENSOR(Node("Squeeze").fold({&padded}), ({3}), ({4, 5, 6}));
        const OnnxIntTensor middle = vec({1});
        QVERIFY(!Node("Squeeze").fold({&padded, &middle}));  // dim 1 is 3, not 1

        const OnnxIntTensor a = vec({2}), b = vec({3, 4});
        QCOMPARE_TENSOR(Node("Concat").integer("axis", 0).fold({&a, &b}), ({3}), ({2, 3, 4}));
        const OnnxIntTensor left = tensor({2, 2}, {1, 2, 3, 4}), right = tensor({2, 1}, {5, 6});
        QCOMPARE_TENSOR(Node("Concat").integer("axis", -1).fold({&left, &right}), ({2, 3}),
                        ({1, 2, 5, 3, 4, 6}));
    }

    void slices() {
        const OnnxIntTensor ten = vec({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        const OnnxIntTensor start8 = vec({8}), toBegin = vec({kMin}), axis0 = vec({0});
        const OnnxIntTensor back3 = vec({-3});
        QCOMPARE_TENSOR(Node("Slice").fold({&ten, &start8, &toBegin, &axis0, &back3}), ({3}),
                        ({8, 5, 2}));
        const OnnxIntTensor toEnd = vec({kMax});
        QCOMPARE_TENSOR(Node("Slice").fold({&ten, &back3, &toEnd}), ({3}), ({7, 8, 9}));
        // Rows 0..2 of a 3×3, columns from 1: an omitted axes input means 0, 1, …
        const OnnxIntTensor grid = tensor({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
        const OnnxIntTensor starts = vec({0, 1}), ends = vec({2, kMax});
        QCOMPARE_TENSOR(Node("Slice").fold({&grid, &starts, &ends}), ({2, 2}), ({2, 3, 5, 6}));
        // Opset 1: starts and ends as attributes.
        QCOMPARE_TENSOR(Node("Slice").ints("starts", {1}).ints("ends", {3}).fold({&ten}), ({2}),
                        ({1, 2}));
        const OnnxIntTensor zeroStep = vec({0});
        QVERIFY(!Node("Slice").fold({&ten, &start8, &toEnd, &axis0, &zeroStep}));
    }

    void reshapeRangeAndFills() {
        const OnnxIntTensor six = vec({1, 2, 3, 4, 5, 6}), target = vec({-1, 3});
        QCOMPARE_TENSOR(Node("Reshape").fold({&six, &target}), ({2, 3}), ({1, 2, 3, 4, 5, 6}));
        const OnnxIntTensor wrong = vec({4, -1});
        QVERIFY(!Node("Reshape").fold({&six, &wrong}));

        const OnnxIntTensor two = scalar(2), eleven = scalar(11), three = scalar(3);
        QCOMPARE_TENSOR(Node("Range").fold({&two, &eleven, &three}), ({3}), ({2, 5, 8}));
        const OnnxIntTensor five = scalar(5), zero = scalar(0), minusTwo = scalar(-2);
        QCOMPARE_TENSOR(Node("Range").fold({&five, &zero, &minusTwo}), ({3}), ({5, 3, 1}));
        QCOMPARE_TENSOR(Node("Range").fold({&five, &two, &three}), ({0}), ({}));
        QVERIFY(!Node("Range").fold({&two, &eleven, &zero}));  // delta 0
        const OnnxIntTensor big = scalar(kMaxFoldedElements + 1), one = scalar(1);
        QVERIFY(!Node("Range").fold({&zero, &big, &one}));  // too many elements

        const OnnxIntTensor dims = vec({2, 3});
        QCOMPARE_TENSOR(Node("ConstantOfShape").tensorAttribute("value", vec({7})).fold({&dims}),
                        ({2, 3}), ({7, 7, 7, 7, 7, 7}));
        QVERIFY(!Node("ConstantOfShape").fold({&dims}));  // the default fill is a float 0
        const OnnxIntTensor column = tensor({2, 1}, {1, 2}), square = vec({2, 2});
        QCOMPARE_TENSOR(Node("Expand").fold({&column, &square}), ({2, 2}), ({1, 1, 2, 2}));
        QCOMPARE_TENSOR(Node("Constant").ints("value_ints", {4, -1}).fold({}), ({2}), ({4, -1}));
    }

    void arithmetic() {
        const OnnxIntTensor a = vec({-7, 7}), two = scalar(2), zero = scalar(0);
        QCOMPARE_TENSOR(Node("Div").fold({&a, &two}), ({2}), ({-3, 3}));  // truncates
        QCOMPARE_TENSOR(Node("Mod").fold({&a, &two}), ({2}), ({1, 1}));   // sign of the divisor
        QCOMPARE_TENSOR(Node("Mod").integer("fmod", 1).fold({&a, &two}), ({2}), ({-1, 1}));
        QVERIFY(!Node("Div").fold({&a, &zero}));
        const OnnxIntTensor huge = scalar(kMax);
        QVERIFY(!Node("Mul").fold({&huge, &two}));
        QVERIFY(!Node("Add").fold({&huge, &huge}));
        const OnnxIntTensor column = tensor({2, 1}, {10, 20});
        QCOMPARE_TENSOR(Node("Sub").fold({&column, &a}), ({2, 2}), ({17, 3, 27, 13}));
        const OnnxIntTensor b = vec({3, -9}), c = scalar(0);
        QCOMPARE_TENSOR(Node("Max").fold({&a, &b, &c}), ({2}), ({3, 7}));
        QCOMPARE_TENSOR(Node("Min").fold({&a, &b, &c}), ({2}), ({-7, -9}));
        QCOMPARE_TENSOR(Node("Neg").fold({&a}), ({2}), ({7, -7}));
    }

    void comparisonsWhereAndCasts() {
        const OnnxIntTensor a = vec({1, 5}), five = scalar(5);
        const auto equal = Node("Equal").fold({&a, &five});
        QCOMPARE_TENSOR(equal, ({2}), ({0, 1}));
        QCOMPARE(equal->dataType, kBool);
        const OnnxIntTensor cond = tensor({2}, {1, 0}, kBool), x = vec({10, 20});
        const OnnxIntTensor y = tensor({2, 1}, {1, 2});
        QCOMPARE_TENSOR(Node("Where").fold({&cond, &x, &y}), ({2, 2}), ({10, 1, 10, 2}));
        const OnnxIntTensor wide = vec({(std::int64_t(1) << 32) + 5, -1});
        const auto int32 = Node("Cast").integer("to", onnx::TensorProto::INT32).fold({&wide});
        QCOMPARE_TENSOR(int32, ({2}), ({5, -1}));
        QCOMPARE_TENSOR(Node("Cast").integer("to", kBool).fold({&wide}), ({2}), ({1, 1}));
        QVERIFY(!Node("Cast").integer("to", onnx::TensorProto::FLOAT).fold({&wide}));
        // The folded tensor reads back through the TensorProto the library sees.
        const auto proto = toOnnxTensor(*int32, "t");
        QVERIFY(hasCompleteOnnxData(proto));
        QCOMPARE(readOnnxIntTensor(proto)->values, (Values{5, -1}));
    }
};

QTEST_GUILESS_MAIN(TestImportersOnnxFolding)
#include "test_importers_onnx_folding.moc"
