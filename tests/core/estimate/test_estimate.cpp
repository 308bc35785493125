// The operator estimator's model against independent oracles: the compute and bandwidth
// rooflines, monotonicity in the hardware, the ≥ 95 % utilisation of a 128×128 array on large
// GEMMs, brute-force searches over the split-K factor and the resident block, the I/O lower bound
// of matrix multiplication, and the exact vector-op and ring all-reduce formulas.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/estimate/gemm_cost_model.h"
#include "core/estimate/operator_estimator.h"
#include "estimate_test_support.h"

using namespace tandem::core;
using namespace tandem::core::estimate;
using namespace tandem::test;

namespace {

// Floating-point slack for comparisons of a latency with a bound computed in another order.
constexpr double kSlack = 1e-12;

hw::AcceleratorConfig computeOnly(hw::AcceleratorConfig a) {
    a = a.ideal();                        // PHAZE's formulas
    a.hbmBandwidthBytesPerSecond = 1e30;  // isolates the compute side of the roofline
    return a;
}

double allCoresSeconds(const hw::AcceleratorConfig& a, const md::Operator& op) {
    return OperatorEstimator(a).estimateUncached(op).allCoresSeconds;
}

}  // namespace

class TestEstimate : public QObject {
    Q_OBJECT

private slots:
    void gemmNeverBeatsRooflines() {
        std::mt19937_64 rng(1);
        for (int i = 0; i < 3000; ++i) {
            const hw::AcceleratorConfig a = randomChip(rng);
            const md::Operator op = randomGemm(rng);
            const OperatorCost c = OperatorEstimator(a).estimateUncached(op);
            const md::GemmShape& g = op.gemm;
            const double flops = 2.0 * double(g.batch) * double(g.m) * double(g.n) * double(g.k);
            const double compulsory =
                2.0 * double(g.batch) *
                (double(g.m) * double(g.k) + double(g.k) * double(g.n) + double(g.m) * double(g.n));
            const double peakAll = a.peakFlopsPerSecond();
            const double peakOne = peakAll / double(a.numTensorCores);
            const double memory = compulsory / a.hbmBandwidthBytesPerSecond;
            const QByteArray what = QByteArray::fromStdString(describe(a, g));
            QCOMPARE(c.flops, flops);
            QVERIFY2(c.bytes >= compulsory, what);
            QVERIFY2(c.oneCoreSeconds * (1 + kSlack) >= flops / peakOne, what);
            QVERIFY2(c.allCoresSeconds * (1 + kSlack) >= flops / peakAll, what);
            QVERIFY2(c.oneCoreSeconds * (1 + kSlack) >= memory, what);
            QVERIFY2(c.allCoresSeconds * (1 + kSlack) >= memory, what);
            QVERIFY2(c.allCoresSeconds <= c.oneCoreSeconds, what);
        }
    }

    void moreCoresNeverSlower() {
        // By construction for any shape, so any shape is tested, not only large ones.
        std::mt19937_64 rng(2);
        for (int i = 0; i < 3000; ++i) {
            hw::AcceleratorConfig a = randomChip(rng);
            const md::Operator op = randomGemm(rng);
            const double before = allCoresSeconds(a, op);
            a.numTensorCores *= 2;
            QVERIFY2(allCoresSeconds(a, op) <= before,
                     QByteArray::fromStdString(describe(a, op.gemm)));
        }
    }

    void biggerArraysNeverSlowerOnLargeGemms() {
        std::mt19937_64 rng(3);
        int checked = 0;
        for (int i = 0; i < 3000; ++i) {
            const md::Operator op =
                gemmOp(logUniform(rng, 1, 4), logUniform(rng, 4096, 32768),
                       logUniform(rng, 4096, 32768), logUniform(rng, 4096, 32768));
            const hw::AcceleratorConfig chip = randomChip(rng);
            // With the chip's HBM, and compute alone (the roofline's max could hide a regression).
            for (const hw::AcceleratorConfig& a : {chip, computeOnly(chip)}) {
                const double before = allCoresSeconds(a, op);
                for (int variant = 0; variant < 3; ++variant) {
                    hw::AcceleratorConfig b = a;
                    if (variant != 1) b.tensorCoreRows *= 2;
                    if (variant != 0) b.tensorCoreCols *= 2;
                    QVERIFY2(allCoresSeconds(b, op) <= before,
                             QByteArray::fromStdString(describe(b, op.gemm)));
                    ++checked;
                }
            }
        }
        QCOMPARE(checked, 3000 * 2 * 3);
    }

