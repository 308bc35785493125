// Memoisation of the estimator: the key holds exactly the fields that matter, a cache shared by
// estimators of many chips returns what the uncached model computes, repeated calls hit,
// concurrent estimation from several threads agrees with a single-threaded oracle, the size bound
// holds, and LayerCostTable stays aligned with the layer graph.
#include <QtTest>

#include <cmath>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "core/estimate/estimate_cache.h"
#include "core/estimate/estimate_key.h"
#include "core/estimate/layer_cost_table.h"
#include "core/estimate/operator_estimator.h"
#include "core/hardware/parameter_registry.h"
#include "core/model/layer_graph.h"
#include "estimate_test_support.h"

using namespace tandem::core;
using namespace tandem::core::estimate;
using namespace tandem::test;

namespace {

// A mixed bag of operators, with deliberate repeats (same cost signature, different names).
std::vector<md::Operator> randomOperators(std::mt19937_64& rng, int count) {
    std::vector<md::Operator> ops;
    for (int i = 0; i < count; ++i) {
        md::Operator op;
        switch (i % 5) {
            case 0:
                op = randomGemm(rng);
                break;
            case 1:
                op = randomGemm(rng);
                op.opClass = md::OpClass::Fused;
                op.elements = logUniform(rng, 1, 1 << 24);
                op.cyclesPerElement = 2;
                break;
            case 2:
                op = vectorOp(logUniform(rng, 1, 1 << 26), 1 + i % 7, 1 + i % 3);
                break;
            case 3:
                op = allReduceOp(logUniform(rng, 1, 1 << 30), std::int64_t(1) << (i % 6));
                break;
            default:
                op = ops[std::size_t(rng() % ops.size())];
                break;  // a repeat
        }
        op.name = "op" + std::to_string(i);
        ops.push_back(op);
    }
    return ops;
}

std::vector<hw::AcceleratorConfig> randomChips(std::mt19937_64& rng, int count) {
    std::vector<hw::AcceleratorConfig> chips;
    for (int i = 0; i < count; ++i) chips.push_back(randomChip(rng));
    return chips;
}

hw::ClusterConfig twoLevelCluster() {
    hw::ClusterConfig c;
    c.devicesPerNode = 4;
    c.intraNodeBandwidthBytesPerSecond = 100e9;
    c.interNodeBandwidthBytesPerSecond = 10e9;
    c.hopLatencySeconds = 2e-6;
    return c;
}

}  // namespace

class TestEstimateCache : public QObject {
    Q_OBJECT

private slots:
    void keyHoldsOnlyWhatMatters() {
        const hw::AcceleratorConfig chip;
        const hw::ClusterConfig cluster;
        md::Operator a = gemmOp(2, 512, 1024, 768);
        md::Operator b = a;
        b.name = "other";
        b.kind = "bmm";
        b.parameterBytes = 12345;
        b.inputs = {0, 1};
        b.elements = 99;  // ignored by a TensorCore op
        QVERIFY(EstimateKey::make(a, chip, cluster) == EstimateKey::make(b, chip, cluster));

        hw::AcceleratorConfig otherVectors = chip;
        otherVectors.numVectorCores = 64;
        otherVectors.hbmCapacityBytes *= 2;
        QVERIFY(EstimateKey::make(a, chip, cluster) == EstimateKey::make(a, otherVectors, cluster));
        const md::Operator vec = vectorOp(1000, 2, 2);
        QVERIFY(!(EstimateKey::make(vec, chip, cluster) ==
                  EstimateKey::make(vec, otherVectors, cluster)));

        // Every field a GEMM depends on changes the key.
        for (int field = 0; field < 7; ++field) {
            hw::AcceleratorConfig c = chip;
            switch (field) {
                case 0:
                    c.numTensorCores *= 2;
                    break;
                case 1:
                    c.tensorCoreRows *= 2;
                    break;
                case 2:
                    c.tensorCoreCols *= 2;
                    break;
                case 3:
                    c.globalBufferBytes /= 2;
                    break;
                case 4:
                    c.bytesPerElement = 4;
                    break;
                case 5:
                    c.hbmBandwidthBytesPerSecond *= 2;
                    break;
                default:
                    c.clockHz *= 2;
                    break;
            }
            QVERIFY2(!(EstimateKey::make(a, chip, cluster) == EstimateKey::make(a, c, cluster)),
                     qPrintable(QString::number(field)));
        }

        // Collectives: the cluster's link fields, not its size or the data-parallel overlap
        // (the placement's business), and no chip field but the per-operator overhead.
        const hw::ClusterConfig two = twoLevelCluster();
        hw::ClusterConfig otherInter = two, otherSize = two;
        otherInter.interNodeBandwidthBytesPerSecond = 1e9;
        otherSize.devices *= 2;
        otherSize.dataParallelOverlap = 0.5;
        const md::Operator across = allReduceOp(1 << 20, 8);
        QVERIFY(EstimateKey::make(across, chip, two) == EstimateKey::make(across, chip, otherSize));
        QVERIFY(
            !(EstimateKey::make(across, chip, two) == EstimateKey::make(across, chip, otherInter)));
        hw::AcceleratorConfig otherArrays = chip;
        otherArrays.numTensorCores *= 2;
        otherArrays.clockHz *= 2;
        QVERIFY(EstimateKey::make(across, chip, two) ==
                EstimateKey::make(across, otherArrays, two));
        // The registries' fields that some cost reads all have a slot in the key.
        QVERIFY(EstimateKey::hardwareFieldCount() <= EstimateKey::kMaxHardwareFields);

        // −0.0 == +0.0, so their keys must hash alike.
        md::Operator zero = vectorOp(10, 0.0, 2), negativeZero = vectorOp(10, -0.0, 2);
        const EstimateKey k1 = EstimateKey::make(zero, chip, cluster);
        const EstimateKey k2 = EstimateKey::make(negativeZero, chip, cluster);
        QVERIFY(k1 == k2);
        QCOMPARE(EstimateKeyHash{}(k1), EstimateKeyHash{}(k2));
    }

