// The fixed Megatron-style baseline: PHAZE's quirky assignment under phaze-compat (positions
// < L by ⌊k/q⌋, everything from the last transformer on in the last stage, empty stages allowed),
// the intended one under native (embedding first, head last, ⌈L/p⌉ transformers per stage), times
// equal to the independent oracle's, and every way it can fail reported as fits = false.
#include <QtTest>

#include <algorithm>

#include "core/hardware/parameter_registry.h"
#include "core/placement/fixed_strategy.h"
#include "oracle/oracle_cost.h"

using namespace tandem::core::placement;

namespace {

// embedding, L transformer layers, head; width t (all layers tensor-parallel when t > 1).
PlacementProblem gpt(int L, std::int64_t t = 1) {
    PlacementProblem pb;
    LayerCostSet set;
    set.tensorParallel = t;
    const bool tp = t > 1;
    set.layers.push_back({"embedding", 0.5, 1.0, 40, 2, 1, tp});
    for (int i = 0; i < L; ++i)
        set.layers.push_back(
            {std::string("layer.").append(std::to_string(i)), 3.0 + (i % 3), 6.0, 10, 8, 2, tp});
    set.layers.push_back({"head", 2.0, 4.0, 40, 4, 2, tp});
    for (int i = 1; i < L + 2; ++i) set.edges.push_back({i - 1, i, 2.0});
    pb.widths.push_back(set);
    pb.cluster.devices = 64;
    pb.cluster.interNodeBandwidthBytesPerSecond = 4.0;
    pb.training.globalBatch = 32;
    pb.hbmCapacityBytes = 1e6;
    return pb;
}

std::vector<std::size_t> sizes(const Plan& plan) {
    std::vector<std::size_t> out;
    for (const StagePlan& s : plan.stages) out.push_back(s.layers.size());
    return out;
}

std::vector<std::vector<int>> stagesOf(const Plan& plan) {
    std::vector<std::vector<int>> out;
    for (const StagePlan& s : plan.stages) out.push_back(s.layers);
    return out;
}

FixedStrategyResult evaluate(const PlacementProblem& pb, FixedStrategy fixed, CostModelKind model) {
    const auto r = evaluateFixedStrategy(pb, fixed, model);
    if (!r.ok()) qFatal("unexpected error: %s", r.message().c_str());
    return *r;
}

}  // namespace

class TestFixedStrategy : public QObject {
    Q_OBJECT

private slots:
    void phazeAssignmentQuirk() {
        // PHAZE's DP program: PP = 4, L = 24 gives 6, 6, 6, 8 nodes (5, 6, 6, 7 transformers).
        const PlacementProblem pb = gpt(24);
        const FixedStrategy fixed{4, 1, 2, 24, {}};
        const FixedStrategyResult r = evaluate(pb, fixed, CostModelKind::PhazeCompat);
        QVERIFY2(r.fits, r.reason.c_str());
        QCOMPARE(sizes(*r.plan), (std::vector<std::size_t>{6, 6, 6, 8}));
        QCOMPARE(r.plan->stages[3].layers.front(), 18);  // transformer 17 (position 18)
        const double expected =
            oracle::planTime(pb, CostModelKind::PhazeCompat, pb.widths[0], 2, stagesOf(*r.plan));
        QVERIFY(r.plan->timePerBatchSeconds == expected);
        for (const StagePlan& s : r.plan->stages) QCOMPARE(s.devices, std::int64_t(1));
    }

    void nativeIntendedAssignment() {
        const PlacementProblem pb = gpt(24, 2);
        const FixedStrategyResult r = evaluate(pb, {4, 2, 2, 24, {}}, CostModelKind::Native);
        QVERIFY2(r.fits, r.reason.c_str());
        QCOMPARE(sizes(*r.plan), (std::vector<std::size_t>{7, 6, 6, 7}));
        QCOMPARE(r.plan->stages[0].layers.front(), 0);  // embedding first
        QCOMPARE(r.plan->stages[3].layers.back(), 25);  // head last
        const double expected =
            oracle::planTime(pb, CostModelKind::Native, pb.widths[0], 2, stagesOf(*r.plan));
        QVERIFY(r.plan->timePerBatchSeconds == expected);
        QCOMPARE(r.plan->devicesUsed, std::int64_t(4 * 2 * 2));
    }

