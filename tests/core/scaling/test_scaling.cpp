// Scaling (issue 27 item 15). Oracles: placeModel() run here at one size gives the same plan
// figures; the default sizes listed by hand; strong scaling never loses throughput with more
// devices (a plan may leave devices idle, so the best on N devices is a candidate on 2N); weak
// scaling's batch is B·N/N₀; the base size's efficiency is exactly 1.
#include <QtTest>

#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "core/search/scaling.h"
#include "tests/support/small_placement.h"

using namespace tandem::core;

class TestScaling : public QObject {
    Q_OBJECT
private slots:
    void defaultSizes() {
        using V = std::vector<std::int64_t>;
        QCOMPARE(search::defaultScalingSizes(1024),
                 (V{16, 32, 64, 128, 256, 512, 1024, 2048, 4096}));
        QCOMPARE(search::defaultScalingSizes(12), (V{1, 2, 4, 8, 12, 16, 32}));
        QCOMPARE(search::defaultScalingSizes(1), (V{1, 2, 4}));
        QVERIFY(search::defaultScalingSizes(0).empty());
    }

    void strongScalingAgainstPlaceModel() {
        const auto request = tandem::test::gpt2XlOn32Tpuv4();
        auto result = search::analyseScaling(request, search::ScalingMode::Strong, {64, 8, 16, 32});
        QVERIFY2(result.ok(), result.ok() ? "" : result.message().c_str());
        QCOMPARE(result->points.size(), std::size_t(4));
        QCOMPARE(result->points.front().devices, std::int64_t(8));  // sorted
        double previous = 0;
        for (const auto& p : result->points) {
            QVERIFY(p.evaluated && p.fits);
            QCOMPARE(p.globalBatch, std::int64_t(256));
            QVERIFY(p.throughputSamplesPerSecond >= previous);
            previous = p.throughputSamplesPerSecond;
            QVERIFY(p.mfu > 0 && p.mfu <= 1);
            QVERIFY(p.devicesUsed >= 1 && p.devicesUsed <= p.devices);
            QVERIFY(p.joulesPerSample > 0);
        }
        auto by16 = request;
        by16.hardware.cluster.devices = 16;
        auto placed = placement::placeModel(by16);
        QVERIFY(placed && placed->result.plan);
        QCOMPARE(result->points[1].throughputSamplesPerSecond,
                 placed->result.plan->throughputSamplesPerSecond);
        QCOMPARE(result->points[1].mfu, placed->result.plan->mfu);
        QCOMPARE(result->efficiency(result->points[2]), 1.0);  // 32: the set-up's size
        const double e64 = result->efficiency(result->points[3]);
        QVERIFY(e64 > 0 &&
                e64 <= 1.0 + 1e-12);  // a fixed batch on more devices: no gain per device
    }

    void weakScalingGrowsTheBatch() {
        auto result = search::analyseScaling(tandem::test::gpt2XlOn32Tpuv4(),
                                             search::ScalingMode::Weak, {8, 32, 64});
        QVERIFY(result.ok());
        QCOMPARE(result->points[0].globalBatch, std::int64_t(64));
        QCOMPARE(result->points[1].globalBatch, std::int64_t(256));
        QCOMPARE(result->points[2].globalBatch, std::int64_t(512));
        QCOMPARE(result->efficiency(result->points[1]), 1.0);
        // A grown batch is rounded to whole microbatches: 256 · 5 / 32 = 40 is already 10 of 4;
        // 255 · 3 / 32 = 23.9 at microbatch 5 becomes 25, 252 · 3 / 32 = 23.6 at 7 becomes 21.
        for (const auto& [b, devices, expected] :
             {std::tuple{4, 5, 40}, std::tuple{5, 3, 25}, std::tuple{7, 3, 21}}) {
            auto request = tandem::test::gpt2XlOn32Tpuv4();
            request.training.microbatch = b;
            request.training.globalBatch = 256 / b * b;
            auto rounded = search::analyseScaling(request, search::ScalingMode::Weak, {devices});
            QVERIFY(rounded.ok());
            QCOMPARE(rounded->points[0].globalBatch, std::int64_t(expected));
        }
    }

    void tooSmallSaysWhy() {
        auto result = search::analyseScaling(tandem::test::gpt2XlOn32Tpuv4(),
                                             search::ScalingMode::Strong, {1});
        QVERIFY(result.ok());
        const auto& p = result->points.front();
        if (!p.fits) {
            QVERIFY(p.evaluated);
            QVERIFY(!p.note.empty());
            QCOMPARE(result->efficiency(p), 0.0);
        }
    }

    void cancelAndBadInput() {
        RunControl control;
        control.cancel();
        auto result = search::analyseScaling(tandem::test::gpt2XlOn32Tpuv4(),
                                             search::ScalingMode::Strong, {8, 16}, &control);
        QVERIFY(result.ok());
        QVERIFY(result->cancelled);
        for (const auto& p : result->points) QVERIFY(!p.evaluated);
        QVERIFY(!search::analyseScaling(tandem::test::gpt2XlOn32Tpuv4(),
                                        search::ScalingMode::Strong, {})
                     .ok());
        QVERIFY(!search::analyseScaling(tandem::test::gpt2XlOn32Tpuv4(),
                                        search::ScalingMode::Strong, {0})
                     .ok());
        QVERIFY(!search::analyseScaling(tandem::test::gpt2XlOn32Tpuv4(),
                                        search::ScalingMode::Strong, {2000000})
                     .ok());
    }
};

QTEST_GUILESS_MAIN(TestScaling)
#include "test_scaling.moc"