    void sharedCacheMatchesUncachedModel() {
        // Chips and clusters that differ from a base in one field each: a field missing from the
        // key would make two of them share an entry and return the other's cost.
        std::mt19937_64 rng(11);
        const std::vector<md::Operator> ops = randomOperators(rng, 200);
        std::vector<std::pair<hw::AcceleratorConfig, hw::ClusterConfig>> hardware;
        for (int field = 0; field < 15; ++field) {
            hw::AcceleratorConfig a;
            hw::ClusterConfig c = twoLevelCluster();
            switch (field) {
                case 0:
                    break;
                case 1:
                    a.numTensorCores *= 2;
                    break;
                case 2:
                    a.tensorCoreRows *= 2;
                    break;
                case 3:
                    a.tensorCoreCols *= 2;
                    break;
                case 4:
                    a.numVectorCores *= 2;
                    break;
                case 5:
                    a.vectorCoreLanes *= 2;
                    break;
                case 6:
                    a.globalBufferBytes /= 64;
                    break;
                case 7:
                    a.hbmBandwidthBytesPerSecond /= 8;
                    break;
                case 8:
                    a.clockHz *= 2;
                    break;
                case 9:
                    a.bytesPerElement = 4;
                    break;
                case 10:
                    c.devicesPerNode = 16;
                    break;
                case 11:
                    c.intraNodeBandwidthBytesPerSecond *= 3;
                    break;
                case 12:
                    c.interNodeBandwidthBytesPerSecond *= 3;
                    break;
                case 13:
                    c.hopLatencySeconds *= 3;
                    break;
                default:
                    a.hbmCapacityBytes *= 2;
                    break;  // irrelevant: shares every entry
            }
            hardware.emplace_back(a, c);
        }
        auto cache = std::make_shared<EstimateCache>();
        for (int pass = 0; pass < 2; ++pass) {
            for (const auto& [chip, cluster] : hardware) {
                const OperatorEstimator shared(chip, cluster, cache);
                const OperatorEstimator alone(chip, cluster);
                for (const md::Operator& op : ops) {
                    const OperatorCost expected = alone.estimateUncached(op);
                    QVERIFY(shared.estimate(op) == expected);
                    QVERIFY(alone.estimate(op) == expected);
                }
            }
        }
        QVERIFY(cache->hits() > cache->misses());
    }

