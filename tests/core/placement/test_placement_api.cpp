// PlacementSolver's contract beyond optimality: bad input is an error naming the field, "no
// plan" is a result with a reason, limits are errors naming the option, RunControl cancels and
// reports progress, and hand-computed native numbers (memory breakdown, all-reduce, transfers,
// one-device stages, device map) come out exactly as documented in native_cost_model.h.
#include <QtTest>
#include <chrono>
#include <thread>

#include "core/placement/mfu_note.h"
#include "core/placement/placement_solver.h"
#include "oracle/brute_force.h"

using namespace tandem::core::placement;
using tandem::core::RunControl;
using tandem::core::hardware::Optimizer;

namespace {

LayerCost layer(std::string name, double f, double b, double p, double a, double stash, bool tp) {
    return LayerCost{std::move(name), f, b, p, a, stash, tp};
}

// "prefix" + i without operator+ on a literal (GCC 12 -O3 -Wrestrict false positive).
std::string numbered(char prefix, int i) {
    std::string name = std::to_string(i);
    name.insert(name.begin(), prefix);
    return name;
}

// A chain of n identical layers at width 1.
PlacementProblem chain(int n, std::int64_t devices) {
    PlacementProblem pb;
    LayerCostSet set;
    for (int i = 0; i < n; ++i) set.layers.push_back(layer(numbered('L', i), 1, 2, 1, 1, 1, false));
    for (int i = 1; i < n; ++i) set.edges.push_back({i - 1, i, 1.0});
    pb.widths.push_back(set);
    pb.cluster.devices = devices;
    pb.training.globalBatch = 64;
    pb.training.optimizer = Optimizer::Sgd;  // the byte counts below: weights + gradients
    pb.hbmCapacityBytes = 1e9;
    return pb;
}

// `width` independent layers feeding one sink: 2^width downsets.
PlacementProblem wide(int width) {
    PlacementProblem pb;
    LayerCostSet set;
    for (int i = 0; i <= width; ++i)
        set.layers.push_back(layer(numbered('W', i), 1, 1, 1, 1, 0, false));
    for (int i = 0; i < width; ++i) set.edges.push_back({i, width, 1.0});
    pb.widths.push_back(set);
    pb.cluster.devices = 64;
    pb.training.globalBatch = 64;
    pb.hbmCapacityBytes = 1e9;
    return pb;
}

std::string solveError(const PlacementProblem& pb, SolverOptions options = {}) {
    const auto r = PlacementSolver(options).solve(pb);
    return r.ok() ? std::string() : r.message();
}

}  // namespace