    // `place --strategy`'s balanced stages against a direct construction: ⌊L/p⌋ layers each,
    // one more for the first L mod p stages of the order 1, 2, …, p − 2, 0, p − 1; with and
    // without an embedding before the transformers (and the head after them), and equal to the
    // baseline's rule whenever p divides L.
    void balancedStagesForEveryLayout() {
        for (std::int64_t L = 1; L <= 40; ++L)
            for (std::int64_t p = 1; p <= L; ++p)
                for (const int lead : {0, 1}) {
                    const int n = int(L) + 2 * lead;
                    std::vector<std::int64_t> order;
                    for (std::int64_t s = 1; s + 1 < p; ++s) order.push_back(s);
                    order.push_back(0);
                    if (p > 1) order.push_back(p - 1);
                    std::vector<std::int64_t> layers(std::size_t(p), L / p);
                    for (std::int64_t i = 0; i < L % p; ++i) ++layers[std::size_t(order[i])];
                    const std::vector<int> starts =
                        fixedStrategyStageStarts(n, p, L, CostModelKind::Native, true);
                    QCOMPARE(starts.size(), std::size_t(p + 1));
                    QCOMPARE(starts.front(), 0);
                    QCOMPARE(starts.back(), n);
                    for (std::int64_t s = 0; s < p; ++s) {
                        const int held = starts[std::size_t(s + 1)] - starts[std::size_t(s)];
                        const int ends = (s == 0 ? lead : 0) + (s == p - 1 ? lead : 0);
                        QCOMPARE(std::int64_t(held - ends), layers[std::size_t(s)]);
                    }
                    if (L % p == 0)
                        QCOMPARE(starts, fixedStrategyStageStarts(n, p, L, CostModelKind::Native));
                }
    }

    void emptyStagesCount() {
        // L = 6, PP = 5: q = 2, positions 0..5 fill stages 0..2, stage 3 stays empty.
        const PlacementProblem pb = gpt(6);
        const FixedStrategyResult r = evaluate(pb, {5, 1, 1, 6, {}}, CostModelKind::PhazeCompat);
        QVERIFY2(r.fits, r.reason.c_str());
        QCOMPARE(sizes(*r.plan), (std::vector<std::size_t>{2, 2, 2, 0, 2}));
        QCOMPARE(r.plan->stages[3].loadSeconds, 0.0);
        double lmax = 0;
        for (const StagePlan& s : r.plan->stages) lmax = std::max(lmax, s.loadSeconds);
        QVERIFY(r.plan->timePerBatchSeconds == lmax * double(32 + 5 - 1));  // d = 1: no resync
    }

    void failuresAreReported() {
        const PlacementProblem pb = gpt(8);
        const auto expectNoFit = [&](FixedStrategy fixed, CostModelKind model, const char* mention,
                                     const PlacementProblem& problem) {
            const FixedStrategyResult r = evaluate(problem, fixed, model);
            QVERIFY(!r.fits);
            QVERIFY(!r.plan);
            QVERIFY2(r.reason.find(mention) != std::string::npos, r.reason.c_str());
        };
        for (CostModelKind model : {CostModelKind::Native, CostModelKind::PhazeCompat}) {
            expectNoFit({2, 4, 1, 8, {}}, model, "t = 4", pb);
            expectNoFit({2, 1, 0, 8, {}}, model, "d = 0", pb);
            // More replicas than microbatches (on devices enough), and than devices.
            expectNoFit({1, 1, 33, 8, {}}, model, "d = 33 is more than the 32 microbatches", pb);
            expectNoFit({1, 1, 65, 8, {}}, model, "= 65 devices, the cluster has 64", pb);
            expectNoFit({4, 1, 32, 8, {}}, model, "128 devices", pb);
            expectNoFit({0, 1, 1, 8, {}}, model, "p = 0", pb);
            expectNoFit({2, 1, 1, 0, {}}, model, "L = 0", pb);
            PlacementProblem small = pb;
            small.hbmCapacityBytes = 150;
            expectNoFit({2, 1, 1, 8, {}}, model, "does not fit in HBM", small);
        }
        expectNoFit({2, 1, 1, 12, {}}, CostModelKind::Native, "only 10 layers", pb);
        // PHAZE lists the last stage in file order and fails on a head before the last block.
        std::vector<int> order;
        for (int v = 0; v < 10; ++v) order.push_back(v);
        std::swap(order[8], order[9]);
        expectNoFit({2, 1, 1, 8, order}, CostModelKind::PhazeCompat, "branching", pb);
        std::swap(order[8], order[9]);
        QVERIFY(evaluate(pb, {2, 1, 1, 8, order}, CostModelKind::PhazeCompat).fits);
    }