    void array128ReachesNinetyFivePercent() {
        hw::AcceleratorConfig a = computeOnly({});
        a.numTensorCores = 1;
        const double peak = a.peakFlopsPerSecond();
        for (std::int64_t x = 1; x <= 8; ++x) {
            for (std::int64_t y = 1; y <= 8; ++y) {
                for (std::int64_t k : {std::int64_t(4096), std::int64_t(8192)}) {
                    if (x * y == 1 && k == 4096) continue;  // checked exactly below
                    const md::Operator op = gemmOp(1, 128 * x, 128 * y, k);
                    const OperatorCost c = OperatorEstimator(a).estimateUncached(op);
                    const double utilisation = c.flops / (c.oneCoreSeconds * peak);
                    QVERIFY2(utilisation >= 0.95, qPrintable(QString::number(utilisation)));
                    // Folds x·y of k cycles, fill and drain 128 + 128 once.
                    QCOMPARE(c.oneCoreSeconds, double(x * y * k + 256) / a.clockHz);
                }
            }
        }
        // A single fold of k = 4096 pays 256 cycles of skew on 4096 of work: 94.1 %.
        const OperatorCost single =
            OperatorEstimator(a).estimateUncached(gemmOp(1, 128, 128, 4096));
        QCOMPARE(single.flops / (single.oneCoreSeconds * peak), 4096.0 / 4352.0);
    }

    void splitKMatchesHandComputation() {
        // One 128×128 tile, k = 4096, 8 cores: s = 8 pieces of 512 steps, fill/drain 256,
        // reduce-scatter (8 − 1)·⌈128/8⌉ = 112 cycles.
        hw::AcceleratorConfig a = computeOnly({});
        const OperatorCost c = OperatorEstimator(a).estimateUncached(gemmOp(1, 128, 128, 4096));
        QCOMPARE(c.allCoresSeconds, 880.0 / a.clockHz);
        QCOMPARE(c.oneCoreSeconds, 4352.0 / a.clockHz);
        const GemmSplit split = GemmCostModel::allCoresCycles({1, 128, 128, 4096}, 8, 128, 128);
        QCOMPARE(split.splitK, std::int64_t(8));
        QCOMPARE(split.cycles, 880.0);
    }

    void splitKChoiceNearBruteForce() {
        // The candidate set is a subset of all s, so the choice can never beat the brute-force
        // optimum and must stay close to it.
        std::mt19937_64 rng(4);
        double worst = 1;
        for (int i = 0; i < 1500; ++i) {
            const hw::AcceleratorConfig a = randomChip(rng);
            const md::GemmShape g{logUniform(rng, 1, 8), logUniform(rng, 1, 8192),
                                  logUniform(rng, 1, 8192), logUniform(rng, 1, 16384)};
            const auto folds =
                std::int64_t(GemmCostModel::folds(g, a.tensorCoreRows, a.tensorCoreCols));
            double brute = std::numeric_limits<double>::infinity();
            for (std::int64_t s = 1; s <= std::min(g.k, 8 * a.numTensorCores + 16); ++s) {
                brute = std::min(brute,
                                 GemmCostModel::splitCycles(folds, g.k, a.numTensorCores,
                                                            a.tensorCoreRows, a.tensorCoreCols, s));
            }
            const GemmSplit chosen = GemmCostModel::allCoresCycles(
                g, a.numTensorCores, a.tensorCoreRows, a.tensorCoreCols);
            const QByteArray what = QByteArray::fromStdString(describe(a, g));
            QVERIFY2(chosen.cycles >= brute, what);
            QCOMPARE(chosen.cycles,
                     GemmCostModel::splitCycles(folds, g.k, a.numTensorCores, a.tensorCoreRows,
                                                a.tensorCoreCols, chosen.splitK));
            worst = std::max(worst, chosen.cycles / brute);
        }
        qInfo("split-K: worst chosen / brute-force optimum = %.4f", worst);
        QVERIFY(worst <= 1.05);
    }

