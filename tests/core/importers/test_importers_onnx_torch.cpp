// Real exports: a GPT and a BERT written in plain PyTorch and exported by torch.onnx.export with
// symbolic `batch` and `sequence` axes (tests/data/importers/onnx/export_torch_models.py). Their
// attention reshapes take their targets from Shape → Gather → Div → Unsqueeze → Concat at run
// time, their positions from Range, their masks from Slice/Equal/Where, so a build must bind the
// symbolic dimensions and fold those shape computations. Parameter counts are the script's
// sum(p.numel()), written as formulas; GEMM FLOPs are 2·m·n·k per matrix product counted by hand,
// attention's q·kᵀ and probabilities·v included, at several bindings of batch and sequence.
#include <QtTest>

#include <map>

#include "core/importers/model_loader.h"
#include "core/importers/onnx_source.h"
#include "importer_test_helpers.h"
#include "test_paths.h"

using namespace tandem::core;
using namespace tandem::core::importers;

using importer_test::contains;
using importer_test::gemm;
using importer_test::onnxPath;
using importer_test::options;

namespace {

// The script's constants: vocabulary, context (positions), width, heads, head size, blocks.
constexpr std::int64_t V = 256, C = 64, D = 64, H = 4, HD = D / H, L = 2;

std::map<std::string, model::Operator> operatorsOf(const model::LayerGraph& graph) {
    std::map<std::string, model::Operator> ops;
    for (const model::Operator& op : graph.forward()) ops[op.name] = op;
    return ops;
}

std::vector<std::string> layerNames(const model::ModelGraph& graph) {
    std::vector<std::string> names;
    for (const auto& layer : graph.layers()) names.push_back(layer.name);
    return names;
}

// 2·m·n·k of attention's two batched products (q·kᵀ and probabilities·v) in one block.
double attentionFlops(std::int64_t b, std::int64_t s) {
    return 2.0 * (2.0 * double(b * H) * double(s) * double(s) * double(HD));
}

const std::vector<std::pair<std::int64_t, std::int64_t>> kBindings{{1, 64}, {3, 40}, {2, 17}};

}  // namespace

class TestImportersOnnxTorch : public QObject {
    Q_OBJECT

    static std::shared_ptr<const model::ModelSource> load(const std::string& file) {
        const auto loaded = loadModelWithReport(onnxPath(file));
        if (!loaded) qFatal("%s", loaded.message().c_str());
        if (!loaded->warnings.empty()) qFatal("%s", loaded->warnings.front().c_str());
        return loaded->source;
    }

private slots:
    void gptParameters() {
        const auto source = load("torch_gpt.onnx");
        const auto graph = source->build(options(2, 16));
        QVERIFY2(graph, graph ? "" : graph.message().c_str());
        // wte + wpe, per block ln_1 (2d) + c_attn (3d² + 3d) + c_proj (d² + d) + ln_2 (2d) +
        // c_fc (4d² + 4d) + c_proj (4d² + d) = 12d² + 13d, ln_f, untied head (V·d).
        const std::int64_t parameters = V * D + C * D + L * (12 * D * D + 13 * D) + 2 * D + V * D;
        QCOMPARE(parameters, std::int64_t(136960));  // the script's sum(p.numel())
        QCOMPARE(graph->parameterCount(), double(parameters));
        QCOMPARE(layerNames(*graph),
                 (std::vector<std::string>{"prologue", "h.0", "h.1", "epilogue"}));
        QVERIFY(graph->layers()[1].graph == graph->layers()[2].graph);
    }

    void tiedHeadIsCountedOnce() {
        // GPT-2 ties its LM head to the token embedding; the export stores the weight twice
        // (wte.weight [V, d] and a transposed copy [d, V] for the head's MatMul).
        const auto source = load("torch_gpt_tied.onnx");
        const auto graph = source->build(options(2, 16));
        QVERIFY2(graph, graph ? "" : graph.message().c_str());
        const std::int64_t parameters = V * D + C * D + L * (12 * D * D + 13 * D) + 2 * D;
        QCOMPARE(parameters, std::int64_t(120576));  // the script's sum(p.numel())
        QCOMPARE(graph->parameterCount(), double(parameters));
        // The head still holds the weight in memory (as Megatron keeps a copy on the last
        // stage): tied, not owned.
        const auto& head = *graph->layers().back().graph;
        QCOMPARE(head.tiedParameterBytes(), V * D * 2);
        // The untied export of the same architecture is unaffected (different values).
        const auto untied = load("torch_gpt.onnx")->build(options(2, 16));
        QVERIFY(untied);
        QCOMPARE(untied->parameterCount(), double(parameters + V * D));
        QCOMPARE(untied->layers().back().graph->tiedParameterBytes(), std::int64_t(0));
    }

