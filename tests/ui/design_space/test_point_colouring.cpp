// Colours in the design space stay put while a search streams (issue 14, item 11): with the
// searched space's value lists given before the first point (DesignSpaceData::setSpace), every
// value keeps the colour it had in the first batch that brought it, through every later batch
// and the final results. Batches arrive largest value first, the order in which colours
// assigned as points arrive moved the most (the first value took the middle colour, then slid
// to the light end as smaller values came in). Oracle: the colour each value had when it first
// appeared, recorded here.
#include <QtTest>
#include <map>
#include <vector>

#include "core/search/search_results.h"
#include "core/search/search_space.h"
#include "tests/ui/design_space/synthetic_design_points.h"
#include "ui/charts/design_space_data.h"

using namespace tandem;
using core::search::EvaluatedPoint;
using core::search::SearchSpace;
using ui::ColourDimension;
using ui::DesignSpaceData;
using ui::PointColouring;

namespace {

// The synthetic points' values are PHAZE's lists (synthetic_design_points.h), plus three clocks
// and two HBM bandwidths (searchedClock below).
SearchSpace syntheticSpace() {
    SearchSpace space = SearchSpace::phaze();
    space.clockHz = {750'000'000, 1'050'000'000, 1'400'000'000};
    space.hbmBandwidthBytesPerSecond = {600'000'000'000, 1'200'000'000'000};
    return space;
}

// A synthetic point at one of syntheticSpace()'s clocks and bandwidths, by its chip.
EvaluatedPoint searchedClock(EvaluatedPoint p) {
    const SearchSpace space = syntheticSpace();
    const auto chip = std::size_t(p.point.chipIndex);
    p.point.accelerator.clockHz = double(space.clockHz[chip % 3]);
    p.point.accelerator.hbmBandwidthBytesPerSecond =
        double(space.hbmBandwidthBytesPerSecond[(chip / 3) % 2]);
    return p;
}

// Points spread over the synthetic space (every value of every dimension turns up), grouped by
// their value of `dimension`, the largest value's group first.
std::vector<std::vector<EvaluatedPoint>> batchesLargestFirst(ColourDimension dimension) {
    std::map<double, std::vector<EvaluatedPoint>, std::greater<>> groups;
    for (std::int64_t k = 0; k < 6000; ++k) {
        const EvaluatedPoint p = searchedClock(tandem::test::syntheticDesignPoint(k * 257));
        const auto record = ui::DesignPointRecord::from(p);
        groups[PointColouring::valueOf(dimension, record)].push_back(p);
    }
    std::vector<std::vector<EvaluatedPoint>> out;
    for (auto& [value, points] : groups) out.push_back(std::move(points));
    return out;
}

QColor colourOf(const DesignSpaceData& data, std::size_t record) {
    const auto& colouring = data.colouring();
    return colouring.bucketColour(colouring.bucketOf(data.record(record)));
}

}  // namespace

class TestPointColouring : public QObject {
    Q_OBJECT
private slots:
    void valuesKeepTheirColourWhileStreaming_data() {
        QTest::addColumn<ColourDimension>("dimension");
        for (auto d : PointColouring::dimensions())
            QTest::newRow(qPrintable(PointColouring::dimensionName(d))) << d;
    }

    void valuesKeepTheirColourWhileStreaming() {
        QFETCH(ColourDimension, dimension);
        DesignSpaceData data;
        data.setColourDimension(dimension);
        data.setSpace(syntheticSpace());
        QVERIFY(data.colouring().hasValueLists());
        const int bucketsBefore = data.colouring().bucketCount();
        QVERIFY(bucketsBefore > 1);  // the key is known before the first point

        std::map<double, QRgb> colourOfValue;  // when the value first appeared
        std::vector<EvaluatedPoint> all;
        const auto check = [&](const char* when) {
            for (std::size_t i = 0; i < data.size(); ++i) {
                const double v = PointColouring::valueOf(dimension, data.record(i));
                const QRgb colour = colourOf(data, i).rgb();
                const auto [it, first] = colourOfValue.emplace(v, colour);
                QVERIFY2(first || it->second == colour,
                         qPrintable(QString("value %1 changed colour %2").arg(v).arg(when)));
            }
        };
        for (const auto& batch : batchesLargestFirst(dimension)) {
            for (const auto& p : batch) data.add(p);
            all.insert(all.end(), batch.begin(), batch.end());
            check("while streaming");
            if (QTest::currentTestFailed()) return;
        }
        QVERIFY(colourOfValue.size() > 1);
        QCOMPARE(data.colouring().bucketCount(), bucketsBefore);

        // The final results (sorted by index, adopted anew) keep the streamed colours.
        const core::search::SearchResults results(all, {});
        data.adoptResults(results);
        QCOMPARE(data.size(), all.size());
        check("in the results");
        QCOMPARE(data.colouring().bucketCount(), bucketsBefore);

        // A new search over the same space: the first point takes the colour it had before.
        data.clear();
        data.add(all.front());
        check("in a new search");
    }