    void trafficCompulsoryWhenItFits() {
        std::mt19937_64 rng(5);
        int fits = 0, reread = 0;
        for (int i = 0; i < 4000; ++i) {
            const hw::AcceleratorConfig a = randomChip(rng);
            const md::Operator op = randomGemm(rng);
            const md::GemmShape& g = op.gemm;
            const double mk = double(g.m) * double(g.k), kn = double(g.k) * double(g.n),
                         mn = double(g.m) * double(g.n);
            const double compulsory = 2.0 * double(g.batch) * (mk + kn + mn);
            const double half = double(a.globalBufferBytes / 4);  // elements in half the buffer
            const double bytes = OperatorEstimator(a).estimateUncached(op).bytes;
            const QByteArray what = QByteArray::fromStdString(describe(a, g));
            if (2.0 * (mk + kn + mn) <= double(a.globalBufferBytes) ||
                std::min({mk, kn, mn}) <= half) {
                QVERIFY2(bytes == compulsory, what);  // the working set or one block fits
                ++fits;
            } else {
                QVERIFY2(bytes > compulsory, what);  // nothing fits: some operand is re-read
                ++reread;
            }
            // Irony, Toledo & Tiskin (2004): a classical matrix product with M words of fast
            // memory moves at least mnk / (2·√2·√M) − M words.
            const double words = double(a.globalBufferBytes) / 2.0;
            const double lower = double(g.batch) * (double(g.m) * double(g.n) * double(g.k) /
                                                        (2.0 * std::sqrt(2.0) * std::sqrt(words)) -
                                                    words);
            QVERIFY2(bytes / 2.0 >= lower, what);
        }
        QVERIFY(fits > 200);
        QVERIFY(reread > 200);
    }

    void trafficNearBruteForceBlocking() {
        // Brute force over every resident output block bm × ⌊S/bm⌋ and both operand panels.
        std::mt19937_64 rng(6);
        double worst = 1;
        for (int i = 0; i < 600; ++i) {
            const std::int64_t glb = powerOfTwo(rng, 21, 24);
            const md::GemmShape g{1, logUniform(rng, 64, 20000), logUniform(rng, 64, 20000),
                                  logUniform(rng, 16, 40000)};
            const GemmTraffic t = GemmCostModel::traffic(g, glb, 2);
            const std::int64_t s = glb / 4;
            const double mk = double(g.m * g.k), kn = double(g.k * g.n), mn = double(g.m * g.n);
            if (2.0 * (mk + kn + mn) <= double(glb)) continue;
            double brute = std::numeric_limits<double>::infinity();
            auto blocks = [](std::int64_t x, std::int64_t b) { return double((x + b - 1) / b); };
            for (std::int64_t bm = 1; bm <= std::min(g.m, s); ++bm) {
                const std::int64_t bn = std::min(g.n, s / bm);
                brute = std::min(brute, mk * blocks(g.n, bn) + kn * blocks(g.m, bm) + mn);
            }
            if (s / g.k >= 1) {
                brute = std::min(brute, mk + kn * blocks(g.m, s / g.k) + mn);
                brute = std::min(brute, mk * blocks(g.n, s / g.k) + kn + mn);
            }
            QVERIFY(t.bytes >= 2.0 * brute);
            worst = std::max(worst, t.bytes / (2.0 * brute));
        }
        qInfo("traffic: worst chosen / brute-force optimum = %.6f", worst);
        QVERIFY(worst <= 1 + 1e-12);  // the block scan is exact for sane shapes
    }

