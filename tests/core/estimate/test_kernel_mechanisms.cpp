// The kernel mechanisms of the native model (docs/cost-model.md) against independent oracles:
// thread-block tiles (quantisation and per-tile overhead, the cheapest tile like a GEMM library)
// against a brute force over every tile and split, the accumulator drain of short folds by hand,
// the reduction to PHAZE's formulas when every mechanism is off, collectives across nodes on one
// ring per NIC, and the host overhead being no operator latency.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/estimate/gemm_cost_model.h"
#include "core/estimate/operator_estimator.h"
#include "core/hardware/cluster_config.h"
#include "tests/core/estimate/estimate_test_support.h"

using namespace tandem::test;
using tandem::core::estimate::GemmCore;
using tandem::core::estimate::GemmCostModel;
using tandem::core::estimate::OperatorCost;
using tandem::core::estimate::OperatorEstimator;

namespace {

// PHAZE's one-core formula, written again: folds · k + R + C.
double phazeOneCore(const md::GemmShape& g, std::int64_t r, std::int64_t c) {
    const double folds =
        double(g.batch) * std::ceil(double(g.m) / double(r)) * std::ceil(double(g.n) / double(c));
    return folds * double(g.k) + double(r) + double(c);
}

// Every tile t ∈ {T, T/2, …, 1} and every split s up to a generous limit.
double bruteForce(const md::GemmShape& g, std::int64_t cores, const GemmCore& core) {
    double best = std::numeric_limits<double>::infinity();
    for (std::int64_t t = core.tileFolds; t >= 1; t /= 2) {
        const auto tiles = std::int64_t(GemmCostModel::folds(g, core.rows * t, core.cols * t));
        for (std::int64_t s = 1; s <= std::min(g.k, 8 * cores + 16); ++s)
            best = std::min(best, GemmCostModel::splitCycles(tiles, g.k, cores, core, t, s));
    }
    return best;
}

}  // namespace

class TestKernelMechanisms : public QObject {
    Q_OBJECT

private slots:
    void mechanismsOffArePhazeToTheBit() {
        std::mt19937_64 rng(31);
        for (int i = 0; i < 2000; ++i) {
            const hw::AcceleratorConfig a = randomChip(rng);
            const md::Operator op = randomGemm(rng);
            const GemmCore plain{a.tensorCoreRows, a.tensorCoreCols};
            QVERIFY(GemmCostModel::oneCoreCycles(op.gemm, plain) ==
                    phazeOneCore(op.gemm, a.tensorCoreRows, a.tensorCoreCols));
        }
    }

    void tileChoiceNearBruteForce() {
        std::mt19937_64 rng(32);
        double worst = 1;
        for (int i = 0; i < 600; ++i) {
            const std::int64_t cores = powerOfTwo(rng, 0, 7);
            const GemmCore core{powerOfTwo(rng, 3, 6), powerOfTwo(rng, 3, 6), 0,
                                powerOfTwo(rng, 0, 3),
                                double(std::uniform_int_distribution<int>(0, 2000)(rng))};
            const md::GemmShape g{logUniform(rng, 1, 8), logUniform(rng, 1, 4096),
                                  logUniform(rng, 1, 4096), logUniform(rng, 1, 4096)};
            const double brute = bruteForce(g, cores, core);
            const auto chosen = GemmCostModel::allCoresCycles(g, cores, core);
            QVERIFY(chosen.cycles >= brute);
            QVERIFY(chosen.tileFolds >= 1 && chosen.tileFolds <= core.tileFolds);
            worst = std::max(worst, chosen.cycles / brute);
        }
        qInfo("tiles: worst chosen / brute-force optimum = %.4f", worst);
        QVERIFY(worst <= 1.05);
    }

    void tileQuantisationAndOverheadByHand() {
        // One 32×32 SM worth of MACs, 128×128 tiles (T = 4), 500 cycles per tile pass. A GEMM of
        // 256×256 outputs, k = 1024, on 4 cores: 4 tiles, one round of 16·1024 + 500 cycles, plus
        // the array's fill and drain (32 + 32) and no split.
        const GemmCore core{32, 32, 0, 4, 500};
        const auto split = GemmCostModel::allCoresCycles({1, 256, 256, 1024}, 4, core);
        QCOMPARE(split.tileFolds, std::int64_t(4));
        QCOMPARE(split.splitK, std::int64_t(1));
        QCOMPARE(split.cycles, 16.0 * 1024 + 500 + 64);
        // 130 rows need a second row of tiles: quantisation doubles the rounds (2 rounds on 4
        // cores), unless a smaller tile or a split does better: whatever is chosen, it costs more
        // than the exact 256 rows and no more than the brute force says.
        const auto ragged = GemmCostModel::allCoresCycles({1, 260, 256, 1024}, 4, core);
        QVERIFY(ragged.cycles > split.cycles);
        QCOMPARE(ragged.cycles, bruteForce({1, 260, 256, 1024}, 4, core));
        // The overhead never makes a GEMM faster, and more of it costs more.
        GemmCore heavier = core;
        heavier.tileOverheadCycles = 2000;
        QVERIFY(GemmCostModel::allCoresCycles({1, 256, 256, 1024}, 4, heavier).cycles >
                split.cycles);
    }

