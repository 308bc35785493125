// Ranking stored results by another objective (core/search/ranking.h; issue 27 item 12). Oracle:
// a search run with that objective — every point's objective, the best point and both Pareto
// fronts must be the same, bit for bit, as the re-ranked throughput search's. And the refusals:
// pruned results that skipped points, multi-model results, points without energy.
#include <QtTest>

#include "core/search/ranking.h"
#include "core/search/search_run.h"
#include "tests/core/search/search_test_support.h"

using namespace tandem::core;
using namespace tandem::core::search;

namespace {

using namespace search_test;

SearchOutcome run(SearchObjective objective, ExplorerKind explorer,
                  std::vector<model::ModelSourcePtr> models = {zoo("gpt2-xl")}) {
    SearchRequest request;
    request.models = std::move(models);
    request.space = smallReferenceSpace();
    request.objective = objective;
    request.explorer = explorer;
    auto outcome = runSearch(request);
    if (!outcome) qFatal("%s", outcome.message().c_str());
    return std::move(outcome).value();
}

}  // namespace

class TestRanking : public QObject {
    Q_OBJECT
private slots:
    void rankingEqualsSearchingByTheObjective() {
        const SearchOutcome byThroughput =
            run(SearchObjective::Throughput, ExplorerKind::Exhaustive);
        const std::int64_t batch = SearchRequest{}.training.globalBatch;
        for (SearchObjective objective : kSearchObjectives) {
            const SearchOutcome searched = run(objective, ExplorerKind::Exhaustive);
            const auto ranked = rankResults(*byThroughput.results, objective, batch);
            QVERIFY2(ranked, ranked ? "" : ranked.message().c_str());
            const auto& a = ranked->points();
            const auto& b = searched.results->points();
            QCOMPARE(a.size(), b.size());
            int feasible = 0;
            for (std::size_t i = 0; i < a.size(); ++i) {
                QCOMPARE(a[i].point.index, b[i].point.index);
                QCOMPARE(a[i].objective, b[i].objective);  // bit for bit
                feasible += a[i].feasible();
            }
            QVERIFY(feasible >= 4);
            QCOMPARE(ranked->best(), searched.results->best());
            QCOMPARE(ranked->paretoByArea(), searched.results->paretoByArea());
            QCOMPARE(ranked->paretoByHbm(), searched.results->paretoByHbm());
        }
        // Per watt and by throughput pick different best points here: the ranking matters.
        const auto perWatt =
            rankResults(*byThroughput.results, SearchObjective::ThroughputPerWatt, batch);
        QVERIFY(perWatt->best() != byThroughput.results->best());
        // Back to throughput: the results as they were.
        const auto back = rankResults(*perWatt, SearchObjective::Throughput, batch);
        QCOMPARE(back->best(), byThroughput.results->best());
        for (std::size_t i = 0; i < back->points().size(); ++i)
            QCOMPARE(back->points()[i].objective, byThroughput.results->points()[i].objective);
    }

    void refusesWhatItCannotRank() {
        const std::int64_t batch = SearchRequest{}.training.globalBatch;
        // Pruned results that skipped points.
        const SearchOutcome pruned = run(SearchObjective::Throughput, ExplorerKind::Pruned);
        if (pruned.results->statistics().skipped > 0) {
            const auto r = rankResults(*pruned.results, SearchObjective::Cost, batch);
            QVERIFY(!r);
            QVERIFY2(QString::fromStdString(r.message()).contains("pruned explorer skipped"),
                     r.message().c_str());
        }
        // Multi-model results.
        const SearchOutcome multi = run(SearchObjective::Throughput, ExplorerKind::Exhaustive,
                                        {zoo("gpt2-xl"), zoo("bert-large")});
        const auto m = rankResults(*multi.results, SearchObjective::ThroughputPerWatt, batch);
        QVERIFY(!m);
        QVERIFY2(QString::fromStdString(m.message()).contains("multi-model"), m.message().c_str());
        // A point without its plan's energy (an old results file), and a bad batch.
        const SearchOutcome one = run(SearchObjective::Throughput, ExplorerKind::Exhaustive);
        std::vector<EvaluatedPoint> points = one.results->points();
        for (auto& p : points)
            if (p.feasible()) {
                p.planShape.joulesPerIteration = 0;
                break;
            }
        const SearchResults old(std::move(points), one.results->statistics());
        const auto e = rankResults(old, SearchObjective::ThroughputPerWatt, batch);
        QVERIFY(!e);
        QVERIFY2(QString::fromStdString(e.message()).contains("does not record its plan's energy"),
                 e.message().c_str());
        QVERIFY(rankResults(old, SearchObjective::Cost, batch));  // cost needs no energy
        QVERIFY(!rankResults(*one.results, SearchObjective::Cost, 0));
    }
};

QTEST_GUILESS_MAIN(TestRanking)
#include "test_ranking.moc"