    void trafficHandComputed() {
        // 4096³ with a 2 MiB buffer: S = 2^19 elements. A panel of ⌊S/k⌋ = 128 rows re-reads B
        // 32 times (34·4096² elements); an output block of 1024×512 (or the square 724×724)
        // re-reads A 8 (6) times and B 4 (6) times: 13·4096² elements, the optimum.
        const GemmTraffic t = GemmCostModel::traffic({1, 4096, 4096, 4096}, 2 << 20, 2);
        QCOMPARE(t.dataflow, GemmDataflow::ResidentOutput);
        QVERIFY(t.blockRows * t.blockCols <= (std::int64_t(1) << 19));
        QCOMPARE(t.bytes, 13.0 * 4096 * 4096 * 2);
        // 32 MiB: S = 2^23; a 2048-row panel of A reads B twice: 4·4096² elements.
        QCOMPARE(GemmCostModel::traffic({1, 4096, 4096, 4096}, 32 << 20, 2).bytes,
                 4.0 * 4096 * 4096 * 2);
        // 8192 × 64 × 8192 with 2 MiB: A and B are 2^19 elements each (each just fits in half
        // the buffer), C is 2^26: A panel of all 8192 rows, everything read once.
        const GemmTraffic thin = GemmCostModel::traffic({2, 8192, 8192, 64}, 2 << 20, 2);
        QCOMPARE(thin.bytes, 2.0 * 2 * (2.0 * 8192 * 64 + 8192.0 * 8192));
        // Working set of 3·1024² elements = 6 MiB fits in 8 MiB: compulsory.
        QCOMPARE(GemmCostModel::traffic({3, 1024, 1024, 1024}, 8 << 20, 2).bytes,
                 3.0 * 3 * 1024 * 1024 * 2);
        QCOMPARE(GemmCostModel::traffic({3, 1024, 1024, 1024}, 8 << 20, 2).dataflow,
                 GemmDataflow::Compulsory);
    }

    void vectorOpExactFormula() {
        std::mt19937_64 rng(7);
        for (int i = 0; i < 2000; ++i) {
            const hw::AcceleratorConfig a = randomChip(rng);
            const std::int64_t e = logUniform(rng, 1, std::int64_t(1) << 32);
            const double cpe = double(logUniform(rng, 1, 30)) / 2.0;
            const std::int64_t t = logUniform(rng, 1, 4);
            const OperatorCost c = OperatorEstimator(a).estimateUncached(vectorOp(e, cpe, t));
            const std::int64_t L = a.vectorCoreLanes, V = a.numVectorCores;
            const double bytes = double(e) * 2.0 * double(t);
            const double memory = bytes / a.hbmBandwidthBytesPerSecond;
            QCOMPARE(c.oneCoreSeconds, std::max(double((e + L - 1) / L) * cpe / a.clockHz, memory));
            QCOMPARE(c.allCoresSeconds,
                     std::max(double((e + L * V - 1) / (L * V)) * cpe / a.clockHz, memory));
            QCOMPARE(c.bytes, bytes);
            QCOMPARE(c.flops, double(e));
        }
        // Compute-bound at 1.2 TB/s, memory-bound at 1 GB/s (no per-kernel floor).
        hw::AcceleratorConfig a = hw::AcceleratorConfig{}.ideal();
        const md::Operator op = vectorOp(1 << 20, 10, 2);
        const OperatorCost fast = OperatorEstimator(a).estimateUncached(op);
        QCOMPARE(fast.oneCoreSeconds, 8192.0 * 10 / a.clockHz);
        QCOMPARE(fast.allCoresSeconds, 4096.0 * 10 / a.clockHz);
        a.hbmBandwidthBytesPerSecond = 1e9;
        const OperatorCost slow = OperatorEstimator(a).estimateUncached(op);
        QCOMPARE(slow.oneCoreSeconds, 4.0 * (1 << 20) / 1e9);
        QCOMPARE(slow.allCoresSeconds, slow.oneCoreSeconds);
    }

