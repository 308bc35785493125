// Overlap as a schedule (issue 26, item 4; docs/cost-model.md, "Overlap"). The one formula
// against a simulated two-resource pipeline; --tp-comm-overlap on a GPT layer against the
// formula fed with the estimator's own costs (whole and chunked GEMMs, the collectives);
// --overlap-grad-reduce and --overlap-param-gather on a plan against Megatron-Core's buckets and
// the stage's own passes; and the combinations Megatron-Core refuses.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "core/estimate/comm_overlap.h"
#include "core/estimate/layer_cost_table.h"
#include "core/estimate/tp_comm_overlap.h"
#include "core/hardware/parameter_registry.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/placement/cost_model.h"
#include "core/placement/fixed_strategy.h"

using namespace tandem::core;
using estimate::kConcurrent;
using estimate::pipelinedOverlap;

namespace {

// Chunk i of the compute ends at (i + 1)·g; its collective chunk starts then or when the one
// before ends. What is left after the compute is exposed.
double simulateAfterCompute(double comm, double compute, int k) {
    const double c = comm / k, g = compute / k;
    double linkFree = 0;
    for (int i = 0; i < k; ++i) linkFree = std::max(linkFree, (i + 1) * g) + c;
    return linkFree - compute;
}

// A ring exchange: the first compute chunk is the rank's own; chunk j (j ≥ 1) waits for
// exchange step j, the steps one after another on the link.
double simulateRingExchange(double comm, double compute, int k) {
    const double step = comm / (k - 1), g = compute / k;
    double coresFree = g;
    for (int j = 1; j < k; ++j) coresFree = std::max(coresFree, j * step) + g;
    return coresFree - compute;
}

const model::Operator& named(const std::vector<model::Operator>& ops, const std::string& name,
                             std::size_t* index = nullptr) {
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i].name == name) {
            if (index) *index = i;
            return ops[i];
        }
    qFatal("no operator %s", name.c_str());
}

double chunked(const estimate::OperatorEstimator& e, model::Operator op, std::int64_t k) {
    op.gemm.m = (op.gemm.m + k - 1) / k;
    return double(k) * e.estimate(op).allCoresSeconds;
}

// One stage of a 4-layer GPT whose layers hold 100 M bf16 parameters each, d replicas in one
// node; mixed-precision Adam.
placement::PlacementProblem bigGpt(const hardware::TrainingConfig& training) {
    placement::PlacementProblem pb;
    placement::LayerCostSet set;
    set.layers.push_back({"embedding", 0.001, 0.002, 1e8, 1e6, 1e6, false});
    for (int i = 0; i < 4; ++i)
        set.layers.push_back({"layer." + std::to_string(i), 0.01, 0.02, 2e8, 1e7, 1e6, false});
    set.layers.push_back({"head", 0.002, 0.004, 1e8, 1e6, 1e6, false});
    for (int i = 1; i < 6; ++i) set.edges.push_back({i - 1, i, 1e6});
    pb.widths.push_back(set);
    pb.cluster.devices = 8;
    pb.cluster.devicesPerNode = 8;
    pb.cluster.intraNodeBandwidthBytesPerSecond = 1e11;
    pb.cluster.collectiveEfficiency = 0.8;
    pb.cluster.hopLatencySeconds = 5e-6;
    pb.training = training;
    pb.training.globalBatch = 64;
    pb.training.optimizer = hardware::Optimizer::Adam;
    pb.hbmCapacityBytes = 80e9;
    pb.memoryBandwidthBytesPerSecond = 2e12;
    pb.collectiveComputeShare = 0.125;
    return pb;
}

placement::Plan planOf(const hardware::TrainingConfig& training) {
    placement::FixedStrategy fixed;
    fixed.dataParallel = 8;
    fixed.transformerLayers = 4;
    const auto r =
        placement::evaluateFixedStrategy(bigGpt(training), fixed, placement::CostModelKind::Native);
    if (!r.ok() || !r->plan) qFatal("the big GPT does not evaluate");
    return *r->plan;
}

}  // namespace

