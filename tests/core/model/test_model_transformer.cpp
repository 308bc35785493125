// The transformer builder and the zoo against independent oracles: published parameter counts
// and closed-form counts per family, Megatron's training-FLOP formula, Megatron's tensor-parallel
// split, and Korthikanti et al.'s activation-memory formula.
#include <QtTest>

#include <cmath>
#include <map>

#include "core/model/model_zoo.h"
#include "core/model/transformer_source.h"

using namespace tandem::core;
using namespace tandem::core::model;

namespace {

const TransformerSpec& specOf(const std::string& name) {
    static std::map<std::string, TransformerSpec> specs;
    if (!specs.count(name)) {
        auto source = zooModel(name);
        if (!source.ok()) qFatal("%s", source.message().c_str());
        auto transformer = std::dynamic_pointer_cast<const TransformerSource>(*source);
        if (!transformer) qFatal("%s is not a transformer", name.c_str());
        specs[name] = transformer->spec();
    }
    return specs[name];
}

// softmaxShapeRule false: Megatron's fused softmax kernel for every shape (the accounting of
// Korthikanti et al.; test_attention_softmax checks which shapes Megatron fuses).
ModelGraph build(const std::string& name, std::int64_t b, std::int64_t s, std::int64_t t,
                 bool softmaxShapeRule = true) {
    auto source = zooModel(name);
    if (!source.ok()) qFatal("%s", source.message().c_str());
    BuildOptions options{b, s, t, 2};
    options.softmaxShapeRule = softmaxShapeRule;
    auto graph = (*source)->build(options);
    if (!graph.ok()) qFatal("%s", graph.message().c_str());
    return std::move(*graph);
}

double rel(double a, double b) {
    return std::abs(a - b) / std::abs(b);
}

// Closed-form parameter counts, written from the published architectures (not from the
// builder): a standard block has 12h² + 13h parameters (qkv, out, fc1, fc2 with biases, two
// LayerNorms).
double formulaParameters(const TransformerSpec& s) {
    const double h = double(s.hidden), V = double(s.vocab), L = double(s.layers);
    const double E = double(s.embeddingDim());
    if (s.family == "llama") {
        // Q and the output projection are h × h; K and V h × (kv heads · head dim) (GQA).
        const double F = double(s.ffn), g = double(s.kvHeadCount()) / double(s.heads);
        return 2 * V * h + L * ((2 + 2 * g) * h * h + 3 * h * F + 2 * h) + h;
    }
    // A learned position table, unless the positions are rotary or ALiBi (none).
    const double positionRows =
        s.positions == PositionKind::Learned ? double(s.maxSequence + s.positionOffset) : 0.0;
    double total = V * E + positionRows * h + L * (12 * h * h + 13 * h);
    if (s.preNorm) total += 2 * h;                // final LayerNorm
    if (s.embeddingNorm) total += 2 * h;          // BLOOM's embedding LayerNorm
    if (s.projectionDim > 0) total += 2 * E * h;  // OPT-350m project_in / project_out
    if (s.encoder) {
        total += double(s.typeVocab) * h + 2 * h;  // token types, embedding LayerNorm
        total += (h * h + h) + 2 * h + V;          // MLM transform, LayerNorm, bias
        total += (h * h + h) + (2 * h + 2);        // pooler, NSP classifier
    }
    return total;
}

}  // namespace

class TestModelTransformer : public QObject {
    Q_OBJECT

private slots:
    void zooHasTheTableModels() {
        std::vector<std::string> names;
        for (const ZooEntry& entry : zooModels()) {
            names.push_back(entry.name);
            QVERIFY2(!entry.description.empty(), entry.name.c_str());
            auto source = zooModel(entry.name);
            QVERIFY2(source.ok(), source.ok() ? "" : source.message().c_str());
            QCOMPARE((*source)->name(), entry.name);
        }
        const std::vector<std::string> expected = {
            "bert-large",         "bloom-176b",         "gpt2-xl",    "gpt3-175b",
            "llama2-7b",          "llama3-405b",        "llama3-70b", "llama3-8b",
            "megatron-gpt2-2.5b", "megatron-gpt2-8.3b", "opt-1.3b",   "opt-350m"};
        QCOMPARE(names, expected);
        auto unknown = zooModel("gpt5");
        QVERIFY(!unknown.ok());
        QVERIFY(unknown.message().find("gpt2-xl") != std::string::npos);
    }