    void invalidProblemIsAnError() {
        PlacementProblem pb = gpt(4);
        pb.cluster.devices = -1;
        const auto r = evaluateFixedStrategy(pb, {2, 1, 1, 4, {}}, CostModelKind::Native);
        QVERIFY(!r.ok());
        QVERIFY(r.message().find("devices") != std::string::npos);
    }

    void interleavedSchedule() {
        // Interleaved 1F1B (Narayanan et al. 2021) with V = 2 chunks per device, against the
        // closed forms: each device exchanges activations and gradients V times per microbatch
        // (every stage's load grows by (V − 1)·(in + out), here 2 bytes at 4 B/s each way, the
        // end stages counting their missing side like the other), the fill and drain run the
        // other stages' loads in V-th parts (m·Lmax + (ΣL − Lmax)/V), and Megatron's warm-up
        // keeps ⌈(2(s − 1) + (V − 1)·S + 1)/V⌉ microbatches' worth in flight at position s.
        PlacementProblem pb = gpt(8);
        const FixedStrategy fixed{4, 1, 1, 8, {}};
        const FixedStrategyResult plain = evaluate(pb, fixed, CostModelKind::Native);
        pb.training.interleave = 2;
        const FixedStrategyResult v2 = evaluate(pb, fixed, CostModelKind::Native);
        QVERIFY(plain.fits && v2.fits);
        const Plan& a = *plain.plan;
        const Plan& b = *v2.plan;
        QCOMPARE(b.interleave, std::int64_t(2));
        const double extra = 0.5 + 0.5;
        for (std::size_t k = 0; k < a.stages.size(); ++k)
            QCOMPARE(b.stages[k].loadSeconds, a.stages[k].loadSeconds + extra);
        QCOMPARE(b.maxStageLoadSeconds, a.maxStageLoadSeconds + extra);
        const double m = double(a.microbatchesPerPipeline);
        QCOMPARE(m, 32.0);
        const auto others = [](const Plan& p) {  // ΣL − Lmax
            double sum = 0;
            for (const StagePlan& stage : p.stages) sum += stage.loadSeconds;
            return sum - p.maxStageLoadSeconds;
        };
        QVERIFY(others(a) < 3 * a.maxStageLoadSeconds);  // the head makes the last stage slowest
        QCOMPARE(a.timePerBatchSeconds, a.maxStageLoadSeconds * m + others(a));
        QCOMPARE(b.timePerBatchSeconds, b.maxStageLoadSeconds * m + others(b) / 2);
        QCOMPARE(b.bubbleFraction, (others(b) / 2) / b.timePerBatchSeconds);
        QCOMPARE(b.breakdown.pipelineBubbleSeconds, others(b) / 2);
        QVERIFY(std::abs(b.breakdown.total() - b.timePerBatchSeconds) <=
                1e-12 * b.timePerBatchSeconds);
        QCOMPARE(a.stages.front().inFlightMicrobatches, std::int64_t(4));
        QCOMPARE(b.stages.front().inFlightMicrobatches, std::int64_t(6));  // ⌈11/2⌉
        QCOMPARE(b.stages.back().inFlightMicrobatches, std::int64_t(3));   // ⌈5/2⌉
        QVERIFY(b.stages.front().memory.totalBytes > a.stages.front().memory.totalBytes);
        // A short batch: fewer microbatches than the warm-up wants caps the count at m.
        pb.training.globalBatch = 2;
        const FixedStrategyResult few = evaluate(pb, fixed, CostModelKind::Native);
        QCOMPARE(few.plan->stages.front().inFlightMicrobatches, std::int64_t(2));
        // PHAZE has no interleaving.
        QVERIFY(!evaluateFixedStrategy(pb, fixed, CostModelKind::PhazeCompat).ok());
    }

