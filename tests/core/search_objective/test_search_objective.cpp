// Ranking a search by throughput per watt or by cost (search --objective). Oracles: the objective
// of every point recomputed by hand from its plan's batch, joules, devices and throughput; the
// best point and the Pareto front by brute force over the points; the fully re-evaluated plan of
// the best point priced again by energy::estimateEnergy; the exhaustive walk for the pruned
// explorer (a bound that were not one would change the best).
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/io/search_results_json.h"
#include "core/io/search_results_reader.h"
#include "core/search/search_objective.h"
#include "core/search/search_run.h"
#include "tests/core/search/search_test_support.h"

using namespace tandem::core;
using namespace tandem::core::search;

namespace {

using namespace search_test;

SearchOutcome run(const SearchRequest& request) {
    auto outcome = runSearch(request);
    if (!outcome) qFatal("%s", outcome.message().c_str());
    return std::move(outcome).value();
}

SearchRequest requestFor(SearchObjective objective, ExplorerKind explorer) {
    SearchRequest request;
    request.models = {zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.objective = objective;
    request.explorer = explorer;
    return request;
}

// The objective from the point's plan figures, written out for each kind.
double byHand(SearchObjective objective, const EvaluatedPoint& p, double batch) {
    const PlanShape& s = p.planShape;
    switch (objective) {
        case SearchObjective::Throughput:
            return p.throughputSamplesPerSecond;
        case SearchObjective::ThroughputPerWatt:
            return batch / s.joulesPerIteration;
        case SearchObjective::Cost:
            return p.throughputSamplesPerSecond / double(s.devicesUsed);
    }
    return 0;
}

}  // namespace

class TestSearchObjective : public QObject {
    Q_OBJECT
private slots:
    void namesRoundTrip();
    void pointsAreRankedByTheObjective_data();
    void pointsAreRankedByTheObjective();
    void perWattPrefersAnotherPointThanThroughput();
    void reportCarriesEnergyAndReadsBack();
};

void TestSearchObjective::namesRoundTrip() {
    for (SearchObjective o : kSearchObjectives) {
        auto back = parseSearchObjective(toString(o));
        QVERIFY(back.ok());
        QCOMPARE(int(*back), int(o));
    }
    auto bad = parseSearchObjective("watts");
    QVERIFY(!bad.ok());
    QVERIFY(bad.message().find("throughput-per-watt") != std::string::npos);
    QCOMPARE(formatObjective(SearchObjective::ThroughputPerWatt, 0.01234),
             std::string("12.3 samples/kJ"));
    QCOMPARE(formatObjective(SearchObjective::Cost, 1.0), std::string("3600 samples/device-h"));
}

void TestSearchObjective::pointsAreRankedByTheObjective_data() {
    QTest::addColumn<int>("objective");
    QTest::addColumn<int>("explorer");
    for (SearchObjective o : kSearchObjectives)
        for (ExplorerKind e : {ExplorerKind::Exhaustive, ExplorerKind::Pruned})
            QTest::newRow((std::string(toString(o)) + "/" + std::string(toString(e))).c_str())
                << int(o) << int(e);
}

void TestSearchObjective::pointsAreRankedByTheObjective() {
    QFETCH(int, objective);
    QFETCH(int, explorer);
    const auto kind = SearchObjective(objective);
    const SearchRequest request = requestFor(kind, ExplorerKind(explorer));
    const SearchOutcome outcome = run(request);
    const SearchResults& r = *outcome.results;
    QCOMPARE(int(outcome.objective), objective);
    const double batch = double(request.training.globalBatch);
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < r.points().size(); ++i) {
        const EvaluatedPoint& p = r.points()[i];
        if (!p.feasible()) continue;
        const PlanShape& s = p.planShape;
        QVERIFY(s.devicesUsed >= 1 && s.devicesUsed <= request.space.base.cluster.devices);
        QVERIFY(s.joulesPerIteration > 0 && s.averagePowerWatts > 0);
        // Power per device × devices × time = energy.
        QVERIFY(std::abs(s.averagePowerWatts * double(s.devicesUsed) * s.timePerBatchSeconds /
                             s.joulesPerIteration -
                         1) < 1e-9);
        QVERIFY(std::abs(p.objective / byHand(kind, p, batch) - 1) < 1e-12);
        if (!best || p.objective > r.points()[*best].objective) best = i;
    }
    QVERIFY(best.has_value());
    QCOMPARE(r.best(), best);
    if (ExplorerKind(explorer) == ExplorerKind::Pruned) {
        QCOMPARE(r.statistics().boundViolations, std::int64_t(0));
        // The exhaustive walk finds the same best point.
        const SearchOutcome all = run(requestFor(kind, ExplorerKind::Exhaustive));
        QCOMPARE(r.points()[*r.best()].point.index,
                 all.results->points()[*all.results->best()].point.index);
    }
    // The front by area: no feasible point with less or equal area has a higher objective.
    for (std::size_t i : r.paretoByArea())
        for (const EvaluatedPoint& q : r.points())
            if (q.feasible() &&
                q.point.areaSquareMillimetres < r.points()[i].point.areaSquareMillimetres)
                QVERIFY(q.objective <= r.points()[i].objective);
    // The best point's full plan, priced again, gives the stored figures.
    const auto& plan = outcome.models.front().plans.at(*r.best());
    QVERIFY(plan && plan->energy.known);
    const energy::EnergyEstimate again = energy::estimateEnergy(
        plan->activity, energy::EnergyRates::of(r.points()[*r.best()].point.accelerator,
                                                request.space.base.cluster));
    QCOMPARE(again.totalJoules(), r.points()[*r.best()].planShape.joulesPerIteration);
    QCOMPARE(objectiveValue(kind, *plan), r.points()[*r.best()].objective);
}

