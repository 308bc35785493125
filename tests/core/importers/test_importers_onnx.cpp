// ONNX import: the generated files of tests/data/importers/make_onnx.py import with the layers,
// GEMM shapes, FLOPs and weights computed by hand from the generator's constants, build the same
// graph from several threads, and flow through estimate → schedule → place.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <map>
#include <thread>

#include "core/estimate/model_estimate.h"
#include "core/hardware/preset_library.h"
#include "core/importers/model_loader.h"
#include "core/importers/onnx_source.h"
#include "core/importers/onnx_wire_reader.h"
#include "core/model/vector_op_costs.h"
#include "core/placement/model_placement.h"
#include "core/schedule/model_schedule.h"
#include "importer_test_helpers.h"
#include "test_paths.h"

using namespace tandem::core;
using namespace tandem::core::importers;

using importer_test::contains;
using importer_test::gemm;
using importer_test::onnxPath;
using importer_test::options;

namespace {

// The generator's GPT-style constants and the build used below.
constexpr std::int64_t V = 40, P = 32, H = 24, NH = 3, D = 8, F = 96, BLOCKS = 2;
constexpr std::int64_t B = 2, S = 16, T = B * S;

std::map<std::string, const model::Operator*> operatorsOf(const model::LayerGraph& graph) {
    std::map<std::string, const model::Operator*> ops;
    for (const model::Operator& op : graph.forward()) ops[op.name] = &op;
    return ops;
}

}  // namespace

class TestImportersOnnx : public QObject {
    Q_OBJECT

    static model::ModelGraph buildGpt(const std::string& file) {
        const auto loaded = loadModelWithReport(onnxPath(file));
        if (!loaded) qFatal("%s", loaded.message().c_str());
        auto graph = loaded->source->build(options(B, S));
        if (!graph) qFatal("%s", graph.message().c_str());
        return std::move(*graph);
    }

private slots:
    void gptBlockLayersAndGemms() {
        const auto loaded = loadModelWithReport(onnxPath("gpt_block.onnx"));
        QVERIFY2(loaded, loaded ? "" : loaded.message().c_str());
        QCOMPARE(loaded->format, std::string("onnx"));
        QVERIFY(loaded->warnings.empty());
        QCOMPARE(loaded->source->name(), std::string("gpt_block"));
        QCOMPARE(loaded->source->tensorParallelWidths(), (std::vector<std::int64_t>{1}));
        QCOMPARE(loaded->source->defaultSequenceLength(), OnnxSource::kDefaultSequenceLength);
        const auto graph = loaded->source->build(options(B, S));
        QVERIFY2(graph, graph ? "" : graph.message().c_str());
        QCOMPARE(graph->options().microbatch, B);
        QCOMPARE(graph->options().sequenceLength, S);

        // Embedding, the two named blocks, the head; the blocks share one graph.
        std::vector<std::string> names;
        for (const auto& layer : graph->layers()) names.push_back(layer.name);
        QCOMPARE(names, (std::vector<std::string>{"prologue", "h.0", "h.1", "epilogue"}));
        QCOMPARE(graph->uniqueGraphs().size(), std::size_t(3));
        QVERIFY(graph->layers()[1].graph == graph->layers()[2].graph);
        QVERIFY(graph->isChain());
        for (const auto& edge : graph->edges()) QCOMPARE(edge.bytes, T * H * 2);

        // 36 nodes per block, 6 of them Constants folded away.
        const auto block = operatorsOf(*graph->layers()[1].graph);
        QCOMPARE(block.size(), std::size_t(30));
        QCOMPARE(block.at("attn/c_attn/MatMul")->gemm, gemm(1, T, 3 * H, H));
        QCOMPARE(block.at("attn/MatMul")->gemm, gemm(B * NH, S, S, D));
        QCOMPARE(block.at("attn/MatMul_1")->gemm, gemm(B * NH, S, D, S));
        QCOMPARE(block.at("attn/c_proj/MatMul")->gemm, gemm(1, T, H, H));
        QCOMPARE(block.at("mlp/c_fc/MatMul")->gemm, gemm(1, T, F, H));
        QCOMPARE(block.at("mlp/c_proj/MatMul")->gemm, gemm(1, T, H, F));
        QVERIFY(block.at("attn/MatMul")->backwardRule == model::BackwardRule::ActivationGemm);
        QVERIFY(block.at("mlp/c_fc/MatMul")->backwardRule == model::BackwardRule::WeightGemm);
        QVERIFY(block.at("attn/Reshape")->opClass == model::OpClass::Nop);
        QVERIFY(block.at("attn/Softmax")->opClass == model::OpClass::VectorCore);
        QCOMPARE(block.at("attn/Softmax")->cyclesPerElement,
                 model::vector_op_costs::kSoftmaxForward);
        QCOMPARE(block.at("mlp/act/Erf")->cyclesPerElement, model::vector_op_costs::kTanhForward);
        QCOMPARE(block.at("attn/c_attn/Add")->kind, std::string("bias_add"));
        QCOMPARE(block.at("Add_1")->streamedTensors, std::int64_t(3));  // residual: 2 in, 1 out
        const auto head = operatorsOf(*graph->layers()[3].graph);
        QCOMPARE(head.size(), std::size_t(2));  // the transpose of the tied weight is folded
        QCOMPARE(head.at("lm_head/MatMul")->gemm, gemm(1, T, V, H));
    }