    void searchedFieldsAreDimensions() {
        // Every optional searched field of the registry is a dimension, named and formatted by
        // it, with the space's values known before the first point.
        QStringList names;
        for (auto d : PointColouring::dimensions()) names << PointColouring::dimensionName(d);
        QVERIFY2(names.contains("Clock") && names.contains("HBM bandwidth"),
                 qPrintable(names.join(", ")));
        const auto clock = ColourDimension(qsizetype(names.indexOf("Clock")));
        PointColouring colouring(clock);
        colouring.setValueLists(syntheticSpace());
        QCOMPARE(colouring.bucketCount(), 3);
        QCOMPARE(colouring.bucketLabel(0), QString("750 MHz"));
        QCOMPARE(colouring.bucketLabel(2), QString("1.40 GHz"));
        const auto record =
            ui::DesignPointRecord::from(searchedClock(tandem::test::syntheticDesignPoint(24)));
        QCOMPARE(PointColouring::valueOf(clock, record), 1.05e9);
        QCOMPARE(colouring.bucketOf(record), 1);
        QVERIFY(record.tooltip({}).contains("1.05 GHz"));
        // The plan's V and ZeRO stage are named when the point's plan uses them.
        auto chosen = tandem::test::syntheticDesignPoint(24);
        chosen.plan.reset();
        chosen.status = core::search::PointStatus::Feasible;
        chosen.throughputSamplesPerSecond = chosen.objective = 10;
        chosen.planShape = {2, 8, 3, 0.5, 2, 1, true};
        const QString tip = ui::DesignPointRecord::from(chosen).tooltip({});
        QVERIFY2(tip.contains(QString::fromUtf8(
                     "t = 2 · d = 8 · 3 stages · V = 2 · ZeRO 1 · sequence parallel")),
                 qPrintable(tip));
        chosen.planShape.interleave = 1;
        chosen.planShape.zero = 0;
        chosen.planShape.sequenceParallel = false;
        QVERIFY(!ui::DesignPointRecord::from(chosen).tooltip({}).contains("V ="));
        // A space that does not search the clock: one bucket, the base's clock.
        colouring.setValueLists(SearchSpace::phaze());
        QCOMPARE(colouring.bucketCount(), 1);
        QCOMPARE(colouring.bucketLabel(0), QString("1.05 GHz"));
    }

    // Issue 27, item 8: a chip below the minimum area says why it was searched at all.
    void smallChipsSayWhyTheyAreThere() {
        DesignSpaceData data;
        data.setSpace(SearchSpace::phaze());  // 30 % of 278.8 mm²: 83.6 mm²
        auto small = tandem::test::syntheticDesignPoint(0);
        small.point.accelerator.numTensorCores = 1;
        small.point.accelerator.numVectorCores = 4;
        small.point.areaSquareMillimetres = 40;
        auto large = small;
        large.point.index = 1;
        large.point.areaSquareMillimetres = 120;  // inside the window: nothing to explain
        data.add(small);
        data.add(large);
        QCOMPARE(data.size(), std::size_t(2));
        const QString tip = data.tooltip(0);
        QVERIFY2(tip.contains("Below the minimum area (30 % of the 278.8 mm² budget, 83.6 mm²)") &&
                     tip.contains("single tensor core") && tip.contains("waives"),
                 qPrintable(tip));
        QVERIFY(!data.tooltip(1).contains("minimum area"));
        // A space with another window says its own numbers.
        SearchSpace half = SearchSpace::phaze();
        half.minAreaFraction = 0.5;
        data.setSpace(half);
        QVERIFY2(data.tooltip(1).contains("50 % of the 278.8 mm² budget"),
                 qPrintable(data.tooltip(1)));
    }

    void valuesOutsideTheListsStillGetAColour() {
        // A point from another space (a value no list names) is added as before; without a
        // space, every value comes from the points.
        DesignSpaceData data;
        data.setColourDimension(ColourDimension::MicrobatchSize);
        SearchSpace space = syntheticSpace();
        space.microbatchSizes = {1, 2};
        data.setSpace(space);
        QCOMPARE(data.colouring().bucketCount(), 2);
        EvaluatedPoint p = tandem::test::syntheticDesignPoint(23);  // microbatch 8
        QVERIFY(data.add(p));
        QCOMPARE(data.colouring().bucketCount(), 3);
        QCOMPARE(data.colouring().bucketLabel(2), QString("8 samples"));
        data.clearSpace();
        QVERIFY(!data.colouring().hasValueLists());
        QCOMPARE(data.colouring().bucketCount(), 1);
    }
};

QTEST_MAIN(TestPointColouring)
#include "test_point_colouring.moc"
