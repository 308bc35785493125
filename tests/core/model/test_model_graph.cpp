// LayerGraph validation and backward derivation, ModelGraph validation and layer sharing, and
// the size-expression evaluator of the model file format.
#include <QtTest>

#include "core/model/layer_graph.h"
#include "core/model/model_graph.h"
#include "core/model/size_expression.h"

using namespace tandem::core;
using namespace tandem::core::model;

namespace {

Operator vectorOp(const char* name, std::int64_t elements, std::vector<int> inputs) {
    Operator op;
    op.name = name;
    op.kind = "test";
    op.opClass = OpClass::VectorCore;
    op.elements = elements;
    op.cyclesPerElement = 1;
    op.backwardCyclesPerElement = 2;
    op.backwardRule = BackwardRule::Elementwise;
    op.inputs = std::move(inputs);
    return op;
}

Operator gemmOp(const char* name, OpClass c, BackwardRule rule, GemmShape g,
                std::vector<int> inputs) {
    Operator op;
    op.name = name;
    op.kind = "gemm";
    op.opClass = c;
    op.gemm = g;
    op.backwardRule = rule;
    op.inputs = std::move(inputs);
    return op;
}

Operator plainOp(const char* name, OpClass c, BackwardRule rule, std::vector<int> inputs) {
    Operator op;
    op.name = name;
    op.kind = "plain";
    op.opClass = c;
    op.backwardRule = rule;
    op.inputs = std::move(inputs);
    return op;
}

// 0 norm → 1 f → 2 lin → 3 bmm(lin, norm) → 4 g → 5 view → 6 fused
std::vector<Operator> tinyGraph() {
    std::vector<Operator> ops;
    ops.push_back(vectorOp("norm", 10, {}));
    ops.back().backwardStreamedTensors = 4;
    Operator f = plainOp("f", OpClass::Nop, BackwardRule::AllReduceInBackward, {0});
    f.collectiveBytes = 40;
    f.groupSize = 2;
    ops.push_back(f);
    ops.push_back(gemmOp("lin", OpClass::TensorCore, BackwardRule::WeightGemm, {1, 4, 6, 5}, {1}));
    ops.push_back(
        gemmOp("bmm", OpClass::TensorCore, BackwardRule::ActivationGemm, {2, 3, 3, 4}, {2, 0}));
    Operator g = plainOp("g", OpClass::Collective, BackwardRule::NoneAfterAllReduce, {3});
    g.collectiveBytes = 40;
    g.groupSize = 2;
    ops.push_back(g);
    ops.push_back(plainOp("view", OpClass::Nop, BackwardRule::None, {4}));
    Operator fused = gemmOp("fused", OpClass::Fused, BackwardRule::WeightGemm, {1, 2, 2, 2}, {5});
    fused.elements = 4;
    fused.backwardCyclesPerElement = 3;
    ops.push_back(fused);
    return ops;
}

}  // namespace

class TestModelGraph : public QObject {
    Q_OBJECT

private slots:
    void backwardOfTinyGraphIsExact() {
        const std::vector<Operator> bwd = deriveBackward(tinyGraph());
        struct Expect {
            const char* name;
            OpClass c;
            GemmShape g;
            std::vector<int> inputs;
            int forwardIndex;
        };
        const std::vector<Expect> expected = {
            {"bwd.fused.epilogue", OpClass::VectorCore, {}, {}, 6},
            {"bwd.fused.dX", OpClass::TensorCore, {1, 2, 2, 2}, {0}, 6},
            {"bwd.fused.dW", OpClass::TensorCore, {1, 2, 2, 2}, {0}, 6},
            {"bwd.view", OpClass::Nop, {}, {1}, 5},
            {"bwd.g", OpClass::Nop, {}, {3}, 4},
            {"bwd.bmm.dA", OpClass::TensorCore, {2, 3, 4, 3}, {4}, 3},
            {"bwd.bmm.dB", OpClass::TensorCore, {2, 4, 3, 3}, {4}, 3},
            {"bwd.lin.dX", OpClass::TensorCore, {1, 4, 5, 6}, {5, 6}, 2},
            {"bwd.lin.dW", OpClass::TensorCore, {1, 5, 6, 4}, {5, 6}, 2},
            {"bwd.f", OpClass::Collective, {}, {7}, 1},
            {"bwd.norm", OpClass::VectorCore, {}, {5, 6, 9}, 0},
        };
        QCOMPARE(bwd.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(QString::fromStdString(bwd[i].name), QString(expected[i].name));
            QVERIFY(bwd[i].opClass == expected[i].c);
            if (expected[i].c == OpClass::TensorCore) QVERIFY(bwd[i].gemm == expected[i].g);
            QCOMPARE(bwd[i].inputs, expected[i].inputs);
            QCOMPARE(bwd[i].forwardIndex, expected[i].forwardIndex);
        }
        QCOMPARE(bwd[0].elements, 4);
        QCOMPARE(bwd[0].cyclesPerElement, 3.0);
        QCOMPARE(bwd[9].collectiveBytes, 40);
        QCOMPARE(bwd[9].groupSize, 2);
        QCOMPARE(bwd[10].elements, 10);
        QCOMPARE(bwd[10].cyclesPerElement, 2.0);
        QCOMPARE(bwd[10].streamedTensors, 4);
        QCOMPARE(validateOperatorDag(bwd), std::string());
    }