    void gptBlockFlopsAndWeights() {
        const model::ModelGraph graph = buildGpt("gpt_block.onnx");
        // Hand count: GEMMs 2·b·m·n·k; vector ops one FLOP per element.
        const double blockGemm = 2.0 * (T * 3 * H * H + B * NH * S * S * D + B * NH * S * D * S +
                                        T * H * H + T * F * H + T * H * F);
        const double gemmFlops = BLOCKS * blockGemm + 2.0 * T * V * H;
        const double blockVector = T * H                    // ln_1
                                   + T * 3 * H              // qkv bias
                                   + 2.0 * B * NH * S * S   // scale, softmax
                                   + T * H + T * H + T * H  // proj bias, residual, ln_2
                                   + T * F + 5.0 * T * F    // fc bias, exact GELU (5 ops)
                                   + T * H + T * H;         // down bias, residual
        const double vectorFlops = BLOCKS * blockVector + 3.0 * T * H + T * H;
        QCOMPARE(graph.forwardGemmFlops(), gemmFlops);
        QCOMPARE(graph.backwardGemmFlops(), 2 * gemmFlops);  // dX+dW or dA+dB per GEMM
        QCOMPARE(graph.forwardFlops(), gemmFlops + vectorFlops);
        const std::int64_t perBlock =
            2 * H + H * 3 * H + 3 * H + H * H + H + 2 * H + H * F + F + F * H + H;
        const std::int64_t weights = V * H + P * H + BLOCKS * perBlock + 2 * H;
        QCOMPARE(graph.parameterCount(), double(weights));
        QCOMPARE(graph.parameterBytes(), weights * 2);
        // Tied output head: the embedding is owned by the prologue, held again by the epilogue.
        QCOMPARE(graph.layers()[0].graph->parameterBytes(), (V * H + P * H) * 2);
        QCOMPARE(graph.layers()[3].graph->tiedParameterBytes(), V * H * 2);
    }

    void symbolicDimensionsFollowTheBuild() {
        const auto source = loadModel(onnxPath("gpt_block.onnx"));
        QVERIFY(source);
        const auto graph = (*source)->build(options(3, 40));
        QVERIFY(graph);
        const auto block = operatorsOf(*graph->layers()[1].graph);
        QCOMPARE(block.at("attn/MatMul")->gemm, gemm(3 * NH, 40, 40, D));
        QCOMPARE(block.at("mlp/c_fc/MatMul")->gemm, gemm(1, 120, F, H));
        model::BuildOptions split = options(1, 16);
        split.tensorParallel = 2;
        const auto refused = (*source)->build(split);
        QVERIFY(!refused);
        QVERIFY2(contains(refused.message(), "t must be 1"), refused.message().c_str());
        const auto defaults = (*source)->build({});
        QVERIFY(defaults);
        QCOMPARE(defaults->options().sequenceLength, OnnxSource::kDefaultSequenceLength);
    }

