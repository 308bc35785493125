// ZeRO (issue 26, item 3; docs/cost-model.md, "ZeRO") against hand-derived figures: with
// mixed-precision Adam on d replicas, --zero 1 keeps 2 + 2 + 12/d bytes per parameter and steps
// 1/d of them after a reduce-scatter and an all-gather (the all-reduce's volume); --zero 2 also
// shards the gradients, reduce-scattering them every microbatch; --zero 3 keeps (2 + 2 + 12)/d
// plus the gathered layers and gathers the weights in every pass. One replica shards nothing.
// Refusals: phaze-compat, and a placement or search (ZeRO is evaluated for a given strategy).
#include <QtTest>

#include <cmath>
#include <string>

#include "core/placement/fixed_strategy.h"
#include "core/placement/native_cost_model.h"
#include "core/placement/placement_solver.h"
#include "core/placement/width_graph.h"

using namespace tandem::core::placement;
namespace hw = tandem::core::hardware;

namespace {

constexpr double kLayerBytes = 1000;  // each transformer layer's parameter bytes per device

// embedding, 4 equal layers and a head on one stage; 2-byte parameters, Adam.
PlacementProblem gpt(std::int64_t zero) {
    PlacementProblem pb;
    LayerCostSet set;
    set.layers.push_back({"embedding", 0.5, 1.0, 400, 2, 1, false});
    for (int i = 0; i < 4; ++i)
        set.layers.push_back({"layer." + std::to_string(i), 3.0, 6.0, kLayerBytes, 8, 2, false});
    set.layers.push_back({"head", 2.0, 4.0, 600, 4, 2, false});
    for (int i = 1; i < 6; ++i) set.edges.push_back({i - 1, i, 2.0});
    pb.widths.push_back(set);
    pb.cluster.devices = 8;
    pb.cluster.devicesPerNode = 8;
    pb.cluster.intraNodeBandwidthBytesPerSecond = 1e4;
    pb.cluster.collectiveEfficiency = 0.5;
    pb.cluster.hopLatencySeconds = 0.01;
    pb.cluster.dataParallelOverlap = 0;
    pb.training.globalBatch = 16;
    pb.training.optimizer = hw::Optimizer::Adam;
    pb.training.zero = zero;
    pb.hbmCapacityBytes = 1e9;
    pb.memoryBandwidthBytesPerSecond = 1e5;
    return pb;
}

Plan planOf(std::int64_t zero, std::int64_t d) {
    FixedStrategy fixed;
    fixed.dataParallel = d;
    fixed.transformerLayers = 4;
    const auto r = evaluateFixedStrategy(gpt(zero), fixed, CostModelKind::Native);
    if (!r.ok() || !r->plan)
        qFatal("zero %lld, d %lld: does not evaluate", (long long)zero, (long long)d);
    return *r->plan;
}

constexpr double kParameterBytes = 400 + 4 * kLayerBytes + 600;  // P of the one stage
constexpr double kParameters = kParameterBytes / 2;              // 2 bytes each

// One reduce-scatter or all-gather of P over d replicas in one node: (d−1)/d·P/bw + (d−1)·lat.
double collective(std::int64_t d) {
    const double bw = 1e4 * 0.5;
    return double(d - 1) / double(d) * kParameterBytes / bw + double(d - 1) * 0.01;
}

double perParameter(const MemoryBreakdown& m) {
    return (m.weightsBytes + m.gradientsBytes + m.optimizerBytes) / kParameters;
}

}  // namespace

class TestZero : public QObject {
    Q_OBJECT

private slots:
    void stageOneShardsTheOptimizerState() {
        for (std::int64_t d : {1, 2, 4, 8}) {
            const Plan plain = planOf(0, d), zero = planOf(1, d);
            QCOMPARE(perParameter(plain.stages[0].memory), 16.0);
            QCOMPARE(perParameter(zero.stages[0].memory), 2.0 + 2.0 + 12.0 / double(d));
            // Reduce-scatter + all-gather move what the all-reduce moved; the step is 1/d.
            QCOMPARE(zero.syncSeconds, plain.syncSeconds);
            QCOMPARE(zero.optimizerSeconds * double(d), plain.optimizerSeconds);
            QCOMPARE(zero.stages[0].loadSeconds, plain.stages[0].loadSeconds);
        }
        // Adam's step: (32 + 2·2) bytes per parameter at 1e5 B/s.
        QCOMPARE(planOf(0, 4).optimizerSeconds, kParameters * 36.0 / 1e5);
    }