    void backwardGemmFlopsAreTwiceForward() {
        auto graph = LayerGraph::create("tiny", tinyGraph());
        QVERIFY2(graph.ok(), graph.ok() ? "" : graph.message().c_str());
        // lin 2·120, bmm 2·72, fused 2·8 (GEMM part).
        QCOMPARE((*graph)->forwardGemmFlops(), 2.0 * (120 + 72 + 8));
        QCOMPARE((*graph)->backwardGemmFlops(), 2.0 * (*graph)->forwardGemmFlops());
        // Vector work: norm 10 + fused epilogue 4 forward; norm 10 + epilogue 4 backward.
        QCOMPARE((*graph)->forwardFlops(), 2.0 * 200 + 14);
        QCOMPARE((*graph)->backwardFlops(), 4.0 * 200 + 14);
    }

    void validationRejectsBadGraphs() {
        auto expectError = [](std::vector<Operator> ops, const char* needle) {
            auto graph = LayerGraph::create("bad", std::move(ops));
            QVERIFY2(!graph.ok(), needle);
            QVERIFY2(graph.message().find(needle) != std::string::npos, graph.message().c_str());
        };
        expectError({}, "has no operators");
        expectError({vectorOp("a", 1, {1}), vectorOp("b", 1, {0})}, "cycle");
        expectError({vectorOp("a", 1, {}), vectorOp("b", 1, {5})}, "input index 5, allowed 0..1");
        expectError({vectorOp("a", 1, {}), vectorOp("b", 1, {-1})}, "input index -1");
        expectError({vectorOp("a", 1, {}), vectorOp("a", 1, {0})}, "'a' is used twice");
        expectError({vectorOp("a", 1, {0})}, "lists itself");
        expectError({vectorOp("a", 1, {}), vectorOp("b", 1, {0, 0})}, "twice");
        expectError({vectorOp("b", 1, {1}), vectorOp("a", 1, {})}, "topological order");
        expectError({gemmOp("g", OpClass::TensorCore, BackwardRule::WeightGemm, {1, -4, 2, 2}, {})},
                    "m = -4 is negative");
        expectError({vectorOp("a", -1, {})}, "elements = -1");
        Operator badRule = vectorOp("a", 1, {});
        badRule.backwardRule = BackwardRule::WeightGemm;
        expectError({badRule}, "does not apply to class 'vector_core'");
        Operator badCycles = vectorOp("a", 1, {});
        badCycles.cyclesPerElement = std::numeric_limits<double>::quiet_NaN();
        expectError({badCycles}, "cyclesPerElement");
        Operator huge = vectorOp("a", 1, {});
        huge.parameterBytes = std::numeric_limits<std::int64_t>::max();
        Operator huge2 = vectorOp("b", 1, {0});
        huge2.parameterBytes = 2;
        expectError({huge, huge2}, "overflows");
    }

    void cycleMessageNamesTheCycle() {
        // c ← b ← a ← c, plus d hanging off the cycle.
        const std::vector<Operator> ops = {vectorOp("a", 1, {2}), vectorOp("b", 1, {0}),
                                           vectorOp("c", 1, {1}), vectorOp("d", 1, {2})};
        const std::string message = validateOperatorDag(ops);
        QVERIFY2(message.find("cycle") != std::string::npos, message.c_str());
        for (const char* name : {"'a'", "'b'", "'c'"})
            QVERIFY2(message.find(name) != std::string::npos, message.c_str());
        QVERIFY2(message.find("'d'") == std::string::npos, message.c_str());
    }

    void signatureDistinguishesShapes() {
        auto a = LayerGraph::create("x", {vectorOp("a", 10, {})});
        auto b = LayerGraph::create("x", {vectorOp("a", 10, {})});
        auto c = LayerGraph::create("x", {vectorOp("a", 11, {})});
        auto d = LayerGraph::create("y", {vectorOp("a", 10, {})});
        QVERIFY(a.ok() && b.ok() && c.ok() && d.ok());
        QCOMPARE((*a)->signature(), (*b)->signature());
        QVERIFY((*a)->signature() != (*c)->signature());
        QVERIFY((*a)->signature() != (*d)->signature());
    }