    void externalWeightsAreNeverRead() {
        QVERIFY(!std::filesystem::exists(onnxPath("gpt_block_external.bin")));
        const auto structure = readOnnxStructure(onnxPath("gpt_block_external.onnx"));
        QVERIFY2(structure, structure ? "" : structure.message().c_str());
        const model::ModelGraph inline_ = buildGpt("gpt_block.onnx");
        const model::ModelGraph external = buildGpt("gpt_block_external.onnx");
        QCOMPARE(external.parameterCount(), inline_.parameterCount());
        QCOMPARE(external.forwardFlops(), inline_.forwardFlops());
        QCOMPARE(external.layers().size(), inline_.layers().size());
        for (std::size_t i = 0; i < external.layers().size(); ++i)
            QCOMPARE(external.layers()[i].graph->signature(),
                     inline_.layers()[i].graph->signature());
        // The inline file's weights are skipped, not read: 4 bytes per weight above the
        // 256-byte threshold are seeked over.
        const auto inlineStructure = readOnnxStructure(onnxPath("gpt_block.onnx"));
        QVERIFY(inlineStructure);
        QVERIFY(inlineStructure->skippedPayloadBytes > 4 * 15000);
        QVERIFY(inlineStructure->bytes.size() < 12000);
    }

    void cnnConvolutionsLowerToGemms() {
        const auto source = loadModel(onnxPath("cnn.onnx"));
        QVERIFY2(source, source ? "" : source.message().c_str());
        QCOMPARE((*source)->defaultSequenceLength(), std::int64_t(1));
        const auto graph = (*source)->build(options(B, 0));
        QVERIFY2(graph, graph ? "" : graph.message().c_str());
        QCOMPARE(graph->layers().size(), std::size_t(1));  // no block names: one layer
        const auto ops = operatorsOf(*graph->layers()[0].graph);
        // conv1: 3→8 channels, 3×3, same padding on 8×8; conv2: 8→16 in 2 groups on 4×4.
        QCOMPARE(ops.at("features/conv1/Conv")->gemm, gemm(1, B * 8 * 8, 8, 3 * 9));
        QCOMPARE(ops.at("features/conv2/Conv")->gemm, gemm(2, B * 4 * 4, 16 / 2, 8 / 2 * 9));
        QCOMPARE(ops.at("classifier/Gemm")->gemm, gemm(1, B, 10, 16));
        // 2×2 max pooling with stride 2: 4 comparisons per output = 1 per input element.
        QCOMPARE(ops.at("features/pool/MaxPool")->elements, B * 8 * 8 * 8);
        QCOMPARE(ops.at("features/pool/MaxPool")->cyclesPerElement, 1.0);
        QCOMPARE(ops.at("pool/GlobalAveragePool")->elements, B * 16 * 4 * 4);
        QVERIFY(ops.at("Flatten")->opClass == model::OpClass::Nop);
        QCOMPARE(graph->parameterCount(), double(8 * 27 + 8 + 16 * 36 + 16 + 160 + 10));
        // No symbolic sequence: only the default builds.
        QVERIFY(!(*source)->build(options(B, 16)));
    }

    void unknownOperatorsWarnAndCostAsVectorWork() {
        const auto loaded = loadModelWithReport(onnxPath("unknown_op.onnx"));
        QVERIFY2(loaded, loaded ? "" : loaded.message().c_str());
        QCOMPARE(loaded->warnings.size(), std::size_t(1));
        QVERIFY2(contains(loaded->warnings[0], "com.example.FancyAct"),
                 loaded->warnings[0].c_str());
        const auto graph = loaded->source->build(options(5, 0));
        QVERIFY(graph);
        const auto ops = operatorsOf(*graph->layers()[0].graph);
        QVERIFY(ops.at("act/FancyAct")->opClass == model::OpClass::VectorCore);
        QCOMPARE(ops.at("act/FancyAct")->elements, std::int64_t(5 * 16));
        // Its output shape was assumed from its input, so the next GEMM is sized.
        QCOMPARE(ops.at("fc2/MatMul")->gemm, gemm(1, 5, 4, 16));
    }