    void shortFoldsWaitForTheDrain() {
        // A 128-row array draining a row per cycle: a fold lasts max(k, 128) cycles.
        const GemmCore drain{128, 128, 128, 1, 0};
        const md::GemmShape heads{16, 2048, 2048, 64};  // attention scores of 64-wide heads
        const double folds = GemmCostModel::folds(heads, 128, 128);
        QCOMPARE(GemmCostModel::oneCoreCycles(heads, drain), folds * 128 + 256);
        QCOMPARE(GemmCostModel::oneCoreCycles(heads, GemmCore{128, 128}), folds * 64 + 256);
        // A long reduction hides the drain completely.
        const md::GemmShape mlp{1, 2048, 2048, 4096};
        QCOMPARE(GemmCostModel::oneCoreCycles(mlp, drain),
                 GemmCostModel::oneCoreCycles(mlp, GemmCore{128, 128}));
        // Through the estimator: the preset's drain slows the short GEMM, not the long one.
        hw::AcceleratorConfig tpu;  // the TPUv4-like defaults: drain 1 cycle per row
        QCOMPARE(tpu.minFoldCycles(), 128.0);
        const OperatorEstimator real(tpu), ideal(tpu.ideal());
        md::Operator shortOp = gemmOp(16, 2048, 2048, 64);
        md::Operator longOp = gemmOp(1, 2048, 2048, 4096);
        const double shortRatio = real.estimateUncached(shortOp).oneCoreSeconds /
                                  ideal.estimateUncached(shortOp).oneCoreSeconds;
        const double longRatio = real.estimateUncached(longOp).oneCoreSeconds /
                                 ideal.estimateUncached(longOp).oneCoreSeconds;
        QVERIFY2(shortRatio > 1.8, qPrintable(QString::number(shortRatio)));
        QVERIFY2(longRatio < 1.25, qPrintable(QString::number(longRatio)));
    }

    void groupsAcrossNodesUseEveryNic() {
        hw::ClusterConfig dgx;
        dgx.devicesPerNode = 8;
        dgx.intraNodeBandwidthBytesPerSecond = 300e9;
        dgx.interNodeBandwidthBytesPerSecond = 25e9;
        QCOMPARE(dgx.groupBandwidthBytesPerSecond(8), 300e9);
        QCOMPARE(dgx.groupBandwidthBytesPerSecond(16), 200e9);  // 8 NICs of 25 GB/s
        dgx.interNodeBandwidthBytesPerSecond = 50e9;            // faster NICs: NVLink caps
        QCOMPARE(dgx.groupBandwidthBytesPerSecond(64), 300e9);
        // PHAZE's flat link stays flat.
        const hw::ClusterConfig flat;
        QCOMPARE(flat.groupBandwidthBytesPerSecond(1024), flat.interNodeBandwidthBytesPerSecond);
        // t = 16 on DGX A100 nodes: 8 times the bandwidth one NIC per device gave.
        hw::ClusterConfig selene;
        selene.devicesPerNode = 8;
        selene.intraNodeBandwidthBytesPerSecond = 300e9;
        selene.interNodeBandwidthBytesPerSecond = 25e9;
        const OperatorEstimator est(hw::AcceleratorConfig{}.ideal(), selene);
        // The modelled (not measured) time of a 1 GiB all-reduce is the ring formula at the
        // 8 NICs' 200 GB/s: PHAZE's cluster defaults add no latency or efficiency loss.
        const double bytes = double(std::int64_t(1) << 30);
        const double modelled =
            est.estimateUncached(allReduceOp(std::int64_t(1) << 30, 16)).oneCoreSeconds;
        const double ring = 2.0 * 15.0 / 16.0 * bytes / selene.groupBandwidthBytesPerSecond(16);
        QVERIFY2(std::abs(modelled - ring) <= 1e-9 * ring,
                 qPrintable(QString("%1 vs %2").arg(modelled).arg(ring)));
    }

    void hostOverheadIsNoOperatorLatency() {
        // The host bound applies to streams of operators (ModelSchedule), not to one operator.
        hw::AcceleratorConfig a;
        const OperatorCost without = OperatorEstimator(a).estimateUncached(gemmOp(1, 64, 64, 64));
        a.hostOverheadSeconds = 1e-3;
        const OperatorCost with = OperatorEstimator(a).estimateUncached(gemmOp(1, 64, 64, 64));
        QCOMPARE(with, without);
        a.hostOverheadSeconds = -1;
        QVERIFY(!OperatorEstimator::validateHardware(a, {}).ok());
    }
};

QTEST_APPLESS_MAIN(TestKernelMechanisms)
#include "test_kernel_mechanisms.moc"