    void everyRegistryFieldIsInTheKey() {
        // Every accelerator and cluster parameter of the registry, moved one at a time to another
        // valid value: with one cache shared by all these chips, a field the estimate depends on
        // but the key leaves out would return the base chip's cost, not the uncached model's.
        // Derived from the registry, so a new hardware parameter is covered without a test edit.
        std::mt19937_64 rng(13);
        const std::vector<md::Operator> ops = randomOperators(rng, 200);
        // The first candidate the field's range and the whole record's checks accept (a rate that
        // 0 switches off must not be tiny, so from 0 a real tries 1e-6, then 1).
        const auto moved = [](const hw::ParameterSpec& spec, double value, const auto& accepts) {
            if (spec.kind == hw::ParameterKind::Choice)
                return double((int(value) + 1) % int(spec.choices.size()));
            for (double factor : {2.0, 0.5, 1.5, 0.75}) {
                double v = value * factor;
                if (spec.kind == hw::ParameterKind::Integer) v = std::round(v);
                if (value == 0)
                    v = spec.kind == hw::ParameterKind::Integer ? 1 : (factor == 2.0 ? 1e-6 : 1.0);
                if (v != value && spec.check(v, "").ok() && accepts(v)) return v;
            }
            return value;
        };
        // An fp8 chip, so that every precision field can move to another valid value (and the
        // fp8 GEMMs are in the key too).
        hw::AcceleratorConfig baseChip;
        baseChip.precision = hw::Precision::Fp8;
        baseChip.fp8MacRatio = 2;
        const hw::ClusterConfig baseCluster = twoLevelCluster();
        std::vector<std::pair<hw::AcceleratorConfig, hw::ClusterConfig>> hardware{
            {baseChip, baseCluster}};
        QStringList names{"base"}, unmoved;
        for (const auto& p : hw::acceleratorParameters().parameters()) {
            hw::AcceleratorConfig a = baseChip;
            const double v = moved(p.spec, p.get(a), [&](double x) {
                hw::AcceleratorConfig trial = baseChip;
                p.set(trial, x);
                return hw::acceleratorParameters().validate(trial).ok();
            });
            p.set(a, v);
            if (v == p.get(baseChip) || !hw::acceleratorParameters().validate(a).ok()) {
                unmoved << QString::fromUtf8(p.spec.key.data(), qsizetype(p.spec.key.size()));
            } else {
                hardware.emplace_back(a, baseCluster);
                names << QString::fromUtf8(p.spec.key.data(), qsizetype(p.spec.key.size()));
            }
        }
        for (const auto& p : hw::clusterParameters().parameters()) {
            hw::ClusterConfig c = baseCluster;
            const double v = moved(p.spec, p.get(c), [&](double x) {
                hw::ClusterConfig trial = baseCluster;
                p.set(trial, x);
                return hw::clusterParameters().validate(trial).ok();
            });
            p.set(c, v);
            if (v == p.get(baseCluster) || !hw::clusterParameters().validate(c).ok()) {
                unmoved << QString::fromUtf8(p.spec.key.data(), qsizetype(p.spec.key.size()));
            } else {
                hardware.emplace_back(baseChip, c);
                names << QString::fromUtf8(p.spec.key.data(), qsizetype(p.spec.key.size()));
            }
        }
        QVERIFY2(unmoved.isEmpty(), qPrintable("fields not perturbed: " + unmoved.join(", ")));
        QVERIFY(hardware.size() > 20);
        auto cache = std::make_shared<EstimateCache>();
        for (std::size_t h = 0; h < hardware.size(); ++h) {
            const auto& [chip, cluster] = hardware[h];
            const OperatorEstimator shared(chip, cluster, cache);
            const OperatorEstimator alone(chip, cluster);
            for (const md::Operator& op : ops)
                QVERIFY2(shared.estimate(op) == alone.estimateUncached(op),
                         qPrintable(names[qsizetype(h)] + " moved, " + op.name.c_str()));
        }
    }

    void repeatedCallsHit() {
        std::mt19937_64 rng(12);
        std::vector<md::Operator> ops;
        for (int i = 0; i < 50; ++i) ops.push_back(gemmOp(1, 64 + i, 128, 256));  // all distinct
        auto cache = std::make_shared<EstimateCache>();
        const OperatorEstimator est(hw::AcceleratorConfig{}, {}, cache);
        for (const md::Operator& op : ops) est.estimate(op);
        QCOMPARE(cache->misses(), std::uint64_t(50));
        QCOMPARE(cache->hits(), std::uint64_t(0));
        QCOMPARE(cache->size(), std::size_t(50));
        for (md::Operator op : ops) {
            op.name += ".copy";  // the name is not part of the cost signature
            est.estimate(op);
        }
        QCOMPARE(cache->hits(), std::uint64_t(50));
        QCOMPARE(cache->misses(), std::uint64_t(50));
        md::Operator nop;
        est.estimate(nop);  // Nops are free and never cached
        QCOMPARE(cache->size(), std::size_t(50));
        cache->clear();
        QCOMPARE(cache->size(), std::size_t(0));
        QCOMPARE(cache->hits(), std::uint64_t(0));
    }