class TestPlacementApi : public QObject {
    Q_OBJECT

private slots:
    void badInputIsAnError() {
        const auto expect = [](const PlacementProblem& pb, const char* mention) {
            const std::string message = solveError(pb);
            QVERIFY2(!message.empty(), mention);
            QVERIFY2(message.find(mention) != std::string::npos, message.c_str());
        };
        PlacementProblem pb = chain(3, 4);
        QVERIFY(solveError(pb).empty());
        pb.widths.clear();
        expect(pb, "widths");
        pb = chain(3, 4);
        pb.cluster.devices = 0;
        expect(pb, "devices = 0");
        pb = chain(3, 4);
        pb.widths[0].layers[1].activationBytes = -5;
        expect(pb, "activationBytes = -5");
        pb = chain(3, 4);
        pb.widths[0].layers[2].forwardSeconds = std::nan("");
        expect(pb, "forwardSeconds");
        pb = chain(3, 4);
        pb.widths[0].edges.push_back({2, 0, 1.0});
        expect(pb, "cycle");
        pb = chain(3, 4);
        pb.widths[0].edges.push_back({0, 7, 1.0});
        expect(pb, "to = 7");
        pb = chain(3, 4);
        pb.widths[0].edges.push_back({1, 1, 1.0});
        expect(pb, "self-loops");
        pb = chain(3, 4);
        pb.widths[0].edges.push_back({0, 1, 2.0});
        expect(pb, "repeats");
        pb = chain(3, 4);
        pb.widths.push_back(pb.widths[0]);
        expect(pb, "listed once");
        pb.widths[1].tensorParallel = 2;
        pb.widths[1].layers[0].name = "other";
        expect(pb, "name");
        pb = chain(3, 4);
        pb.widths.push_back(pb.widths[0]);
        pb.widths[1].tensorParallel = 2;
        pb.widths[1].edges.pop_back();
        expect(pb, "same layer pairs");
        // A second width is checked against the first: same edges in the same order with a bad
        // size, a repeated name (which differs from the first width's there), the edges reordered.
        pb = chain(3, 4);
        pb.widths.push_back(pb.widths[0]);
        pb.widths[1].tensorParallel = 2;
        pb.widths[1].edges.back().bytes = -1;
        expect(pb, "widths[1] (t=2).edges[1].bytes = -1");
        pb.widths[1].edges.back().bytes = 1;
        pb.widths[1].layers[2].name = pb.widths[1].layers[0].name;
        expect(pb,
               "widths[1] (t=2).layers[2] 'L0'.name = 'L0' is invalid; allowed: 'L2' as in "
               "widths[0]");
        pb.widths[1].layers[2].name = pb.widths[0].layers[2].name;
        QVERIFY(solveError(pb).empty());
        std::swap(pb.widths[1].edges.front(), pb.widths[1].edges.back());
        QVERIFY2(solveError(pb).empty(), "the same layer pairs in another order are fine");
        pb = chain(3, 4);
        pb.training.microbatch = 100;
        expect(pb, "microbatch");
        pb = chain(3, 4);
        pb.hbmCapacityBytes = 0;
        expect(pb, "hbmCapacityBytes");
        pb = chain(3, 4);
        pb.bytesPerElement = 0;
        expect(pb, "bytesPerElement");
        pb = chain(3, 4);
        pb.cluster.interNodeBandwidthBytesPerSecond = 0;
        expect(pb, "interNodeBandwidthBytesPerSecond");
    }

    void noPlanIsAResult() {
        PlacementProblem pb = chain(3, 4);
        pb.hbmCapacityBytes = 2.5;  // one layer needs 2·1 + 1 = 3 bytes
        const auto r = PlacementSolver().solve(pb);
        QVERIFY(r.ok());
        QVERIFY(!r->plan);
        QVERIFY2(r->infeasibleReason.find("alone needs 3.00 B at tensor-parallel width 1, more "
                                          "than the HBM capacity of 2.50 B") != std::string::npos,
                 r->infeasibleReason.c_str());
        pb.hbmCapacityBytes = 7;  // each layer fits, but not with the microbatches of 3 stages
        pb.cluster.devices = 1;
        const auto deep = PlacementSolver().solve(pb);
        QVERIFY(deep.ok() && !deep->plan);
        QVERIFY(deep->infeasibleReason.find("no partition") != std::string::npos);
    }

    void limitsAreNamedErrors() {
        SolverOptions options;
        options.maxDownsets = 1000;
        const std::string downsets = solveError(wide(12), options);  // 4097 downsets
        QVERIFY2(downsets.find("more than 1000 downsets") != std::string::npos, downsets.c_str());
        QVERIFY2(downsets.find("SolverOptions") == std::string::npos, downsets.c_str());
        options = {};
        options.maxStageCandidates = 100;
        const std::string candidates = solveError(chain(20, 8), options);
        QVERIFY2(candidates.find("more than 100 candidate") != std::string::npos,
                 candidates.c_str());
        options = {};
        options.maxDpStates = 50;
        const std::string states = solveError(chain(20, 8), options);
        QVERIFY2(states.find("more than Tandem's limit of 50;") != std::string::npos,
                 states.c_str());
        QVERIFY(solveError(wide(12)).empty());
    }