    // bf16 training under Megatron (gradientBytesPerElement 4): the fp32 gradient buffer is
    // held whole and reduced whole, Megatron's distributed-optimizer table: "bf16 parameters,
    // fp32 gradients", 18 bytes per parameter, 6 + 12/d distributed. The reduce-scatter moves
    // twice the all-gather's bytes. ZeRO 2 and 3 keep their 2-byte gradients.
    void bf16GradientsAreHeldAndReducedInFp32() {
        const auto fp32Gradients = [](std::int64_t zero, std::int64_t d) {
            PlacementProblem pb = gpt(zero);
            pb.gradientBytesPerElement = 4;
            FixedStrategy fixed;
            fixed.dataParallel = d;
            fixed.transformerLayers = 4;
            const auto r = evaluateFixedStrategy(pb, fixed, CostModelKind::Native);
            if (!r.ok() || !r->plan) qFatal("zero %lld: does not evaluate", (long long)zero);
            return *r->plan;
        };
        const double bw = 1e4 * 0.5;
        for (std::int64_t d : {2, 4, 8}) {
            const Plan plain = fp32Gradients(0, d), zero = fp32Gradients(1, d);
            QCOMPARE(perParameter(plain.stages[0].memory), 18.0);
            QCOMPARE(perParameter(zero.stages[0].memory), 6.0 + 12.0 / double(d));
            const double dd = double(d);
            const double reduceScatter = (dd - 1) / dd * 2 * kParameterBytes / bw + (dd - 1) * 0.01;
            QCOMPARE(zero.syncSeconds, reduceScatter + collective(d));
            QCOMPARE(plain.syncSeconds, 2 * reduceScatter);
            for (std::int64_t z : {2, 3}) {
                const Plan sharded = fp32Gradients(z, d), bf16 = planOf(z, d);
                QCOMPARE(sharded.stages[0].memory.totalBytes, bf16.stages[0].memory.totalBytes);
                QCOMPARE(sharded.timePerBatchSeconds, bf16.timePerBatchSeconds);
            }
        }
    }

    void stageTwoReduceScattersEveryMicrobatch() {
        const std::int64_t d = 4;
        const Plan plain = planOf(0, d), zero = planOf(2, d);
        const MemoryBreakdown& m = zero.stages[0].memory;
        QCOMPARE(m.gradientsBytes, kParameterBytes / d + kLayerBytes);  // + one layer's, unreduced
        QCOMPARE(m.weightsBytes, kParameterBytes);
        QCOMPARE(m.optimizerBytes, 6.0 * kParameterBytes / d);
        QCOMPARE(zero.stages[0].backwardSeconds - plain.stages[0].backwardSeconds, collective(d));
        QCOMPARE(zero.stages[0].forwardSeconds, plain.stages[0].forwardSeconds);
        QCOMPARE(zero.syncSeconds, collective(d));  // the all-gather of the updated shards
        QVERIFY(std::abs(plain.syncSeconds - 2 * collective(d)) < 1e-12);
    }

    void stageThreeGathersTheWeightsInEveryPass() {
        const std::int64_t d = 8;
        const Plan plain = planOf(0, d), zero = planOf(3, d);
        const MemoryBreakdown& m = zero.stages[0].memory;
        // (2 + 2 + 12)/d per parameter, plus two gathered layers and one unreduced gradient.
        QCOMPARE(m.weightsBytes + m.gradientsBytes + m.optimizerBytes,
                 16.0 / double(d) * kParameters + 3 * kLayerBytes);
        QCOMPARE(zero.stages[0].forwardSeconds - plain.stages[0].forwardSeconds, collective(d));
        QVERIFY(std::abs(zero.stages[0].backwardSeconds - plain.stages[0].backwardSeconds -
                         2 * collective(d)) < 1e-12);
        QCOMPARE(zero.syncSeconds, 0.0);
        // The breakdown counts the gathers as data-parallel traffic, not pipeline transfers,
        // and still adds up to the iteration.
        const TimeBreakdown& b = zero.breakdown;
        QVERIFY(std::abs(b.total() - zero.timePerBatchSeconds) < 1e-9 * zero.timePerBatchSeconds);
        QVERIFY(b.pipelineP2pSeconds < 1e-9);
        QVERIFY(b.dataParallelSyncSeconds >=
                double(zero.microbatchesPerPipeline) * 3 * collective(d) * (1 - 1e-12));
    }