void TestSearchObjective::perWattPrefersAnotherPointThanThroughput() {
    // Throughput per watt does not simply follow throughput: over this space the two rank
    // differently (a test that would pass with the objective ignored must not exist).
    const SearchOutcome fast =
        run(requestFor(SearchObjective::Throughput, ExplorerKind::Exhaustive));
    const SearchOutcome frugal =
        run(requestFor(SearchObjective::ThroughputPerWatt, ExplorerKind::Exhaustive));
    const auto& a = fast.results->points();
    const auto& b = frugal.results->points();
    QCOMPARE(a.size(), b.size());
    const EvaluatedPoint& fastest = a[*fast.results->best()];
    const EvaluatedPoint& leanest = b[*frugal.results->best()];
    // Same evaluations, different objective: the throughputs agree point by point.
    for (std::size_t i = 0; i < a.size(); ++i)
        QCOMPARE(a[i].throughputSamplesPerSecond, b[i].throughputSamplesPerSecond);
    QVERIFY(leanest.point.index != fastest.point.index);
    QVERIFY(leanest.throughputSamplesPerSecond <= fastest.throughputSamplesPerSecond);
    const double batch = 4096;
    QVERIFY(batch / leanest.planShape.joulesPerIteration >
            batch / fastest.planShape.joulesPerIteration);
}

void TestSearchObjective::reportCarriesEnergyAndReadsBack() {
    const SearchRequest request = requestFor(SearchObjective::Cost, ExplorerKind::Exhaustive);
    const SearchOutcome outcome = run(request);
    io::SearchReport report = io::makeSearchReport(outcome, request.space.base);
    report.budget = io::BudgetContext{{300e9, 2.0}, 1024};
    const std::string text = io::searchReportToJson(report);
    const auto json = nlohmann::json::parse(text);
    QCOMPARE(json["objective"].get<std::string>(), std::string("cost"));
    const EvaluatedPoint& best = outcome.results->points()[*outcome.results->best()];
    const auto& point = json["points"][*outcome.results->best()];
    QCOMPARE(point["objective"].get<double>(), best.objective);
    QCOMPARE(point["energy_j_per_iteration"].get<double>(), best.planShape.joulesPerIteration);
    QCOMPARE(point["average_power_w"].get<double>(), best.planShape.averagePowerWatts);
    QCOMPARE(point["plan"]["devices_used"].get<std::int64_t>(), best.planShape.devicesUsed);
    // Days, device-hours, MWh and cost by hand from the modelled time per batch (no clock is
    // read): 300e9 tokens of 1,024 per sample.
    const double iterations = 300e9 / (4096.0 * 1024);
    const double trainingDays = iterations * best.planShape.timePerBatchSeconds / 86400;
    QVERIFY(std::abs(point["days_to_train"].get<double>() / trainingDays - 1) < 1e-9);
    const double deviceHours = trainingDays * 24 * double(best.planShape.devicesUsed);
    QVERIFY(std::abs(point["device_hours"].get<double>() / deviceHours - 1) < 1e-9);
    QVERIFY(std::abs(point["cost"].get<double>() / (2 * deviceHours) - 1) < 1e-9);
    QVERIFY(std::abs(point["energy_mwh"].get<double>() /
                         (iterations * best.planShape.joulesPerIteration / 3.6e9) -
                     1) < 1e-9);
    // The full plans carry the same budget figures.
    const auto& plan = json["plans"][std::to_string(*outcome.results->best())];
    QVERIFY(std::abs(plan["cost"].get<double>() / point["cost"].get<double>() - 1) < 1e-9);
    // An infeasible point has none.
    for (const auto& p : json["points"])
        if (p["status"] != "feasible")
            QVERIFY(!p.contains("energy_j_per_iteration") && !p.contains("cost"));

    // Read back: the objective and every point's energy, bit for bit.
    auto back = io::parseSearchReportJson(text, "results.json");
    QVERIFY2(back.ok(), back.ok() ? "" : back.message().c_str());
    QCOMPARE(int(back->objective), int(SearchObjective::Cost));
    for (std::size_t i = 0; i < outcome.results->points().size(); ++i) {
        QVERIFY(back->results->points()[i].planShape == outcome.results->points()[i].planShape);
        QCOMPARE(back->results->points()[i].objective, outcome.results->points()[i].objective);
    }
    // A cost-ranked file whose point lacks its objective is refused.
    auto damaged = nlohmann::json::parse(text);
    damaged["points"][0].erase("objective");
    QVERIFY(!io::parseSearchReportJson(damaged.dump(), "results.json").ok());
    damaged = nlohmann::json::parse(text);
    damaged["objective"] = "speed";
    auto refused = io::parseSearchReportJson(damaged.dump(), "results.json");
    QVERIFY(!refused.ok());
    QVERIFY(refused.message().find("objective") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestSearchObjective)
#include "test_search_objective.moc"