    void cancellationAndProgress() {
        RunControl cancelledFirst;
        cancelledFirst.cancel();
        auto r = PlacementSolver().solve(chain(8, 8), &cancelledFirst);
        QVERIFY(!r.ok());
        QVERIFY(r.message().find("cancelled") != std::string::npos);

        std::vector<tandem::core::Progress> reports;
        RunControl watched([&](const tandem::core::Progress& p) { reports.push_back(p); },
                           std::chrono::milliseconds(0));
        PlacementProblem two = chain(8, 8);
        two.widths.push_back(two.widths[0]);
        two.widths[1].tensorParallel = 2;
        QVERIFY(PlacementSolver().solve(two, &watched).ok());
        QVERIFY(reports.size() >= 2);
        QCOMPARE(reports.back().done, reports.back().total);

        // Cancelled from another thread while enumerating 2^18 downsets (uncancelled, the solve
        // takes well over 20 s): it stops with "cancelled" instead of a plan. How soon is
        // bench_responsiveness' business.
        RunControl control;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            control.cancel();
        });
        SolverOptions options;
        options.maxDownsets = 100000000;
        options.maxStageCandidates = 100000000;
        options.maxDpStates = 1000000000;
        r = PlacementSolver(options).solve(wide(18), &control);
        canceller.join();
        QVERIFY(!r.ok());
        QVERIFY(r.message().find("cancelled") != std::string::npos);
    }

    void nativeNumbersByHand() {
        // Two layers, t = 2, split into two stages by HBM; d = 2 replicas, Adam, recompute on.
        PlacementProblem pb;
        LayerCostSet set;
        set.tensorParallel = 2;
        set.layers = {layer("a", 3, 5, 100, 40, 8, true), layer("b", 2, 4, 60, 30, 16, true)};
        set.edges = {{0, 1, 32.0}};
        pb.widths = {set};
        pb.cluster.devices = 4;
        pb.cluster.devicesPerNode = 4;  // d·t = 4 fits one node: all-reduce at intra bandwidth
        pb.cluster.intraNodeBandwidthBytesPerSecond = 16;
        pb.cluster.interNodeBandwidthBytesPerSecond = 8;
        pb.cluster.hopLatencySeconds = 0.5;
        pb.training.globalBatch = 4;
        pb.training.microbatch = 1;
        pb.training.recompute = tandem::core::hardware::Recompute::On;
        pb.training.optimizer = tandem::core::hardware::Optimizer::Adam;
        pb.bytesPerElement = 2;
        pb.hbmCapacityBytes = 1000;  // both layers together: 8·160 = 1280 bytes of model state
        const auto r = PlacementSolver().solve(pb);
        QVERIFY(r.ok() && r->plan);
        const Plan& plan = *r->plan;
        QCOMPARE(plan.tensorParallel, std::int64_t(2));
        QCOMPARE(plan.dataParallel, std::int64_t(1));  // d = 2 needs 2·2·2 = 8 devices
        QCOMPARE(plan.stages.size(), std::size_t(2));
        const StagePlan& first = plan.stages[0];
        // Point-to-point at 16 B/s (the cluster is one node), Megatron's scatter/gather over
        // t = 2: each rank sends 32/2 bytes (16/16 + 0.5), the receivers all-gather them
        // ((1/2)·32/16 + 1·0.5): 3 s each way.
        QCOMPARE(first.forwardSeconds, 3.0);
        QCOMPARE(first.backwardSeconds, 3.0 + 5.0 + 3.0);  // gradient in, backward, recompute
        QCOMPARE(first.loadSeconds, 14.0);
        QVERIFY(first.recompute);
        QCOMPARE(first.inFlightMicrobatches, std::int64_t(2));
        QCOMPARE(first.memory.weightsBytes, 100.0);
        QCOMPARE(first.memory.gradientsBytes, 100.0);
        QCOMPARE(first.memory.optimizerBytes, 600.0);  // 16 B/param = 8 per weight byte in all
        QCOMPARE(first.memory.activationsBytes, 40.0);
        QCOMPARE(first.memory.stashBytes, 2 * 8.0);  // no predecessor: the layer's own input
        QCOMPARE(first.memory.totalBytes, 856.0);
        QCOMPARE(first.memory.freeBytes, 144.0);
        const StagePlan& last = plan.stages[1];
        QVERIFY(last.recompute);  // native: every stage recomputes, the last included
        QCOMPARE(last.loadSeconds, (3.0 + 2.0) + (4.0 + 2.0));
        QCOMPARE(last.inFlightMicrobatches, std::int64_t(1));
        QCOMPARE(last.memory.activationsBytes, 30.0);  // one layer's, recomputed
        QCOMPARE(last.memory.stashBytes, 16.0);        // its checkpointed input
        QCOMPARE(last.memory.totalBytes, 60.0 + 60.0 + 360.0 + 30.0 + 16.0);
        QCOMPARE(plan.maxStageLoadSeconds, 14.0);
        // 1F1B: the slowest stage's 4 loads, then the other's once to fill and drain.
        QCOMPARE(plan.timePerBatchSeconds, 4 * 14.0 + 11.0);
        QCOMPARE(plan.bubbleFraction, 11.0 / 67.0);
        QCOMPARE(plan.throughputSamplesPerSecond, 4.0 / 67.0);
        // Where the time goes, on the slowest stage (the first): 4 microbatches of work (3 + 5),
        // recompute (3) and transfers (0 in, 3 out: 14 − 11), then the bubble (the last
        // stage's 11).
        QCOMPARE(plan.breakdown.computeSeconds, 4 * 8.0);
        QCOMPARE(plan.breakdown.recomputeSeconds, 4 * 3.0);
        QCOMPARE(plan.breakdown.pipelineP2pSeconds, 4 * 3.0);
        QCOMPARE(plan.breakdown.tensorParallelCommSeconds, 0.0);
        QCOMPARE(plan.breakdown.pipelineBubbleSeconds, 11.0);
        QCOMPARE(plan.breakdown.dataParallelSyncSeconds, 0.0);
        QCOMPARE(plan.breakdown.total(), plan.timePerBatchSeconds);
        // Device map: ranks innermost, then replicas, then stages.
        QCOMPARE(plan.devices[1].stage, 0);
        QCOMPARE(plan.devices[1].tensorRank, 1);
        QCOMPARE(plan.devices[2].stage, 1);
        QCOMPARE(plan.devices[3].tensorRank, 1);

        pb.cluster.devices = 8;  // now d = 2 fits; its ring spans 4 devices → 16 B/s
        pb.cluster.devicesPerNode = 4;
        const auto r2 = PlacementSolver().solve(pb);
        QVERIFY(r2.ok() && r2->plan);
        QCOMPARE(r2->plan->dataParallel, std::int64_t(2));
        const double sync = (2.0 * 1 / 2) * 100 / 16 + 2.0 * 0.5;
        QCOMPARE(r2->plan->syncSeconds, sync);
        QCOMPARE(r2->plan->devices[2].replica, 1);  // replica 1 of stage 0: devices 2, 3
        QCOMPARE(r2->plan->devices[4].stage, 1);
    }

    void oneDeviceStages() {
        // At t = 4, embedding and head are not tensor-parallel: their stages take one device.
        PlacementProblem pb;
        LayerCostSet set;
        set.tensorParallel = 4;
        set.layers = {layer("embedding", 1, 1, 50, 1, 1, false),
                      layer("block", 4, 8, 10, 1, 1, true), layer("head", 1, 1, 50, 1, 1, false)};
        set.edges = {{0, 1, 1.0}, {1, 2, 1.0}};
        pb.widths = {set};
        pb.cluster.devices = 6;
        pb.training.globalBatch = 8;
        pb.training.optimizer = Optimizer::Sgd;
        pb.hbmCapacityBytes = 110;  // embedding and head cannot share a stage with the block
        const auto r = PlacementSolver().solve(pb);
        QVERIFY(r.ok() && r->plan);
        QCOMPARE(r->plan->stages.size(), std::size_t(3));
        QCOMPARE(r->plan->stages[0].devices, std::int64_t(1));
        QCOMPARE(r->plan->stages[1].devices, std::int64_t(4));
        QCOMPARE(r->plan->devicesUsed, std::int64_t(6));
        QVERIFY(r->plan->timePerBatchSeconds == oracle::bruteForce(pb, CostModelKind::Native).best);
    }

    void paretoKeepsSmallerSync() {
        // Stage {A,B} + {C,D} and {A} + {B,C,D} have the same Lmax, but the first halves the
        // largest stage's parameter bytes, which the all-reduce of d = 2 pays for.
        PlacementProblem pb;
        LayerCostSet set;
        set.layers = {layer("A", 10, 0, 0, 0, 0, false), layer("B", 0, 0, 50, 0, 0, false),
                      layer("C", 0, 0, 50, 0, 0, false), layer("D", 9, 0, 0, 0, 0, false)};
        set.edges = {{0, 1, 0.0}, {1, 2, 0.0}, {2, 3, 0.0}};
        pb.widths = {set};
        pb.cluster.devices = 4;
        pb.cluster.devicesPerNode = 4;
        pb.cluster.intraNodeBandwidthBytesPerSecond = 10;
        pb.training.globalBatch = 2;
        pb.hbmCapacityBytes = 1e6;
        const auto r = PlacementSolver().solve(pb);
        QVERIFY(r.ok() && r->plan);
        // d = 2, one microbatch each: 10 + 9 through the pipeline, then the all-reduce.
        QVERIFY(r->plan->timePerBatchSeconds == 10.0 + 9.0 + 50.0 / 10);
        QVERIFY(r->plan->timePerBatchSeconds == oracle::bruteForce(pb, CostModelKind::Native).best);
    }

    void highMfuPlansSayWhy() {
        // Above 70 % MFU a plan says it is compute-bound, with its layers' share of the time.
        Plan plan;
        plan.timePerBatchSeconds = 10;
        plan.breakdown.computeSeconds = 9;
        plan.breakdown.recomputeSeconds = 0.5;
        plan.breakdown.pipelineBubbleSeconds = 0.5;
        plan.mfu = 0.81;
        const std::string note = highMfuNote(plan);
        QVERIFY2(note.find("MFU 81.0 % is above") == 0, note.c_str());
        QVERIFY2(note.find("work is 95.0 % of the time per batch") != std::string::npos,
                 note.c_str());
        plan.mfu = kHighMfu;  // at the line: no note
        QVERIFY(highMfuNote(plan).empty());
        plan.mfu = 0;  // unknown
        QVERIFY(highMfuNote(plan).empty());
        plan.mfu = 0.9;
        plan.timePerBatchSeconds = 0;  // nothing to share out
        QVERIFY(highMfuNote(plan).empty());
        // fp8 GEMMs at twice the bf16 peak the MFU is counted against: the note gives the share
        // of the fp8 peak, and says compute-bound only when that too is above the line.
        plan.timePerBatchSeconds = 10;
        plan.gemmRateOverPeak = 2;
        plan.mfu = 0.966;
        const std::string fp8 = highMfuNote(plan);
        QVERIFY2(fp8.find("MFU 96.6 % is counted against the dense fp16/bf16 peak") == 0,
                 fp8.c_str());
        QVERIFY2(fp8.find("in fp8 at 2× that rate: 48.3 % of the fp8 peak.") != std::string::npos,
                 fp8.c_str());
        QVERIFY2(fp8.find("compute-bound") == std::string::npos, fp8.c_str());
        plan.mfu = 1.6;
        const std::string bound = highMfuNote(plan);
        QVERIFY2(bound.find("80.0 % of the fp8 peak. Even so, this plan is compute-bound: its "
                            "layers' work is 95.0 %") != std::string::npos,
                 bound.c_str());
        plan.gemmRateOverPeak = 1.5;  // a user's chip: the ratio as it is
        plan.mfu = 0.9;
        const std::string odd = highMfuNote(plan);
        QVERIFY2(odd.find("at 1.50× that rate: 60.0 % of the fp8 peak.") != std::string::npos,
                 odd.c_str());
    }
};

QTEST_GUILESS_MAIN(TestPlacementApi)
#include "test_placement_api.moc"