    void gptGemmsFollowTheBinding() {
        const auto source = load("torch_gpt.onnx");
        for (const auto& [b, s] : kBindings) {
            const auto graph = source->build(options(b, s));
            QVERIFY2(graph, graph ? "" : graph.message().c_str());
            const std::int64_t T = b * s;
            const auto block = operatorsOf(*graph->layers()[1].graph);
            QCOMPARE(block.at("attn/c_attn/MatMul").gemm, gemm(1, T, 3 * D, D));
            QCOMPARE(block.at("attn/MatMul").gemm, gemm(b * H, s, s, HD));
            QCOMPARE(block.at("attn/MatMul_1").gemm, gemm(b * H, s, HD, s));
            QCOMPARE(block.at("attn/c_proj/MatMul").gemm, gemm(1, T, D, D));
            QCOMPARE(block.at("mlp/c_fc/MatMul").gemm, gemm(1, T, 4 * D, D));
            QCOMPARE(block.at("mlp/c_proj/MatMul").gemm, gemm(1, T, D, 4 * D));
            const double perBlock =
                2.0 * double(T) * (3 * D * D + D * D + 8 * D * D) + attentionFlops(b, s);
            const double head = 2.0 * double(T) * double(D * V);
            QCOMPARE(graph->forwardGemmFlops(), double(L) * perBlock + head);
        }
    }

    void gptContextLimitsTheSequence() {
        // The causal mask buffer holds C positions: the default becomes C, and longer
        // sequences are refused at the node that cannot broadcast.
        const auto source = load("torch_gpt.onnx");
        QCOMPARE(source->defaultSequenceLength(), C);
        const auto longer = source->build(options(1, 2 * C));
        QVERIFY(!longer);
        QVERIFY2(contains(longer.message(), "torch_gpt.onnx") &&
                     contains(longer.message(), "node '/h.0/attn/Where' (Where)") &&
                     contains(longer.message(), "[1, 1, 64, 64]") &&
                     contains(longer.message(), "[1, 4, 128, 128]") &&
                     contains(longer.message(), "sequence length 128") &&
                     contains(longer.message(), "builds at sequence length 64"),
                 longer.message().c_str());
    }

    void bertParameters() {
        const auto source = load("torch_bert.onnx");
        QCOMPARE(source->defaultSequenceLength(), C);
        const auto graph = source->build(options(2, 16));
        QVERIFY2(graph, graph ? "" : graph.message().c_str());
        // word + position + 2 token types, embedding LayerNorm; per block q, k, v, output
        // (4d² + 4d), 2 LayerNorms (4d), intermediate (4d² + 4d), output (4d² + d) = 12d² + 13d;
        // pooler (d² + d).
        const std::int64_t parameters =
            (V + C + 2) * D + 2 * D + L * (12 * D * D + 13 * D) + D * D + D;
        QCOMPARE(parameters, std::int64_t(124864));  // the script's sum(p.numel())
        QCOMPARE(graph->parameterCount(), double(parameters));
        QCOMPARE(layerNames(*graph),
                 (std::vector<std::string>{"prologue", "layer.0", "layer.1", "epilogue"}));
    }

    void bertGemmsFollowTheBinding() {
        const auto source = load("torch_bert.onnx");
        for (const auto& [b, s] : kBindings) {
            const auto graph = source->build(options(b, s));
            QVERIFY2(graph, graph ? "" : graph.message().c_str());
            const std::int64_t T = b * s;
            const auto block = operatorsOf(*graph->layers()[1].graph);
            QCOMPARE(block.at("attention/query/MatMul").gemm, gemm(1, T, D, D));
            QCOMPARE(block.at("attention/MatMul").gemm, gemm(b * H, s, s, HD));
            QCOMPARE(block.at("attention/MatMul_1").gemm, gemm(b * H, s, HD, s));
            QCOMPARE(block.at("intermediate/MatMul").gemm, gemm(1, T, 4 * D, D));
            QCOMPARE(block.at("output/MatMul").gemm, gemm(1, T, D, 4 * D));
            const auto epilogue = operatorsOf(*graph->layers()[3].graph);
            QCOMPARE(epilogue.at("pooler/Gemm").gemm, gemm(1, b, D, D));  // the first token only
            const double perBlock =
                2.0 * double(T) * (4 * D * D + 8 * D * D) + attentionFlops(b, s);
            const double pooler = 2.0 * double(b) * double(D * D);
            QCOMPARE(graph->forwardGemmFlops(), double(L) * perBlock + pooler);
        }
    }
};

QTEST_GUILESS_MAIN(TestImportersOnnxTorch)
#include "test_importers_onnx_torch.moc"