    // The strategy choice skips a strategy unpriced when a stage's state alone exceeds HBM
    // (stateExceedsCapacity): whenever it says so, the stage's own costs must find that not one
    // microbatch fits under any recomputation; and with room for the state and every
    // recomputation's activations it must not say so.
    void stateAboveCapacityFitsNothing() {
        for (std::int64_t zero : {0, 1, 2, 3})
            for (std::int64_t d : {1, 2, 4, 8})
                for (bool fp8 : {false, true}) {
                    PlacementProblem pb = gpt(zero);
                    pb.fp8WeightCopies = fp8;
                    const WidthGraph graph(pb.widths[0],
                                           WidthGraph::topologicalOrder(pb.widths[0]));
                    // The state of the whole graph, read off a model with room for everything.
                    const NativeCostModel roomy(pb, d);
                    const StageCost all = roomy.evaluateRange(graph, 0, graph.size() - 1);
                    const double state = all.weightBytesHeld + all.gradientBytesHeld +
                                         all.optimizerBytes + all.fp8WeightBytes;
                    int skipped = 0;
                    for (double share = 0.5; share <= 1.5; share += 0.01) {
                        pb.hbmCapacityBytes = state * share;
                        const NativeCostModel model(pb, d);
                        const StageCost c = model.evaluateRange(graph, 0, graph.size() - 1);
                        const bool tooLarge =
                            model.stateExceedsCapacity(c.parameterBytes, kLayerBytes);
                        const QString where = QString("zero %1, d %2, fp8 %3, capacity %4 of state")
                                                  .arg(zero)
                                                  .arg(d)
                                                  .arg(fp8)
                                                  .arg(share);
                        if (tooLarge) {
                            ++skipped;
                            QVERIFY2(c.maxInFlight == 0 && c.maxInFlightRecompute == 0 &&
                                         c.maxInFlightSelective == 0,
                                     qPrintable(where));
                        }
                        QCOMPARE(tooLarge, share < 1.0 - 1e-9);
                        const double activations = c.activationBytes + c.stashBytesRecompute;
                        if (pb.hbmCapacityBytes >= state + activations)
                            QVERIFY2(!tooLarge && c.maxInFlight > 0, qPrintable(where));
                    }
                    QVERIFY(skipped > 0);
                }
    }

    void oneReplicaShardsNothing() {
        const Plan plain = planOf(0, 1);
        for (std::int64_t z : {1, 2, 3}) {
            const Plan zero = planOf(z, 1);
            QCOMPARE(zero.timePerBatchSeconds, plain.timePerBatchSeconds);
            QCOMPARE(zero.stages[0].memory.totalBytes, plain.stages[0].memory.totalBytes);
        }
    }

    void refusedWhereItIsNotModelled() {
        const auto phaze = supportsTraining(CostModelKind::PhazeCompat, gpt(1).training);
        QVERIFY(!phaze.ok());
        QVERIFY2(phaze.message().find("ZeRO") != std::string::npos, phaze.message().c_str());
        QVERIFY(supportsTraining(CostModelKind::Native, gpt(3).training).ok());
        const auto placed = PlacementSolver().solve(gpt(1));
        QVERIFY(!placed.ok());
        QVERIFY2(placed.message().find("--strategy") != std::string::npos,
                 placed.message().c_str());
        QVERIFY(PlacementSolver().solve(gpt(0)).ok());
    }
};

QTEST_APPLESS_MAIN(TestZero)
#include "test_zero.moc"