    void fusedIsMaxOfGemmAndEpilogue() {
        std::mt19937_64 rng(8);
        for (int i = 0; i < 1000; ++i) {
            const hw::AcceleratorConfig a = randomChip(rng);
            md::Operator fused = randomGemm(rng);
            fused.opClass = md::OpClass::Fused;
            fused.elements = logUniform(rng, 1, std::int64_t(1) << 34);
            fused.cyclesPerElement = double(logUniform(rng, 1, 30));
            md::Operator gemm = fused;
            gemm.opClass = md::OpClass::TensorCore;
            // The epilogue alone, with no HBM traffic of its own.
            const md::Operator epilogue = vectorOp(fused.elements, fused.cyclesPerElement, 0);
            const OperatorEstimator est(a);
            const OperatorCost f = est.estimateUncached(fused), g = est.estimateUncached(gemm),
                               v = est.estimateUncached(epilogue);
            QCOMPARE(f.oneCoreSeconds, std::max(g.oneCoreSeconds, v.oneCoreSeconds));
            QCOMPARE(f.allCoresSeconds, std::max(g.allCoresSeconds, v.allCoresSeconds));
            QCOMPARE(f.bytes, g.bytes);
            QCOMPARE(f.flops, g.flops + double(fused.elements));
        }
    }

    void allReduceRingFormula() {
        hw::ClusterConfig cluster;
        cluster.devicesPerNode = 8;
        cluster.intraNodeBandwidthBytesPerSecond = 300e9;
        cluster.interNodeBandwidthBytesPerSecond = 25e9;
        cluster.hopLatencySeconds = 5e-6;
        const OperatorEstimator est(hw::AcceleratorConfig{}.ideal(), cluster);
        std::mt19937_64 rng(9);
        int trees = 0;
        for (std::int64_t g : {2, 3, 4, 8, 9, 16, 64, 1024}) {
            for (int draw = 0; draw < 8; ++draw) {
                const std::int64_t bytes = logUniform(rng, 1, std::int64_t(1) << 34);
                // Across nodes: one ring per NIC, 8 × 25 GB/s, below NVLink's 300.
                const double bw = g <= 8 ? 300e9 : 200e9;
                const double ringBytes = 2.0 * double(g - 1) / double(g) * double(bytes);
                const double ring = ringBytes / bw + 2.0 * double(g - 1) * 5e-6;
                // NCCL's tree across nodes: 7 chain steps in a node, ⌈log₂ nodes⌉ between.
                const double nodes = std::ceil(double(g) / 8.0);
                const double tree =
                    2.0 * double(bytes) / bw + 2.0 * (7.0 + std::ceil(std::log2(nodes))) * 5e-6;
                const bool treeWins = g > 8 && tree < ring;
                trees += treeWins;
                const double expected = treeWins ? tree : ring;
                const OperatorCost c = est.estimateUncached(allReduceOp(bytes, g));
                QCOMPARE(c.oneCoreSeconds, expected);  // QCOMPARE on doubles is fuzzy: check ==
                QVERIFY(c.oneCoreSeconds == expected);
                QVERIFY(c.allCoresSeconds == expected);
                QVERIFY(c.bytes == (treeWins ? 2.0 * double(bytes) : ringBytes));
                QCOMPARE(c.flops, 0.0);
            }
        }
        QVERIFY(trees > 0);  // small tensors over many nodes take the tree
        // The collective start-up adds to every collective.
        cluster.collectiveLatencySeconds = 8e-6;
        const OperatorEstimator started(hw::AcceleratorConfig{}.ideal(), cluster);
        QCOMPARE(started.estimateUncached(allReduceOp(1 << 20, 4)).oneCoreSeconds,
                 est.estimateUncached(allReduceOp(1 << 20, 4)).oneCoreSeconds + 8e-6);
        // PHAZE's flat 4 GiB/s link: 8 devices, 1 GiB → 2·7/8 GiB / 4 GiB/s = 0.4375 s.
        const OperatorEstimator phaze(hw::AcceleratorConfig{}.ideal(), hw::ClusterConfig{});
        QVERIFY(phaze.estimateUncached(allReduceOp(std::int64_t(1) << 30, 8)).oneCoreSeconds ==
                0.4375);
        QCOMPARE(est.estimateUncached(allReduceOp(1 << 30, 1)), OperatorCost{});
        QCOMPARE(est.estimateUncached(allReduceOp(0, 16)), OperatorCost{});
    }