    void parameterCountsMatchPublishedNumbers_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("published");
        QTest::newRow("bert-large") << "bert-large" << 335e6;
        QTest::newRow("gpt2-xl") << "gpt2-xl" << 1.56e9;
        QTest::newRow("megatron-gpt2-2.5b") << "megatron-gpt2-2.5b" << 2.5e9;
        QTest::newRow("megatron-gpt2-8.3b") << "megatron-gpt2-8.3b" << 8.3e9;
        QTest::newRow("gpt3-175b") << "gpt3-175b" << 174.6e9;
        QTest::newRow("opt-350m") << "opt-350m" << 331e6;
        QTest::newRow("opt-1.3b") << "opt-1.3b" << 1.3e9;
        QTest::newRow("llama2-7b") << "llama2-7b" << 6.74e9;
        // The Llama 3 Herd of Models (2024) and the released checkpoints: 8.03 B, 70.6 B, 405.9 B.
        QTest::newRow("llama3-8b") << "llama3-8b" << 8.03e9;
        QTest::newRow("llama3-70b") << "llama3-70b" << 70.6e9;
        QTest::newRow("llama3-405b") << "llama3-405b" << 405.9e9;
        // BLOOM (BigScience 2022): 176,247,271,424 parameters, as its model card counts them.
        QTest::newRow("bloom-176b") << "bloom-176b" << 176247271424.0;
    }
    void parameterCountsMatchPublishedNumbers() {
        QFETCH(QString, name);
        QFETCH(double, published);
        const std::string n = name.toStdString();
        const TransformerSpec& spec = specOf(n);
        const ModelGraph base = build(n, 1, 0, 1);
        const double count = base.parameterCount();
        QVERIFY2(rel(count, published) < 0.02, qPrintable(QString::number(count)));
        QCOMPARE(count, formulaParameters(spec));
        // Per-device bytes at t = 1 are the parameters at 2 bytes each.
        QCOMPARE(double(base.parameterBytes()), 2 * count);
        // Across widths: only the padding of the vocabulary to a multiple of t adds rows.
        for (std::int64_t t : {2, 4, 8}) {
            auto source = zooModel(n);
            auto graph = (*source)->build({1, 0, t, 2});
            const auto* ts = dynamic_cast<const TransformerSource*>(source->get());
            QCOMPARE(graph.ok(), ts->divisibilityProblem(t).empty());
            if (!graph.ok()) continue;
            const double padRows = double(t * ((spec.vocab + t - 1) / t) - spec.vocab);
            double perRow = double(spec.embeddingDim());
            if (!spec.tiedEmbeddings) perRow += double(spec.embeddingDim());
            if (spec.encoder) perRow += 1;  // the MLM decoder bias is vocabulary-parallel
            QCOMPARE(graph->parameterCount(), count + padRows * perRow);
        }
    }

    void gptTrainingFlopsMatchMegatron_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("b");
        QTest::addColumn<qint64>("t");
        for (const char* n : {"gpt2-xl", "megatron-gpt2-2.5b", "megatron-gpt2-8.3b", "gpt3-175b"})
            for (qint64 t : {1, 2, 4, 8})
                for (qint64 b : {1, 4}) QTest::addRow("%s b=%lld t=%lld", n, b, t) << n << b << t;
    }
    void gptTrainingFlopsMatchMegatron() {
        QFETCH(QString, name);
        QFETCH(qint64, b);
        QFETCH(qint64, t);
        const TransformerSpec& spec = specOf(name.toStdString());
        auto source = zooModel(name.toStdString());
        auto graph = (*source)->build({b, 0, t, 2});
        if (!graph.ok()) {
            QVERIFY(spec.heads % t != 0);
            return;
        }
        const double B = double(b), s = double(spec.maxSequence), l = double(spec.layers);
        const double h = double(spec.hidden), V = double(spec.vocab);
        const double perDevice = graph->forwardGemmFlops() + graph->backwardGemmFlops();
        const double megatron = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
        QVERIFY2(rel(perDevice * double(t), megatron) < 0.02,
                 qPrintable(QString::number(rel(perDevice * double(t), megatron))));
        // Exact count: 3 passes of 24Bsh² + 4Bs²h per layer and 2BshV' for the logits, V'
        // being the vocabulary padded to a multiple of t.
        const double paddedV = double(t * ((spec.vocab + t - 1) / t));
        const double exact =
            3 * (l * (24 * B * s * h * h + 4 * B * s * s * h) + 2 * B * s * h * paddedV);
        QVERIFY(rel(perDevice * double(t), exact) < 1e-12);
    }

    void acceptanceGpt3At8() {
        const ModelGraph g = build("gpt3-175b", 1, 0, 8);
        QCOMPARE(g.options().sequenceLength, 2048);
        const double F = 72.0 * 2048 * 96 * 12288.0 * 12288.0 *
                         (1 + 2048.0 / (6 * 12288) + 50257.0 / (16 * 96 * 12288.0));
        const double total = (g.forwardGemmFlops() + g.backwardGemmFlops()) * 8;
        QVERIFY(rel(total, F) < 0.02);
        QVERIFY(g.forwardFlops() > g.forwardGemmFlops());
        QVERIFY(g.backwardFlops() > g.backwardGemmFlops());
    }

    void backwardGemmFlopsAreTwiceForwardEverywhere() {
        for (const ZooEntry& entry : zooModels()) {
            const ModelGraph g = build(entry.name, 2, 256, 1);
            for (const auto& graph : g.uniqueGraphs()) {
                // Embeddings are lookups: no GEMM except OPT-350m's projection.
                if (graph->kind() != "embedding") QVERIFY(graph->forwardGemmFlops() > 0);
                const double twice = 2 * graph->forwardGemmFlops();
                QVERIFY(std::abs(graph->backwardGemmFlops() - twice) <= 1e-15 * twice);
            }
        }
    }

    void tensorParallelSplitsGemmsAndAddsMegatronAllReduces() {
        for (const char* name : {"megatron-gpt2-8.3b", "llama2-7b", "bert-large", "opt-1.3b"}) {
            const TransformerSpec& spec = specOf(name);
            const std::int64_t b = 2, s = 128;
            const ModelGraph base = build(name, b, s, 1, false);
            const LayerGraph& block1 = *base.layers()[1].graph;
            for (const Operator& op : block1.forward())
                QVERIFY(op.opClass != OpClass::Collective && op.collectiveBytes == 0);
            for (const Operator& op : block1.backward()) QVERIFY(op.opClass != OpClass::Collective);
            for (std::int64_t t : {2, 4, 8}) {
                const ModelGraph split = build(name, b, s, t, false);
                const LayerGraph& block = *split.layers()[1].graph;
                std::map<std::string, const Operator*> before;
                for (const Operator& op : block1.forward()) before[op.name] = &op;
                std::vector<std::string> added;
                for (const Operator& op : block.forward()) {
                    const auto it = before.find(op.name);
                    if (it == before.end()) {
                        added.push_back(op.name);
                        continue;
                    }
                    const double factor = op.sharded ? double(t) : 1.0;
                    QCOMPARE(op.flops() * factor, it->second->flops());
                    QCOMPARE(double(op.parameterBytes) * factor,
                             double(it->second->parameterBytes));
                }
                const std::vector<std::string> megatron = {"attn.f", "attn.g", "mlp.f", "mlp.g"};
                std::sort(added.begin(), added.end());
                QCOMPARE(added, megatron);
                const std::int64_t bytes = b * s * spec.hidden * 2;
                for (const auto* ops : {&block.forward(), &block.backward()}) {
                    int collectives = 0;
                    for (const Operator& op : *ops) {
                        if (op.opClass != OpClass::Collective) continue;
                        ++collectives;
                        QCOMPARE(op.collectiveBytes, bytes);
                        QCOMPARE(op.groupSize, t);
                    }
                    QCOMPARE(collectives, 2);
                }
                QCOMPARE(block.forwardGemmFlops() * double(t), block1.forwardGemmFlops());
            }
        }
    }

    void savedActivationsMatchKorthikanti() {
        // Per block, bytes at 2 bytes per element: sbh(10 + 24/t) + 5as²b/t with GELU and
        // dropout (Korthikanti et al. 2022, Table 2). ReLU needs no 8sbh copy of its input (fc2
        // keeps its output); Llama has no dropout (no masks, one copy of the probabilities) and
        // SwiGLU keeps gate and up outputs (4sbF) and fc2's input (2sbF).
        for (const ZooEntry& entry : zooModels()) {
            const TransformerSpec& spec = specOf(entry.name);
            for (std::int64_t t : {1, 2, 4}) {
                auto source = zooModel(entry.name);
                const std::int64_t b = 2, s = 256;
                BuildOptions options{b, s, t, 2};
                options.softmaxShapeRule = false;  // the fused kernel, as Korthikanti et al.
                auto graph = (*source)->build(options);
                if (!graph.ok()) continue;
                const double sbh = double(s * b * spec.hidden), a = double(spec.heads);
                const double attention = double(s * s * b) * a / double(t);
                const double T = double(t);
                double expected = 0;
                if (spec.family == "llama") {
                    // Q and the context output, plus K and V at kv heads / heads (GQA).
                    const double g = double(spec.kvHeadCount()) / a;
                    expected = sbh * (8 + (4 + 4 * g) / T) + 6.0 * double(s * b * spec.ffn) / T +
                               2 * attention;
                } else {
                    // Without dropout (BLOOM) no masks (sbh each after attention and MLP, as²b/t
                    // of the probabilities) and no dropped-out probabilities (2as²b/t).
                    const double mlp = spec.activation == Activation::Relu ? 8 : 16;
                    expected = spec.dropout ? sbh * (10 + (8 + mlp) / T) + 5 * attention
                                            : sbh * (8 + (8 + mlp) / T) + 2 * attention;
                    if (spec.activation == Activation::Gelu && t == 1 && spec.dropout) {
                        const double korthikanti =
                            sbh * (34 + 5 * a * double(s) / double(spec.hidden));
                        QVERIFY(rel(double(graph->layers()[1].graph->savedBytes()), korthikanti) <
                                0.15);
                    }
                }
                QCOMPARE(double(graph->layers()[1].graph->savedBytes()), expected);
            }
        }
    }

    void chainStructure() {
        const ModelGraph g = build("gpt2-xl", 4, 512, 1);
        QCOMPARE(g.layers().size(), std::size_t(50));
        QCOMPARE(g.uniqueGraphs().size(), std::size_t(3));
        QVERIFY(g.isChain());
        QCOMPARE(g.layers().front().name, std::string("embedding"));
        QCOMPARE(g.layers()[1].name, std::string("layer.0"));
        QCOMPARE(g.layers().back().name, std::string("head"));
        QCOMPARE(g.layers()[1].graph.get(), g.layers()[48].graph.get());
        for (const LayerEdge& e : g.edges()) QCOMPARE(e.bytes, std::int64_t(4) * 512 * 1600 * 2);
        for (const Layer& layer : g.layers()) QVERIFY(!layer.tensorParallel);
        const ModelGraph split = build("megatron-gpt2-8.3b", 1, 0, 4);
        for (const Layer& layer : split.layers()) QVERIFY(layer.tensorParallel);
        // The tied logits weights are held by the head but counted with the embedding.
        QCOMPARE(g.layers().back().graph->tiedParameterBytes(), std::int64_t(50257) * 1600 * 2);
    }

    void tensorParallelWidthsFollowTheSpec() {
        const std::map<std::string, std::vector<std::int64_t>> expected = {
            {"bert-large", {1}},
            {"gpt2-xl", {1}},
            {"megatron-gpt2-2.5b", {1, 2, 4}},
            {"gpt3-175b", {4, 8}},
            {"megatron-gpt2-8.3b", {1, 2, 4, 8}},
            {"opt-350m", {1}},
            {"opt-1.3b", {1, 2, 4, 8}},
            {"llama2-7b", {1}},
            {"llama3-8b", {1, 2, 4, 8}},
            {"llama3-70b", {4, 8}},
            {"llama3-405b", {8}},
            {"bloom-176b", {4, 8}}};
        for (const auto& [name, widths] : expected)
            QCOMPARE((*zooModel(name))->tensorParallelWidths(), widths);
        TransformerSpec spec = specOf("gpt2-xl");
        spec.tensorParallelWidths.clear();
        QCOMPARE((*TransformerSource::create(spec))->tensorParallelWidths(),
                 (std::vector<std::int64_t>{1, 5}));
    }

    void buildErrorsAreValues() {
        auto gpt2 = *zooModel("gpt2-xl");
        auto expectError = [](const Expected<ModelGraph>& g, const char* needle) {
            QVERIFY2(!g.ok(), needle);
            QVERIFY2(g.message().find(needle) != std::string::npos, g.message().c_str());
        };
        expectError(gpt2->build({1, 0, 2, 2}), "25 heads are not divisible by t = 2");
        expectError(gpt2->build({0, 0, 1, 2}), "microbatch size 0");
        expectError(gpt2->build({1, 2048, 1, 2}), "sequence length 2048 exceeds");
        expectError(gpt2->build({1, -3, 1, 2}), "sequence length -3");
        expectError(gpt2->build({1, 0, 0, 2}), "t = 0");
        expectError(gpt2->build({1'000'000'000'000'000, 0, 1, 2}), "overflow");
        expectError((*zooModel("llama2-7b"))->build({1, 0, 3, 2}), "not divisible by t = 3");
        QCOMPARE(gpt2->build({1, 0, 1, 2})->options().sequenceLength, 1024);
        TransformerSpec spec = specOf("gpt2-xl");
        spec.hidden = std::int64_t(1) << 40;
        spec.heads = 1;
        spec.ffn = std::int64_t(1) << 40;
        auto huge = TransformerSource::create(spec);
        QVERIFY(huge.ok());
        expectError((*huge)->build({1, 0, 1, 2}), "overflow");
        spec = specOf("gpt2-xl");
        spec.hidden = 1601;
        QVERIFY(TransformerSource::create(spec).message().find("1601") != std::string::npos);
        spec = specOf("gpt2-xl");
        spec.layers = 0;
        QVERIFY(TransformerSource::create(spec).message().find("layers = 0") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestModelTransformer)
#include "test_model_transformer.moc"
