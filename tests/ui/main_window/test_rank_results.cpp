// Issue 27 item 12, in the window: the Design space's "Rank by" ranks the shown results again
// by throughput per watt or cost without searching (no search starts), the axis, the best point
// and the set-up's Rank by follow, and the results are current, not stale. Oracle: each point's
// objective by hand from its plan's figures (global batch ÷ joules, throughput ÷ devices) and the
// best point by brute force over them. A saved project reopens ranked as it was.
#include <QComboBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "core/search/search_objective.h"
#include "tests/ui/main_window/window_test_support.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/design_space_chart.h"
#include "ui/jobs/results_file_job.h"

using namespace tandem;
using core::search::SearchObjective;

namespace {

// Chooses `objective` in the Design space's Rank by as a user does.
void choose(ui::DesignSpaceChart* chart, SearchObjective objective) {
    QComboBox* box = chart->rankBox();
    const int row = box->findData(int(objective));
    QVERIFY(row >= 0);
    box->setCurrentIndex(row);
    emit box->activated(row);
}

// The best point by hand: each feasible point's objective from its figures.
qint64 bestByHand(const core::search::SearchResults& results, SearchObjective objective,
                  double batch) {
    qint64 best = -1;
    double top = 0;
    for (const auto& p : results.points()) {
        if (!p.feasible()) continue;
        const double value = objective == SearchObjective::Cost
                                 ? p.throughputSamplesPerSecond / double(p.planShape.devicesUsed)
                                 : batch / p.planShape.joulesPerIteration;
        if (std::abs(value - p.objective) > 1e-12 * value) return -2;  // a wrong stored objective
        if (best < 0 || value > top) best = p.point.index, top = value;
    }
    return best;
}

}  // namespace

class TestRankResults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { tandem::test::isolateUserFolders(); }
    void init() { QSettings().clear(); }

    void ranksWithoutSearchingAgain() {
        ui::MainWindow window;
        window.show();
        window_test::search(window);
        auto* chart = window.views()->designSpace();
        const auto byThroughput = window.workspace()->results();
        QSignalSpy searches(window.workspace()->searchJob(), &ui::SearchJob::finished);
        const double batch = double(window.setup()->pointRequest().training.globalBatch);
        for (SearchObjective objective :
             {SearchObjective::ThroughputPerWatt, SearchObjective::Cost}) {
            choose(chart, objective);
            QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->report()->objective == objective, 60000);
            const auto ranked = window.workspace()->results();
            QVERIFY(ranked != byThroughput);
            QCOMPARE(ranked->points().size(), byThroughput->points().size());
            const qint64 best = bestByHand(*ranked, objective, batch);
            QVERIFY(best >= 0);
            QCOMPARE(chart->bestPointIndex(), std::optional<qint64>(best));
            QCOMPARE(ranked->points()[*ranked->best()].point.index, best);
            QVERIFY(!chart->isStale());
            QVERIFY(window.setup()->project().objective == objective);
            const QString unit =
                objective == SearchObjective::Cost ? "samples/device-h" : "samples/kJ";
            QVERIFY2(chart->yAxisLabel().contains(unit), qPrintable(chart->yAxisLabel()));
            QCOMPARE(chart->rankBox()->currentData().toInt(), int(objective));
            // The reference chip (outside the space) sits at its objective, not its throughput.
            const auto& reference = window.workspace()->report()->models.front().baselines;
            if (const auto mark = chart->referenceMark()) {
                QVERIFY(reference.referencePlaced.plan);
                QCOMPARE(mark->y(),
                         core::search::objectiveValue(objective, *reference.referencePlaced.plan) *
                             core::search::objectiveDisplayScale(objective));
            } else {
                QVERIFY(reference.referenceInSpace || !reference.referencePlaced.plan);
            }
        }
        QCOMPARE(searches.count(), 0);  // no search ran
        QVERIFY(chart->grab().save(tandem::test::outputPath("ranked_by_cost.png")));

        // Saved and opened again: ranked by cost, current.
        QTemporaryDir dir;
        const QString path = dir.filePath("ranked.tandem");
        QVERIFY(window.workspace()->saveProject(path));
        QTRY_VERIFY_WITH_TIMEOUT(!window.workspace()->filesJob()->busy(), 120000);
        ui::MainWindow reopened;
        QVERIFY(reopened.workspace()->openProject(path));
        QTRY_COMPARE_WITH_TIMEOUT(reopened.views()->designSpace()->pointCount(),
                                  qint64(byThroughput->points().size()), 120000);
        QVERIFY(reopened.workspace()->report()->objective == SearchObjective::Cost);
        QVERIFY(!reopened.views()->designSpace()->isStale());
        QCOMPARE(reopened.views()->designSpace()->bestPointIndex(), chart->bestPointIndex());

        // Back to throughput from the set-up's own Rank by: the first ranking again.
        auto* rankBy = window.setup()->findChild<QComboBox*>("objective");
        QVERIFY(rankBy);
        rankBy->setCurrentIndex(rankBy->findData(int(SearchObjective::Throughput)));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.workspace()->report()->objective == SearchObjective::Throughput, 60000);
        const auto back = window.workspace()->results();
        QCOMPARE(back->best(), byThroughput->best());
        for (std::size_t i = 0; i < back->points().size(); ++i)
            QCOMPARE(back->points()[i].objective, byThroughput->points()[i].objective);
    }
};

QTEST_MAIN(TestRankResults)
#include "test_rank_results.moc"