    void concurrentEstimationAgrees() {
        std::mt19937_64 rng(13);
        const std::vector<md::Operator> ops = randomOperators(rng, 400);
        const std::vector<hw::AcceleratorConfig> chips = randomChips(rng, 3);
        std::vector<std::vector<OperatorCost>> expected;
        for (const hw::AcceleratorConfig& chip : chips) {
            const OperatorEstimator oracle(chip, twoLevelCluster());
            std::vector<OperatorCost> costs;
            for (const md::Operator& op : ops) costs.push_back(oracle.estimateUncached(op));
            expected.push_back(costs);
        }
        for (int threads : {2, 3, 4}) {
            auto cache = std::make_shared<EstimateCache>();
            std::vector<OperatorEstimator> estimators;
            for (const hw::AcceleratorConfig& chip : chips)
                estimators.emplace_back(chip, twoLevelCluster(), cache);
            const int rounds = 5;
            std::vector<int> mismatches(std::size_t(threads), 0);
            std::vector<std::thread> pool;
            for (int t = 0; t < threads; ++t) {
                pool.emplace_back([&, t] {
                    for (int r = 0; r < rounds; ++r) {
                        // Each thread walks the work in its own order to mix hits and misses.
                        for (std::size_t i = 0; i < ops.size(); ++i) {
                            const std::size_t j =
                                (i * std::size_t(7 + 2 * t) + std::size_t(r)) % ops.size();
                            for (std::size_t c = 0; c < chips.size(); ++c) {
                                if (!(estimators[c].estimate(ops[j]) == expected[c][j]))
                                    ++mismatches[std::size_t(t)];
                            }
                        }
                    }
                });
            }
            for (std::thread& th : pool) th.join();
            for (int m : mismatches) QCOMPARE(m, 0);
            const std::uint64_t calls = std::uint64_t(threads) * rounds * ops.size() * chips.size();
            QCOMPARE(cache->hits() + cache->misses(), calls);
            // Every distinct key was computed at least once; races may compute one twice.
            QVERIFY(cache->misses() >= cache->size());
            QVERIFY(cache->misses() <= cache->size() * std::uint64_t(threads));
            QVERIFY(cache->hits() >= calls - cache->size() * std::uint64_t(threads));
        }
    }

    void sizeBoundHolds() {
        std::mt19937_64 rng(14);
        const std::vector<md::Operator> ops = randomOperators(rng, 300);
        auto cache = std::make_shared<EstimateCache>(32);
        const OperatorEstimator est(hw::AcceleratorConfig{}, twoLevelCluster(), cache);
        for (const md::Operator& op : ops) {
            QVERIFY(est.estimate(op) == est.estimateUncached(op));
            QVERIFY(cache->size() <= 32);
        }
        QVERIFY(cache->evictions() > 0);
    }

    void layerCostTableAligned() {
        md::Operator qkv = gemmOp(1, 2048, 3072, 1024);
        qkv.name = "qkv";
        qkv.backwardRule = md::BackwardRule::WeightGemm;
        md::Operator softmax = vectorOp(1 << 22, 10, 2);
        softmax.name = "softmax";
        softmax.inputs = {0};
        softmax.backwardRule = md::BackwardRule::Elementwise;
        softmax.backwardCyclesPerElement = 4;
        md::Operator view;
        view.name = "view";
        view.kind = "view";
        view.inputs = {1};
        md::Operator reduce = allReduceOp(1 << 22, 4);
        reduce.name = "allreduce";
        reduce.inputs = {2};
        reduce.backwardRule = md::BackwardRule::NoneAfterAllReduce;
        auto graph = md::LayerGraph::create("test", {qkv, softmax, view, reduce});
        QVERIFY2(graph.ok(), graph.ok() ? "" : graph.message().c_str());
        const md::LayerGraph& g = **graph;
        const OperatorEstimator est(hw::AcceleratorConfig{}, twoLevelCluster());
        const LayerCostTable table = LayerCostTable::build(est, g);
        QCOMPARE(table.forward.size(), g.forward().size());
        QCOMPARE(table.backward.size(), g.backward().size());
        for (std::size_t i = 0; i < g.forward().size(); ++i)
            QVERIFY(table.forward[i] == est.estimateUncached(g.forward()[i]));
        for (std::size_t i = 0; i < g.backward().size(); ++i)
            QVERIFY(table.backward[i] == est.estimateUncached(g.backward()[i]));
        QVERIFY(table.forward[0].allCoresSeconds > 0);
        QCOMPARE(table.forward[2], OperatorCost{});  // the view
        // The backward holds both GEMMs of qkv (dX and dW): 2× the forward FLOPs between them.
        double backwardGemmFlops = 0;
        for (std::size_t i = 0; i < g.backward().size(); ++i)
            if (g.backward()[i].isGemm()) backwardGemmFlops += table.backward[i].flops;
        QCOMPARE(backwardGemmFlops, 2 * table.forward[0].flops);
    }
};

QTEST_GUILESS_MAIN(TestEstimateCache)
#include "test_estimate_cache.moc"