    void interleavedTransfersOverlap() {
        // --overlap-p2p-comm: each direction's V transfers of a microbatch (in + extra/2 before
        // the forward pass, out + extra/2 before the backward pass, as priced without overlap)
        // run beside that pass's compute: exposed max(0, T − G) plus the hidden part times the
        // collective's share of the cores; the stage's load is its two passes.
        for (const double bandwidth : {4.0, 0.02}) {  // transfers of 0.5 s, then of 100 s
            for (const double share : {0.0, 0.25}) {
                PlacementProblem pb = gpt(8);
                pb.cluster.interNodeBandwidthBytesPerSecond = bandwidth;
                pb.collectiveComputeShare = share;
                pb.training.interleave = 2;
                const FixedStrategy fixed{4, 1, 1, 8, {}};
                const Plan waited = *evaluate(pb, fixed, CostModelKind::Native).plan;
                pb.training.overlapP2pComm = true;
                const Plan hid = *evaluate(pb, fixed, CostModelKind::Native).plan;
                const double x = 2.0 / bandwidth;  // one transfer
                for (std::size_t k = 0; k < hid.stages.size(); ++k) {
                    const StagePlan& a = waited.stages[k];
                    const StagePlan& b = hid.stages[k];
                    const double in = k == 0 ? 0.0 : x, out = k + 1 == hid.stages.size() ? 0.0 : x;
                    const double extra = x + x;  // (V − 1)(in + out), a missing side as the other
                    const double tf = in + extra / 2, tb = out + extra / 2;
                    const double f = a.forwardSeconds - tf, g = a.backwardSeconds - tb;
                    const auto exposed = [&](double t, double c) {
                        return std::max(0.0, t - c) + share * std::min(t, c);
                    };
                    const double tol = 1e-12 * a.loadSeconds;
                    QVERIFY(std::abs(b.forwardSeconds - (f + exposed(tf, f))) <= tol);
                    QVERIFY(std::abs(b.backwardSeconds - (g + exposed(tb, g))) <= tol);
                    QVERIFY(std::abs(b.loadSeconds - (b.forwardSeconds + b.backwardSeconds)) <=
                            tol);
                    QVERIFY(std::abs(b.transferSeconds + b.transferHiddenSeconds - (tf + tb)) <=
                            tol);
                    QVERIFY(b.loadSeconds <= a.loadSeconds + tol);
                }
                const double m = double(hid.microbatchesPerPipeline);
                QVERIFY(std::abs(hid.breakdown.total() - hid.timePerBatchSeconds) <=
                        1e-12 * hid.timePerBatchSeconds);
                QVERIFY(hid.breakdown.pipelineP2pHiddenSeconds > 0);
                QVERIFY(hid.timePerBatchSeconds < waited.timePerBatchSeconds);
                QCOMPARE(waited.breakdown.pipelineP2pHiddenSeconds, 0.0);
                if (bandwidth > 1 && share == 0)  // every transfer hides behind seconds of work
                    QCOMPARE(hid.breakdown.pipelineP2pSeconds, 0.0 * m);
            }
        }
        // Megatron overlaps only the interleaved schedule's transfers; PHAZE has none.
        tandem::core::hardware::TrainingConfig training;
        training.overlapP2pComm = true;
        const auto plain = tandem::core::hardware::trainingParameters().validate(training);
        QVERIFY(!plain.ok());
        QVERIFY2(plain.message().find("interleave >= 2") != std::string::npos,
                 plain.message().c_str());
        training.interleave = tandem::core::hardware::kInterleaveChosen;
        QVERIFY(tandem::core::hardware::trainingParameters().validate(training).ok());
        QVERIFY(!supportsTraining(CostModelKind::PhazeCompat, training).ok());
    }
};

QTEST_GUILESS_MAIN(TestFixedStrategy)
#include "test_fixed_strategy.moc"