    void modelGraphSharesEqualLayersAndValidates() {
        auto a = *LayerGraph::create("x", {vectorOp("a", 10, {})});
        auto a2 = *LayerGraph::create("x", {vectorOp("a", 10, {})});
        auto b = *LayerGraph::create("x", {vectorOp("a", 12, {})});
        std::vector<Layer> layers = {{"l0", a, false}, {"l1", a2, false}, {"l2", b, false}};
        auto model = ModelGraph::create("m", {}, layers, {{0, 1, 5}, {1, 2, 5}});
        QVERIFY2(model.ok(), model.ok() ? "" : model.message().c_str());
        QCOMPARE(model->uniqueGraphs().size(), std::size_t(2));
        QCOMPARE(model->uniqueIndexOfLayer(), (std::vector<int>{0, 0, 1}));
        QCOMPARE(model->layers()[1].graph.get(), model->layers()[0].graph.get());
        QVERIFY(model->isChain());
        QCOMPARE(model->forwardFlops(), 32.0);

        auto branching = ModelGraph::create("m", {}, layers, {{0, 1, 5}, {0, 2, 5}});
        QVERIFY(branching.ok() && !branching->isChain());

        auto expectError = [&](std::vector<Layer> ls, std::vector<LayerEdge> es,
                               const char* needle) {
            auto m = ModelGraph::create("m", {}, std::move(ls), std::move(es));
            QVERIFY2(!m.ok(), needle);
            QVERIFY2(m.message().find(needle) != std::string::npos, m.message().c_str());
        };
        expectError({}, {}, "no layers");
        expectError(layers, {{0, 1, 5}, {1, 2, 5}, {2, 0, 5}}, "cycle");
        expectError(layers, {{0, 3, 5}}, "outside 0..2");
        expectError(layers, {{1, 1, 5}}, "self-loop");
        expectError(layers, {{0, 1, 5}, {0, 1, 6}}, "listed twice");
        expectError(layers, {{0, 1, -5}}, "bytes = -5");
        expectError({{"l0", a, false}, {"l0", b, false}}, {}, "'l0' is used twice");
        expectError({{"l0", nullptr, false}}, {}, "has no graph");
    }

    void buildOptionsAreValidated() {
        QVERIFY(validateBuildOptions({}).ok());
        QVERIFY(!validateBuildOptions({0, 0, 1, 2}).ok());
        QVERIFY(!validateBuildOptions({1, -1, 1, 2}).ok());
        QVERIFY(!validateBuildOptions({1, 0, 0, 2}).ok());
        QVERIFY(!validateBuildOptions({1, 0, 1, 0}).ok());
        QVERIFY(validateBuildOptions({1, 0, 1, 0}).message().find("bytes per element 0") !=
                std::string::npos);
    }

    void expressionsEvaluate() {
        const SizeVariables vars{3, 128, 4, 2};
        const std::pair<const char*, std::int64_t> cases[] = {
            {"2+3*4", 14},      {"(2+3)*4", 20},
            {" b * s ", 384},   {"b*s*1024/t*e", 196608},
            {"-b+10", 7},       {"--b", 3},
            {"cdiv(7,2)", 4},   {"cdiv(8, 2)", 4},
            {"cdiv(-7,2)", -3}, {"cdiv(50257, t)", 12565},
            {"100-10-1", 89},   {"64/4/2", 8},
            {"0", 0},           {"9223372036854775807", INT64_MAX},
        };
        for (const auto& [text, value] : cases) {
            auto expr = SizeExpression::parse(text);
            QVERIFY2(expr.ok(), expr.ok() ? text : expr.message().c_str());
            auto result = expr->evaluate(vars);
            QVERIFY2(result.ok(), result.ok() ? text : result.message().c_str());
            QCOMPARE(*result, value);
        }
        QVERIFY(SizeExpression::parse("17")->isConstant());
        QVERIFY(!SizeExpression::parse("b")->isConstant());
    }

    void expressionErrorsAreClear() {
        const std::pair<const char*, const char*> parseErrors[] = {
            {"", "empty expression"},
            {"h*2", "unknown variable 'h' at offset 0 (allowed: b, s, t, e)"},
            {"b*s)", "unexpected ')' at offset 3"},
            {"b*(s", "expected ')'"},
            {"ceil(b, 2)", "unknown function 'ceil'"},
            {"cdiv(b)", "','"},
            {"99999999999999999999", "does not fit in 64 bits"},
            {"b+", "expected a number"},
            {"b $ 2", "unexpected '$ 2'"},
        };
        for (const auto& [text, needle] : parseErrors) {
            auto expr = SizeExpression::parse(text);
            QVERIFY2(!expr.ok(), text);
            QVERIFY2(expr.message().find(needle) != std::string::npos, expr.message().c_str());
        }
        QVERIFY(!SizeExpression::parse(std::string(100, '(') + "1" + std::string(100, ')')).ok());
        const SizeVariables vars{1, 2048, 3, 2};
        const std::pair<const char*, const char*> evalErrors[] = {
            {"4096/t", "4096 / 3 is not an exact integer division (b=1, s=2048, t=3, e=2)"},
            {"b/(t-3)", "division by zero"},
            {"cdiv(s, t-3)", "division by zero"},
            {"9223372036854775807*2", "overflows 64 bits"},
            {"9223372036854775807+b", "overflows 64 bits"},
            {"-9223372036854775807-2", "overflows 64 bits"},
        };
        for (const auto& [text, needle] : evalErrors) {
            auto expr = SizeExpression::parse(text);
            QVERIFY2(expr.ok(), text);
            auto value = expr->evaluate(vars);
            QVERIFY2(!value.ok(), text);
            QVERIFY2(value.message().find(needle) != std::string::npos, value.message().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestModelGraph)
#include "test_model_graph.moc"