class TestOverlap : public QObject {
    Q_OBJECT

private slots:
    void theFormulaIsASimulatedPipeline() {
        std::mt19937 random(26);
        std::uniform_real_distribution<double> seconds(0.0, 10.0);
        for (int trial = 0; trial < 2000; ++trial) {
            const double comm = seconds(random), compute = seconds(random);
            const int k = 2 + trial % 9;
            const double after = pipelinedOverlap(comm, compute, k, 0.0).exposedSeconds;
            QVERIFY(std::abs(after - simulateAfterCompute(comm, compute, k)) < 1e-9);
            const double ring = pipelinedOverlap(comm, compute, k, 0.0, true).exposedSeconds;
            QVERIFY(std::abs(ring - simulateRingExchange(comm, compute, k)) < 1e-9);
            QCOMPARE(pipelinedOverlap(comm, compute, kConcurrent, 0.0).exposedSeconds,
                     std::max(0.0, comm - compute));
            QCOMPARE(pipelinedOverlap(comm, compute, 1, 0.0).exposedSeconds, comm);
        }
    }

    void theCollectivesCoresAreExposed() {
        // 3 s beside 10 s of compute in 4 chunks: 0.75 s exposed, 2.25 s hidden; a quarter of
        // the cores taken while it hides exposes a quarter of the hidden time.
        const auto plain = pipelinedOverlap(3.0, 10.0, 4, 0.0);
        QCOMPARE(plain.exposedSeconds, 0.75);
        QCOMPARE(plain.hiddenSeconds, 2.25);
        const auto shared = pipelinedOverlap(3.0, 10.0, 4, 0.25);
        QCOMPARE(shared.exposedSeconds, 0.75 + 0.25 * 2.25);
        QCOMPARE(shared.exposedSeconds + shared.hiddenSeconds, 3.0);
        QCOMPARE(pipelinedOverlap(0.0, 10.0, 4, 0.25).exposedSeconds, 0.0);
    }

    void tensorParallelCommOverlapsItsGemms() {
        const auto hardware = hardware::PresetLibrary::resolveHardware("h100-80gb");
        QVERIFY(hardware.ok());
        const auto model = model::zooModel("gpt3-175b");
        QVERIFY(model.ok());
        model::BuildOptions options;
        options.tensorParallel = 8;
        options.sequenceParallel = true;
        options.bytesPerElement = 2;
        const auto graph = (*model)->build(options);
        QVERIFY2(graph.ok(), graph.ok() ? "" : graph.message().c_str());
        const estimate::OperatorEstimator e(hardware->accelerator, hardware->cluster);
        const model::LayerGraph& layer = *graph->layers()[1].graph;
        const auto plain = estimate::LayerCostTable::build(e, layer, false);
        const auto overlapped = estimate::LayerCostTable::build(e, layer, true);
        const double share = hardware->accelerator.collectiveComputeShare;
        QVERIFY(share > 0.1 && share < 0.13);  // 16 of 132 SMs

        // attn.f: a ring exchange with qkv in t = 8 chunks of its rows, no cores taken.
        std::size_t f = 0, qkv = 0, g = 0, out = 0;
        named(layer.forward(), "attn.f", &f);
        const model::Operator& qkvOp = named(layer.forward(), "attn.qkv", &qkv);
        const double comm = plain.forward[f].allCoresSeconds;
        const double whole = plain.forward[qkv].allCoresSeconds;
        const double pieces = chunked(e, qkvOp, 8);
        QVERIFY(pieces >= whole);
        QCOMPARE(overlapped.forward[f].allCoresSeconds,
                 std::max(0.0, comm - pieces * 7.0 / 8.0) + (pieces - whole));
        QCOMPARE(overlapped.forward[qkv], plain.forward[qkv]);  // the GEMM keeps its cost

        // attn.g after proj: pipelined in TE's 4 splits, 16 SMs taken while it hides.
        named(layer.forward(), "attn.g", &g);
        const model::Operator& outOp = named(layer.forward(), "attn.out", &out);
        const double rs = plain.forward[g].allCoresSeconds;
        const double outPieces = chunked(e, outOp, estimate::kPipelinedSplits);
        const auto expected = pipelinedOverlap(rs, outPieces, 4, share);
        QCOMPARE(overlapped.forward[g].allCoresSeconds,
                 expected.exposedSeconds + (outPieces - plain.forward[out].allCoresSeconds));

        // The backward reduce-scatter of qkv's input gradient: in bulk beside qkv's weight
        // gradient.
        std::size_t rsBack = 0, dW = 0;
        named(layer.backward(), "bwd.attn.f", &rsBack);
        named(layer.backward(), "bwd.attn.qkv.dW", &dW);
        const auto bulk = pipelinedOverlap(plain.backward[rsBack].allCoresSeconds,
                                           plain.backward[dW].allCoresSeconds, kConcurrent, share);
        QCOMPARE(overlapped.backward[rsBack].allCoresSeconds, bulk.exposedSeconds);

        // Something is hidden in both directions, and the layer is faster for it.
        QVERIFY(overlapped.forwardHiddenCommSeconds > 0);
        QVERIFY(overlapped.backwardHiddenCommSeconds > 0);
        QCOMPARE(plain.forwardHiddenCommSeconds, 0.0);
        double before = 0, after = 0;
        for (std::size_t i = 0; i < plain.forward.size(); ++i) {
            before += plain.forward[i].allCoresSeconds;
            after += overlapped.forward[i].allCoresSeconds;
        }
        QVERIFY(after < before);
    }

