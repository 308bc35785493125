// The roofline of a layer (core/estimate/roofline.h). Oracles: the roofs from the chip's own
// numbers by hand (2 FLOP per MAC per cycle; bandwidth × efficiency); each point's intensity and
// attained FLOP/s from its operator's estimate; the operators with FLOPs and bytes counted
// independently; and physics: no operator attains more than its roof (min of peak and
// bandwidth × intensity) — an estimator that let one would be wrong, not the chart.
#include <QtTest>

#include "core/estimate/model_estimate.h"
#include "core/estimate/operator_estimator.h"
#include "core/estimate/roofline.h"
#include "core/model/model_zoo.h"
#include "tests/support/test_presets.h"

using namespace tandem::core;

class TestRoofline : public QObject {
    Q_OBJECT
private slots:
    void layerUnderItsRoofs_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("model");
        for (const char* preset : {"a100-80gb", "tpuv4-like", "h100-80gb", "v100-32gb"})
            for (const char* model : {"gpt2-xl", "bert-large"})
                QTest::newRow((std::string(preset) + "/" + model).c_str()) << preset << model;
    }

    void layerUnderItsRoofs() {
        QFETCH(QString, preset);
        QFETCH(QString, model);
        const auto hw = tandem::test::presetOrDie(preset.toStdString());
        const auto source = model::zooModel(model.toStdString());
        QVERIFY(source);
        auto graph = (*source)->build({});
        QVERIFY(graph);
        const auto estimator = estimate::OperatorEstimator::create(hw.accelerator, hw.cluster);
        QVERIFY(estimator);
        const estimate::ModelEstimate e = estimate::estimateModel(*graph, *estimator);
        const auto& a = hw.accelerator;
        const double peak =
            2.0 * double(a.numTensorCores * a.tensorCoreRows * a.tensorCoreCols) * a.clockHz;
        const double bandwidth = a.hbmBandwidthBytesPerSecond * a.hbmEfficiency;
        int memoryBound = 0, computeBound = 0;
        for (const estimate::LayerEstimate& layer : e.layers) {
            const estimate::Roofline r = estimate::rooflineOf(layer, a);
            QCOMPARE(r.peakFlopsPerSecond, peak);
            QCOMPARE(r.bandwidthBytesPerSecond, bandwidth);
            QCOMPARE(r.ridgeIntensity, peak / bandwidth);
            QCOMPARE(r.roofAt(r.ridgeIntensity), peak);
            QCOMPARE(r.roofAt(r.ridgeIntensity / 4), bandwidth * r.ridgeIntensity / 4);
            std::size_t expected = 0;
            for (const auto& op : layer.operators)
                for (const auto* c : {&op.forward, &op.backward})
                    if (c->flops > 0 && c->bytes > 0 && c->allCoresSeconds > 0) ++expected;
            QCOMPARE(r.points.size(), expected);
            bool backwardSeen = false;
            for (const estimate::RooflinePoint& p : r.points) {
                QVERIFY(!backwardSeen || p.backward);  // forward first, then backward
                backwardSeen = p.backward;
                QCOMPARE(p.intensity, p.flops / p.bytes);
                QCOMPARE(p.attainedFlopsPerSecond, p.flops / p.seconds);
                QVERIFY2(p.attainedFlopsPerSecond <= r.roofAt(p.intensity) * (1 + 1e-9),
                         (layer.name + " " + p.name + (p.backward ? " (backward)" : "") + ": " +
                          std::to_string(p.attainedFlopsPerSecond) + " FLOP/s above its roof " +
                          std::to_string(r.roofAt(p.intensity)))
                             .c_str());
                QVERIFY(r.fractionOfRoof(p) > 0 && r.fractionOfRoof(p) <= 1 + 1e-9);
                (r.memoryBound(p) ? memoryBound : computeBound)++;
            }
        }
        // Norms and softmax sit left of every ridge; GPT-2 XL's GEMMs (1,024 tokens × 1,600 ×
        // 6,400) reach right of it on every chip here, BERT-large's at one 512-token sample do
        // not on the H100, whose ridge is near 300 FLOP/B.
        QVERIFY(memoryBound > 0);
        if (model == "gpt2-xl") QVERIFY(computeBound > 0);
    }
};

QTEST_GUILESS_MAIN(TestRoofline)
#include "test_roofline.moc"
