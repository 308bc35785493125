// Pareto fronts against a brute-force dominance check (random clouds with many ties and some
// NaNs), and SearchResults: ordering, best point and its tie rule, fronts over feasible points
// only, and the CSV (header with units, one row per point, numbers that read back exactly).
#include <QStringList>
#include <QtTest>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/search/pareto.h"
#include "core/search/search_results.h"

using tandem::core::search::EvaluatedPoint;
using tandem::core::search::ParetoCandidate;
using tandem::core::search::paretoFront;
using tandem::core::search::PointStatus;
using tandem::core::search::SearchResults;
using tandem::core::search::SearchStatistics;

namespace {

// O(n²): i is on the front iff no j dominates it.
std::vector<std::size_t> bruteForceFront(const std::vector<ParetoCandidate>& p) {
    std::vector<std::size_t> front;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (std::isnan(p[i].cost) || std::isnan(p[i].value)) continue;
        bool dominated = false;
        for (std::size_t j = 0; j < p.size() && !dominated; ++j) {
            if (std::isnan(p[j].cost) || std::isnan(p[j].value)) continue;
            dominated = p[j].cost <= p[i].cost && p[j].value >= p[i].value &&
                        (p[j].cost < p[i].cost || p[j].value > p[i].value);
        }
        if (!dominated) front.push_back(i);
    }
    return front;
}

EvaluatedPoint point(std::int64_t index, double area, std::int64_t hbmGiB, double objective,
                     PointStatus status = PointStatus::Feasible) {
    EvaluatedPoint e;
    e.point.index = index;
    e.point.chipIndex = index / 2;
    e.point.areaSquareMillimetres = area;
    e.point.accelerator.hbmCapacityBytes = hbmGiB << 30;
    e.status = status;
    e.objective = status == PointStatus::Feasible ? objective : 0;
    e.throughputSamplesPerSecond = e.objective;
    return e;
}

}  // namespace

class TestSearchResults : public QObject {
    Q_OBJECT

private slots:
    void paretoMatchesBruteForce() {
        std::mt19937_64 rng(7);
        for (int trial = 0; trial < 300; ++trial) {
            const int n = int(rng() % 60);
            const int levels = 2 + int(rng() % 12);  // few distinct values: many ties
            std::vector<ParetoCandidate> cloud;
            for (int i = 0; i < n; ++i) {
                ParetoCandidate c{double(rng() % std::uint64_t(levels)),
                                  double(rng() % std::uint64_t(levels))};
                if (trial % 3 == 0) c.value += double(rng() % 1000) * 1e-3;  // fewer ties
                if (rng() % 40 == 0) c.cost = std::numeric_limits<double>::quiet_NaN();
                if (rng() % 40 == 0) c.value = std::numeric_limits<double>::quiet_NaN();
                cloud.push_back(c);
            }
            std::vector<std::size_t> fast = paretoFront(cloud);
            const std::vector<std::size_t> slow = bruteForceFront(cloud);
            // Ordered by cost ascending, value descending, index ascending.
            for (std::size_t k = 1; k < fast.size(); ++k) {
                const ParetoCandidate& a = cloud[fast[k - 1]];
                const ParetoCandidate& b = cloud[fast[k]];
                QVERIFY(a.cost < b.cost ||
                        (a.cost == b.cost &&
                         (a.value > b.value || (a.value == b.value && fast[k - 1] < fast[k]))));
            }
            std::sort(fast.begin(), fast.end());
            QCOMPARE(fast, slow);
        }
    }

    void paretoByHand() {
        // Duplicates of a front point are all on it; an equal-cost point of lower value is not;
        // a cheaper point of equal value dominates a dearer one.
        const std::vector<ParetoCandidate> cloud = {{2, 5}, {1, 3}, {2, 5},   {2, 4},
                                                    {3, 5}, {4, 9}, {0.5, 3}, {4, 9}};
        QCOMPARE(paretoFront(cloud), (std::vector<std::size_t>{6, 0, 2, 5, 7}));
        QVERIFY(paretoFront(std::vector<ParetoCandidate>{}).empty());
    }