    void dataParallelSyncHidesBehindTheStagesPasses() {
        hardware::TrainingConfig training;
        const placement::Plan plain = planOf(training);
        training.overlapGradReduce = true;
        const placement::Plan hidden = planOf(training);
        // 1e9 parameter bytes = 500 M parameters; buckets of max(40 M, 8 × 1 M): 13 of them.
        const double bytes = 1e9;
        const double bw = 1e11 * 0.8;
        const double allReduce = 2.0 * 7.0 / 8.0 * bytes / bw + 2.0 * 7.0 * 5e-6;
        QCOMPARE(plain.syncSeconds, allReduce);
        const auto expected =
            pipelinedOverlap(allReduce, hidden.stages[0].backwardSeconds, 13, 0.125);
        QCOMPARE(hidden.syncSeconds, expected.exposedSeconds);
        QCOMPARE(hidden.breakdown.dataParallelSyncSeconds, expected.exposedSeconds);
        QCOMPARE(hidden.breakdown.dataParallelHiddenSeconds, expected.hiddenSeconds);
        QVERIFY(hidden.timePerBatchSeconds < plain.timePerBatchSeconds);

        // ZeRO 1: the reduce-scatter behind the backward, the all-gather behind the forward.
        training.zero = 1;
        training.overlapParamGather = true;
        const placement::Plan zero = planOf(training);
        const double half = allReduce / 2.0;
        const auto reduce = pipelinedOverlap(half, zero.stages[0].backwardSeconds, 13, 0.125);
        const auto gather = pipelinedOverlap(half, zero.stages[0].forwardSeconds, 13, 0.125);
        QVERIFY(std::abs(zero.syncSeconds - (reduce.exposedSeconds + gather.exposedSeconds)) <
                1e-15);
        QVERIFY(std::abs(zero.breakdown.dataParallelHiddenSeconds -
                         (reduce.hiddenSeconds + gather.hiddenSeconds)) < 1e-15);
    }

    void megatronsRefusalsAreKept() {
        hardware::TrainingConfig training;
        training.tpCommOverlap = true;
        auto status = hardware::trainingParameters().validate(training);
        QVERIFY(!status.ok());
        QVERIFY(status.message().find("training.tpCommOverlap") != std::string::npos);
        QVERIFY(status.message().find("training.sequenceParallel") != std::string::npos);
        training.sequenceParallel = hardware::SequenceParallel::On;
        QVERIFY(hardware::trainingParameters().validate(training).ok());

        training.overlapParamGather = true;
        status = hardware::trainingParameters().validate(training);
        QVERIFY(!status.ok());
        QVERIFY(status.message().find("training.zero") != std::string::npos);
        training.zero = 1;
        QVERIFY(hardware::trainingParameters().validate(training).ok());

        hardware::TrainingConfig overlapped;
        overlapped.overlapGradReduce = true;
        const auto phaze =
            placement::supportsTraining(placement::CostModelKind::PhazeCompat, overlapped);
        QVERIFY(!phaze.ok());
        QVERIFY(phaze.message().find("overlap") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestOverlap)
#include "test_overlap.moc"
