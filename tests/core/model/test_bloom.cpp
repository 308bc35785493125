// BLOOM's two departures from GPT-3 (issue 26, item 5): ALiBi positions — no position table, one
// more add per attention score for the per-head bias (in the unfused softmax and in the fused
// FlashAttention kernel, whose backward adds it again when it recomputes the scores) — and a
// LayerNorm after the embeddings (2·hidden parameters, on the device's sequence shard under
// sequence parallelism). Oracles: the vector-op cycle table and GPT-3's own graph.
#include <QtTest>

#include <algorithm>
#include <string>

#include "core/model/model_zoo.h"
#include "core/model/vector_op_costs.h"
#include "tests/core/model/model_test_support.h"

using namespace tandem::core::model;
using tandem::test::specOf;
using tandem::test::zoo;

namespace {

ModelGraph build(const std::string& name, std::int64_t t, bool sp, bool flash) {
    BuildOptions options{1, 0, t, 2, sp};
    options.flashAttention = flash;
    return tandem::test::buildOrDie(*zoo(name), options);
}

const Operator& named(const std::vector<Operator>& ops, const std::string& name) {
    const Operator* op = tandem::test::findOperator(ops, name);
    if (!op) qFatal("no operator %s", name.c_str());
    return *op;
}

bool has(const std::vector<Operator>& ops, const std::string& name) {
    return tandem::test::findOperator(ops, name) != nullptr;
}

}  // namespace

class TestBloom : public QObject {
    Q_OBJECT

private slots:
    void alibiAddsOneAddPerScore() {
        namespace costs = vector_op_costs;
        const ModelGraph bloom = build("bloom-176b", 4, false, false);
        const ModelGraph gpt3 = build("gpt3-175b", 4, false, false);
        const Operator& biased = named(bloom.layers()[1].graph->forward(), "attn.softmax");
        const Operator& plain = named(gpt3.layers()[1].graph->forward(), "attn.softmax");
        QCOMPARE(plain.cyclesPerElement, costs::kScaleMaskSoftmax.forwardCyclesPerElement);
        QCOMPARE(biased.cyclesPerElement,
                 costs::kScaleMaskSoftmax.forwardCyclesPerElement + costs::kAdd);
        QCOMPARE(biased.backwardCyclesPerElement, plain.backwardCyclesPerElement);

        const ModelGraph fused = build("bloom-176b", 4, false, true);
        const ModelGraph fusedGpt = build("gpt3-175b", 4, false, true);
        const Operator& core = named(fused.layers()[1].graph->forward(), "attn.core");
        const Operator& gptCore = named(fusedGpt.layers()[1].graph->forward(), "attn.core");
        QCOMPARE(core.cyclesPerElement, gptCore.cyclesPerElement + costs::kAdd);
        QCOMPARE(core.backwardCyclesPerElement, gptCore.backwardCyclesPerElement + costs::kAdd);
    }

    void noPositionTableAndAnEmbeddingNorm() {
        const TransformerSpec& spec = specOf(*zoo("bloom-176b"));
        QVERIFY(spec.positions == PositionKind::Alibi && spec.embeddingNorm);
        const double h = double(spec.hidden);
        for (bool sp : {false, true}) {
            const ModelGraph g = build("bloom-176b", 4, sp, false);
            const auto& embedding = g.layers()[0].graph->forward();
            QVERIFY(!has(embedding, "embed.positions"));
            const Operator& norm = named(embedding, "embed.norm");
            QCOMPARE(double(norm.parameterBytes), 2 * 2 * h);  // γ and β, 2 bytes each
            // 2,048 tokens of the microbatch; a quarter of them each under SP (t = 4).
            QCOMPARE(double(norm.elements), (sp ? 512.0 : 2048.0) * h);
        }
        QVERIFY(
            !has(build("gpt3-175b", 4, false, false).layers()[0].graph->forward(), "embed.norm"));
    }
};

QTEST_GUILESS_MAIN(TestBloom)
#include "test_bloom.moc"