    void nopIsFree() {
        md::Operator op = gemmOp(4, 4096, 4096, 4096);
        op.opClass = md::OpClass::Nop;
        op.elements = 1 << 20;
        op.collectiveBytes = 1 << 20;
        op.groupSize = 4;
        QCOMPARE(OperatorEstimator(hw::AcceleratorConfig{}).estimate(op), OperatorCost{});
    }

    void badInputsAreErrorsNotCrashes() {
        const OperatorEstimator est(hw::AcceleratorConfig{});
        md::Operator op = gemmOp(1, -5, 64, 64);
        op.name = "attn.qkv";
        const Expected<OperatorCost> bad = est.tryEstimate(op);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().find("attn.qkv") != std::string::npos, bad.message().c_str());
        QVERIFY2(bad.message().find("gemm.m = -5") != std::string::npos, bad.message().c_str());
        QCOMPARE(est.estimate(op), OperatorCost{});
        QVERIFY(!est.tryEstimate(vectorOp(10, std::nan(""), 2)).ok());
        QVERIFY(!est.tryEstimate(allReduceOp(10, 2048)).ok());  // more than the 1,024 devices
        QCOMPARE(est.estimate(gemmOp(1, 0, 64, 64)), OperatorCost{});

        hw::AcceleratorConfig zeroClock;
        zeroClock.clockHz = 0;
        const Expected<OperatorEstimator> rejected = OperatorEstimator::create(zeroClock);
        QVERIFY(!rejected.ok());
        QVERIFY2(rejected.message().find("accelerator.clockHz = 0") != std::string::npos,
                 rejected.message().c_str());
        const OperatorEstimator unchecked(zeroClock);
        QVERIFY(!unchecked.hardwareValid());
        QVERIFY(std::isinf(unchecked.estimate(gemmOp(1, 8, 8, 8)).oneCoreSeconds));
        QVERIFY(!unchecked.tryEstimate(gemmOp(1, 8, 8, 8)).ok());
        hw::AcceleratorConfig tinyBuffer;
        tinyBuffer.globalBufferBytes = 3;
        QVERIFY(!OperatorEstimator::create(tinyBuffer).ok());
        QVERIFY(OperatorEstimator::create(hw::AcceleratorConfig{}).ok());
    }

    void hugeShapesDoNotOverflow() {
        const std::int64_t big = std::int64_t(1) << 40;
        const OperatorEstimator est(hw::AcceleratorConfig{});
        const OperatorCost c = est.estimate(gemmOp(std::int64_t(1) << 20, big, big, big));
        QVERIFY(std::isfinite(c.oneCoreSeconds) && c.oneCoreSeconds > 0);
        QVERIFY(c.allCoresSeconds <= c.oneCoreSeconds);
        QCOMPARE(c.flops, 2.0 * std::ldexp(1.0, 20 + 120));
        const std::int64_t maxInt = std::numeric_limits<std::int64_t>::max();
        const OperatorCost v = est.estimate(vectorOp(maxInt, 1, maxInt));
        QVERIFY(std::isfinite(v.oneCoreSeconds) && v.oneCoreSeconds > 0);
        hw::AcceleratorConfig wide;
        wide.numVectorCores = wide.vectorCoreLanes = std::int64_t(1)
                                                     << 40;  // lanes·cores overflows
        QCOMPARE(
            OperatorEstimator(computeOnly(wide)).estimate(vectorOp(maxInt, 3, 1)).allCoresSeconds,
            3.0 / wide.clockHz);
    }
};

QTEST_GUILESS_MAIN(TestEstimate)
#include "test_estimate.moc"