    void concurrentBuildsAgree() {
        // The search builds one source from several threads at once.
        const auto source = loadModel(onnxPath("gpt_block.onnx"));
        QVERIFY(source);
        const model::ModelGraph reference = buildGpt("gpt_block.onnx");
        std::vector<std::string> signatures(8);
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < signatures.size(); ++i)
            threads.emplace_back([&, i] {
                const auto graph = (*source)->build(options(B, S));
                if (graph)
                    for (const auto& layer : graph->layers())
                        signatures[i] += layer.graph->signature();
            });
        for (auto& thread : threads) thread.join();
        std::string expected;
        for (const auto& layer : reference.layers()) expected += layer.graph->signature();
        for (const std::string& signature : signatures) QCOMPARE(signature, expected);
    }

    void flowsThroughEstimateScheduleAndPlace() {
        const auto source = loadModel(onnxPath("gpt_block.onnx"));
        QVERIFY(source);
        const auto hardware = hardware::PresetLibrary::preset("tpuv4-like");
        QVERIFY(hardware);
        const estimate::OperatorEstimator estimator(hardware->accelerator, hardware->cluster);
        const model::ModelGraph graph = buildGpt("gpt_block.onnx");
        const auto estimate = estimate::estimateModel(graph, estimator);
        QCOMPARE(estimate.layers.size(), std::size_t(4));
        QCOMPARE(estimate.totals.forwardFlops, graph.forwardFlops());
        const schedule::LayerScheduler scheduler;
        const auto schedules = schedule::scheduleModel(graph, estimator, scheduler);
        QVERIFY2(schedules, schedules ? "" : schedules.message().c_str());
        QVERIFY(schedules->allOptimal());
        // Oracle bounds: no faster than the slowest operator at its best, no slower than every
        // operator one after another on one core.
        for (std::size_t l = 0; l < graph.layers().size(); ++l) {
            const auto& table = estimate.layers[l].table;
            double slowest = 0, serial = 0;
            for (const auto& cost : table.forward) {
                slowest = std::max(slowest, std::min(cost.oneCoreSeconds, cost.allCoresSeconds));
                serial += cost.oneCoreSeconds;
            }
            const double makespan = schedules->forwardSeconds(l);
            QVERIFY(makespan > 0);
            QVERIFY(makespan >= slowest * (1 - 1e-12));
            QVERIFY(makespan <= serial * (1 + 1e-12));
        }
        placement::ModelPlacementRequest request;
        request.model = *source;
        request.hardware = *hardware;
        request.training.globalBatch = 64;
        request.training.microbatch = B;
        request.training.sequenceLength = S;
        const auto placed = placement::placeModel(request);
        QVERIFY2(placed, placed ? "" : placed.message().c_str());
        QVERIFY2(placed->result.plan, placed->result.infeasibleReason.c_str());
        const placement::Plan& plan = *placed->result.plan;
        QCOMPARE(plan.tensorParallel, std::int64_t(1));
        std::size_t placedLayers = 0;
        for (const auto& stage : plan.stages) placedLayers += stage.layers.size();
        QCOMPARE(placedLayers, std::size_t(4));
        // No plan beats perfect division of all the work over the cluster.
        double work = 0;
        for (std::size_t l = 0; l < graph.layers().size(); ++l)
            work += schedules->forwardSeconds(l) + schedules->backwardSeconds(l);
        const double microbatches = double(request.training.globalBatch / B);
        QVERIFY(plan.timePerBatchSeconds > 0);
        QVERIFY(plan.timePerBatchSeconds >=
                work * microbatches / double(hardware->cluster.devices) * (1 - 1e-9));
    }
};

QTEST_GUILESS_MAIN(TestImportersOnnx)
#include "test_importers_onnx.moc"