    void resultsOrderBestAndFronts() {
        std::vector<EvaluatedPoint> points = {point(7, 50, 64, 30),
                                              point(3, 40, 32, 30),
                                              point(5, 10, 32, 90, PointStatus::Infeasible),
                                              point(1, 60, 80, 20),
                                              point(4, 45, 32, 30),
                                              point(0, 20, 32, 0, PointStatus::Error),
                                              point(2, 30, 64, 10)};
        SearchStatistics stats;
        stats.explorer = "test";
        stats.pointsInSpace = 8;
        const SearchResults results(points, stats);
        QCOMPARE(results.points().size(), std::size_t(7));
        for (std::size_t i = 0; i < results.points().size(); ++i)
            QCOMPARE(results.points()[i].point.index, std::int64_t(i < 6 ? i : 7));
        QCOMPARE(results.statistics().evaluated, std::int64_t(7));
        // Objective 30 three times (indices 3, 4, 7): the lowest index wins.
        QVERIFY(results.best().has_value());
        QCOMPARE(results.points()[*results.best()].point.index, std::int64_t(3));
        // Area front over feasible points: 30 mm² (10), 40 mm² (30). The infeasible point at
        // 10 mm² and the erroneous one at 20 mm² are not candidates.
        std::vector<std::int64_t> byArea;
        for (std::size_t i : results.paretoByArea())
            byArea.push_back(results.points()[i].point.index);
        QCOMPARE(byArea, (std::vector<std::int64_t>{2, 3}));
        // HBM front: 32 GiB best is 30 (indices 3 and 4 tie, both on it), nothing dearer beats 30.
        std::vector<std::int64_t> byHbm;
        for (std::size_t i : results.paretoByHbm())
            byHbm.push_back(results.points()[i].point.index);
        QCOMPARE(byHbm, (std::vector<std::int64_t>{3, 4}));

        const SearchResults none({point(0, 1, 32, 0, PointStatus::Infeasible)}, stats);
        QVERIFY(!none.best().has_value());
        QVERIFY(none.paretoByArea().empty());
    }

    void csv() {
        std::vector<EvaluatedPoint> points = {point(1, 123.456789, 80, 0.1 + 0.2),
                                              point(0, 20, 32, 0, PointStatus::Infeasible)};
        points[0].planShape = {8, 16, 4, 1.5, 2, 1, true};
        points[1].message = "needs 90 GiB, \"too\" much";
        const SearchResults results(points, SearchStatistics{});
        const QString csv = QString::fromStdString(results.toCsv());
        const QStringList lines = csv.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        const QStringList header = lines[0].split(',');
        for (const char* column :
             {"point_index", "area_mm2", "hbm_bytes", "throughput_samples_per_s", "objective",
              "time_per_batch_s", "pareto_area", "best", "estimate_s", "message"})
            QVERIFY2(header.contains(column), column);
        const QStringList first = lines[1].split(',');  // the quoted message holds a comma
        const auto field = [&](const QStringList& row, const char* column) {
            return row[header.indexOf(column)];
        };
        QCOMPARE(field(first, "point_index"), QString("0"));
        QCOMPARE(field(first, "status"), QString("infeasible"));
        QCOMPARE(field(first, "best"), QString("0"));
        QVERIFY(lines[1].endsWith(",\"needs 90 GiB, \"\"too\"\" much\""));
        const QStringList second = lines[2].split(',');
        QCOMPARE(second.size(), header.size());
        QCOMPARE(field(second, "hbm_bytes"), QString::number(80LL << 30));
        QCOMPARE(field(second, "area_mm2").toDouble(), 123.456789);
        QCOMPARE(field(second, "objective").toDouble(), 0.1 + 0.2);  // exact round trip
        QCOMPARE(field(second, "best"), QString("1"));
        QCOMPARE(field(second, "pareto_area"), QString("1"));
        QCOMPARE(field(first, "tensor_parallel"), QString());  // no plan
        QCOMPARE(field(first, "interleave"), QString());
        QCOMPARE(field(first, "zero"), QString());
        QCOMPARE(field(second, "tensor_parallel"), QString("8"));
        QCOMPARE(field(second, "pipeline_stages"), QString("4"));
        QCOMPARE(field(second, "interleave"), QString("2"));  // V and ZeRO of the plan
        QCOMPARE(field(second, "zero"), QString("1"));
        QCOMPARE(field(second, "sequence_parallel"), QString("1"));
        QCOMPARE(field(first, "sequence_parallel"), QString());
    }
};

QTEST_GUILESS_MAIN(TestSearchResults)
#include "test_search_results.moc"
