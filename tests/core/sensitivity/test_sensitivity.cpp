// Sensitivity (issue 27 item 14). Oracles: placeModel() run here at the moved value gives the
// same throughput bit for bit; integer fields move by whole units (8 cores → 7 and 9, 2 → 1 and
// 3); a value outside the registry's range is refused with the registry's message, not clamped;
// physics: a faster clock, more HBM bandwidth or faster links never slow the best plan, and the
// energy prices change energy but not time; the order is by impact.
#include <QtTest>
#include <cmath>

#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "core/search/sensitivity.h"
#include "tests/support/small_placement.h"

using namespace tandem::core;
using search::SensitivityEntry;

namespace {

const SensitivityEntry& entry(const search::SensitivityResult& r, const std::string& key) {
    for (const auto& e : r.entries)
        if (e.key == key) return e;
    qFatal("no entry %s", key.c_str());
}

double throughputAt(placement::ModelPlacementRequest r, double hardware::AcceleratorConfig::*field,
                    double value) {
    r.hardware.accelerator.*field = value;
    auto placed = placement::placeModel(r);
    if (!placed || !placed->result.plan) qFatal("placement failed");
    return placed->result.plan->throughputSamplesPerSecond;
}
}  // namespace

class TestSensitivity : public QObject {
    Q_OBJECT
private slots:
    void movesEachParameterAndPlacesAgain() {
        placement::ModelPlacementRequest request = tandem::test::gpt2XlOn32Tpuv4();
        request.hardware.accelerator.hbmEfficiency = 1.0;  // at its maximum: +10 % is refused
        auto result = search::analyseSensitivity(request, 0.1);
        QVERIFY2(result.ok(), result.ok() ? "" : result.message().c_str());
        QVERIFY(!result->cancelled);
        QCOMPARE(result->entries.size(), search::sensitivityParameters().size());
        QVERIFY(result->entries.size() >= 15);
        auto base = placement::placeModel(request);
        QVERIFY(base && base->result.plan);
        QCOMPARE(result->baseThroughputSamplesPerSecond,
                 base->result.plan->throughputSamplesPerSecond);

        // The clock: placeModel at 0.9 and 1.1 × the clock, by hand.
        const SensitivityEntry& clock = entry(*result, "clockHz");
        const double f = request.hardware.accelerator.clockHz;
        QCOMPARE(clock.low.value, f * 0.9);
        QCOMPARE(clock.high.value, f * 1.1);
        QCOMPARE(clock.low.throughputSamplesPerSecond,
                 throughputAt(request, &hardware::AcceleratorConfig::clockHz, f * 0.9));
        QCOMPARE(clock.high.throughputSamplesPerSecond,
                 throughputAt(request, &hardware::AcceleratorConfig::clockHz, f * 1.1));
        // Faster never slower: clock, HBM bandwidth, links.
        for (const char* key :
             {"clockHz", "hbmBandwidthBytesPerSecond", "intraNodeBandwidthBytesPerSecond",
              "interNodeBandwidthBytesPerSecond"}) {
            const SensitivityEntry& e = entry(*result, key);
            QVERIFY2(e.high.evaluated && e.low.evaluated, key);
            QVERIFY2(e.throughputChange(e.high) >= 0, key);
            QVERIFY2(e.throughputChange(e.low) <= 0, key);
        }
        QVERIFY(entry(*result, "clockHz").throughputChange(clock.high) > 0);
        // Integers move by whole units.
        const SensitivityEntry& cores = entry(*result, "numTensorCores");
        QCOMPARE(cores.base, 8.0);
        QCOMPARE(cores.low.value, 7.0);
        QCOMPARE(cores.high.value, 9.0);
        const SensitivityEntry& vector = entry(*result, "numVectorCores");
        QCOMPARE(vector.base, 2.0);
        QCOMPARE(vector.low.value, 1.0);
        QCOMPARE(vector.high.value, 3.0);
        // Out of range: refused with the registry's reason, not clamped.
        const SensitivityEntry& eff = entry(*result, "hbmEfficiency");
        QVERIFY(eff.low.evaluated);
        QVERIFY(!eff.high.evaluated);
        QCOMPARE(eff.high.value, 1.1);
        QVERIFY2(eff.high.note.find("hbmEfficiency") != std::string::npos, eff.high.note.c_str());
        QCOMPARE(eff.throughputChange(eff.high), 0.0);
        // Energy prices: the same time, more joules.
        const SensitivityEntry& mac = entry(*result, "macEnergyPicojoules");
        QCOMPARE(mac.throughputChange(mac.high), 0.0);
        QVERIFY(mac.energyChange(mac.high) > 0.01 && mac.energyChange(mac.high) < 0.1);
        QVERIFY(mac.energyChange(mac.low) < 0);
        // No cluster-size fields (that is scaling) and no power-of-two fields.
        for (const auto& e : result->entries) {
            QVERIFY(e.key != "devices" && e.key != "devicesPerNode" && e.key != "bytesPerElement");
        }
        // By impact.
        const auto impact = [](const SensitivityEntry& e) {
            return std::max(std::abs(e.throughputChange(e.low)),
                            std::abs(e.throughputChange(e.high)));
        };
        for (std::size_t i = 1; i < result->entries.size(); ++i)
            QVERIFY(impact(result->entries[i - 1]) >= impact(result->entries[i]));
    }

    void cancelKeepsWhatFinished() {
        int reports = 0;
        RunControl control(
            [&](const Progress& p) {
                if (p.done >= 4 && ++reports) control.cancel();
            },
            std::chrono::milliseconds(0));
        auto result = search::analyseSensitivity(tandem::test::gpt2XlOn32Tpuv4(), 0.1, &control);
        QVERIFY(result.ok());
        QVERIFY(result->cancelled);
        int evaluated = 0;
        for (const auto& e : result->entries) evaluated += e.low.evaluated + e.high.evaluated;
        QVERIFY(evaluated >= 4);
        QVERIFY(evaluated < int(2 * result->entries.size()));
    }

    void badInput() {
        QVERIFY(!search::analyseSensitivity(tandem::test::gpt2XlOn32Tpuv4(), 0).ok());
        QVERIFY(!search::analyseSensitivity(tandem::test::gpt2XlOn32Tpuv4(), 0.95).ok());
        placement::ModelPlacementRequest tiny = tandem::test::gpt2XlOn32Tpuv4();
        tiny.hardware.accelerator.hbmCapacityBytes = std::int64_t(1) << 30;  // GPT-2 XL never fits
        tiny.hardware.cluster.devices = 1;
        tiny.hardware.cluster.devicesPerNode = 1;
        auto refused = search::analyseSensitivity(tiny, 0.1);
        QVERIFY(!refused.ok());
        QVERIFY(refused.message().find("nothing fits") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSensitivity)
#include "test_sensitivity.moc"
