// Several models at once (issue 14), driven as a user drives the window: bert-large in the set-up
// and opt-350m checked (by keyboard) under "Also search for" (it loads in the background), one
// search over a small space. The oracle is the search's own numbers: each point's objective and
// the best point are recomputed from its per-model throughputs and the normalisers runSearch
// reports (the reference chip's throughput of each model); the chart, its tooltips and the
// current-point bar must show those numbers through ui::throughputText; the project file keeps
// the extra model. Nothing is timed; waits have generous watchdogs.
#include <QApplication>
#include <QComboBox>
#include <QListWidget>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/io/project_file.h"
#include "tests/ui/main_window/window_test_support.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/design_space_chart.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/charts/point_text.h"
#include "ui/editors/search_space_editor.h"
#include "ui/jobs/results_file_job.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/panels/current_point_bar.h"
#include "ui/panels/extra_models_list.h"
#include "ui/panels/pipeline_view.h"
#include "ui/panels/setup_panel.h"
#include "ui/view_tabs.h"
#include "ui/widgets/elided_label.h"
#include "ui/workspace.h"

using namespace tandem;

namespace {
using window_test::smallSpace;

int rowOf(QListWidget* list, const QString& reference) {
    for (int row = 0; row < list->count(); ++row)
        if (list->item(row)->data(Qt::UserRole).toString() == reference) return row;
    return -1;
}
}  // namespace

class TestMultiModel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { tandem::test::isolateUserFolders(); }
    void init() { QSettings().clear(); }

    void searchesSeveralModelsAtOnce() {
        ui::MainWindow window;
        window.show();
        QVERIFY(window.workspace()->setModel("bert-large"));
        window.setup()->searchSpaceEditor()->setSpace(smallSpace());
        ui::SetupPanel* setup = window.setup();

        // The set-up's model is listed but cannot be checked: it is always searched.
        QListWidget* list = setup->extraModelsList()->list();
        const int mainRow = rowOf(list, "bert-large");
        QVERIFY(mainRow >= 0);
        QVERIFY(!(list->item(mainRow)->flags() & Qt::ItemIsUserCheckable));
        // opt-350m checked from the keyboard: Space on the current row.
        const int row = rowOf(list, "opt-350m");
        QVERIFY(row >= 0);
        QSignalSpy searchChanged(setup, &ui::SetupPanel::searchChanged);
        list->setFocus();
        list->setCurrentRow(row);
        QTest::keyClick(list, Qt::Key_Space);
        QCOMPARE(list->item(row)->checkState(), Qt::Checked);
        QCOMPARE(setup->extraModels(), QStringList{"opt-350m"});
        // It loads in the background; the search gets it once it has loaded.
        QTRY_VERIFY_WITH_TIMEOUT(!setup->extraModelsList()->loading(), 60000);
        QCOMPARE(list->item(row)->checkState(), Qt::Checked);
        QVERIFY(searchChanged.count() >= 1);
        QCOMPARE(setup->project().searchModels, std::vector<std::string>{"opt-350m"});
        {
            const auto request = setup->searchRequest();
            QCOMPARE(request.models.size(), std::size_t(2));
            QCOMPARE(request.models[0]->name(), std::string("bert-large"));
            QCOMPARE(request.models[1]->name(), std::string("opt-350m"));
        }
        // A model that cannot be loaded is reported and left out; the others stay.
        QString error;
        QSignalSpy failed(setup, &ui::SetupPanel::modelLoadFailed);
        QVERIFY(!setup->setExtraModels({"opt-350m", "/no/such/model.json"}, &error));
        QVERIFY2(error.contains("/no/such/model.json"), qPrintable(error));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(setup->extraModels(), QStringList{"opt-350m"});
        QCOMPARE(setup->searchRequest().models.size(), std::size_t(2));

        // The set-up's own evaluation first: one that lands after the search (a loaded
        // machine) would replace the search's "best point" readout this test reads below.
        QVERIFY(window_test::settle(window));
        QSignalSpy finished(window.workspace()->searchJob(), &ui::SearchJob::finished);
        window.startSearch();
        QVERIFY(finished.wait(600000));
        QVERIFY2(window.views()->designSpace()->titleText().contains("with opt-350m"),
                 qPrintable(window.views()->designSpace()->titleText()));
        const auto results = window.workspace()->results();
        QVERIFY(results && !results->points().empty());
        const auto outcome = window.workspace()->searchJob()->lastOutcome();
        QVERIFY(outcome);
        QCOMPARE(outcome->models.size(), std::size_t(2));
        const double norm[2] = {outcome->models[0].normaliser, outcome->models[1].normaliser};
        QVERIFY(norm[0] > 0 && norm[1] > 0);

        // Oracle: the geometric mean of the normalised throughputs, recomputed per point.
        const auto& points = results->points();
        std::optional<std::size_t> best;
        double bestScore = 0;
        int feasible = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            const auto& p = points[i];
            if (!p.feasible()) continue;
            ++feasible;
            QCOMPARE(p.modelThroughputsSamplesPerSecond.size(), std::size_t(2));
            const double t0 = p.modelThroughputsSamplesPerSecond[0];
            const double t1 = p.modelThroughputsSamplesPerSecond[1];
            QVERIFY(t0 > 0 && t1 > 0);
            const double score = std::sqrt((t0 / norm[0]) * (t1 / norm[1]));
            QVERIFY2(
                std::abs(score - p.objective) <= 1e-9 * score,
                qPrintable(
                    QString("point %1: %2 vs %3").arg(p.point.index).arg(score).arg(p.objective)));
            if (!best || score > bestScore) best = i, bestScore = score;
        }
        QVERIFY(feasible >= 2);
        QVERIFY(best && results->best());
        QCOMPARE(points[*results->best()].point.index, points[*best].point.index);
        const auto& top = points[*best];
        const QString t0 = ui::throughputText(top.modelThroughputsSamplesPerSecond[0]);
        const QString t1 = ui::throughputText(top.modelThroughputsSamplesPerSecond[1]);

        // The chart plots the objective and says so; a tooltip names each model's throughput.
        auto* chart = window.views()->designSpace();
        QVERIFY2(chart->yAxisLabel().contains("geometric mean"), qPrintable(chart->yAxisLabel()));
        QCOMPARE(chart->bestPointIndex(), std::optional<qint64>(top.point.index));
        QVERIFY2(chart->titleText().contains(ui::objectiveText(top.objective)),
                 qPrintable(chart->titleText()));
        // The Pareto line is drawn at the objectives too, ending at the best point.
        const QVector<QPointF> line = chart->paretoLine();
        QVERIFY(!line.isEmpty());
        QCOMPARE(line.back(), QPointF(top.point.areaSquareMillimetres, top.objective));
        for (const QPointF& p : line) QVERIFY(p.y() > 0);
        const QString tip = chart->tooltipFor(top.point.index);
        for (const QString& part :
             {QString("bert-large"), QString("opt-350m"), t0, t1, ui::objectiveText(top.objective)})
            QVERIFY2(tip.contains(part), qPrintable(tip + "  <-- lacks: " + part));

        // The view stays where the user left it when the search finishes (issue 27, item 7); a
        // click on the star shows the best point, and the bar lists both models' throughputs.
        QCOMPARE(window.workspace()->shownPoint(), qint64(-1));
        const QString readout =
            window.statusBar()->findChild<ui::ElidedLabel*>("liveReadout")->fullText();
        QVERIFY2(readout.contains("best point"), qPrintable(readout));
        emit chart->pointSelected(top.point.index);
        QCOMPARE(window.workspace()->shownPoint(), top.point.index);
        const QString bar = window.currentPointBar()->text();
        const QString expected = QString("bert-large %1 · opt-350m %2").arg(t0, t1);
        QVERIFY2(bar.contains(expected.toHtmlEscaped()),
                 qPrintable(bar + "  <-- lacks: " + expected));

        // Each model's breakdown at the point (issue 27, item 10): "Views show" picks the model
        // whose plan the views show; its throughput is the search's for that model there.
        QComboBox* choice = window.currentPointBar()->modelChoice();
        QVERIFY(window_test::settle(window));
        QVERIFY(choice->isVisible());
        QCOMPARE(choice->count(), 2);
        QCOMPARE(choice->currentIndex(), 0);
        for (int model : {1, 0}) {
            choice->setCurrentIndex(model);
            emit choice->activated(model);
            QTRY_VERIFY_WITH_TIMEOUT(
                window.workspace()->placement() &&
                    window.workspace()->placement()->widths.front().graph->name() ==
                        (model ? "opt-350m" : "bert-large"),
                120000);
            QVERIFY(window_test::settle(window));
            const auto& plan = window.workspace()->placement()->result.plan;
            QVERIFY(plan);
            const double searched = top.modelThroughputsSamplesPerSecond[std::size_t(model)];
            QVERIFY2(std::abs(plan->throughputSamplesPerSecond - searched) <= 1e-6 * searched,
                     qPrintable(QString("model %1: %2 vs %3 samples/s")
                                    .arg(model)
                                    .arg(plan->throughputSamplesPerSecond)
                                    .arg(searched)));
            const QString subject = window.views()->pipelineView()->chart()->subject();
            QVERIFY2(subject.contains(model ? "opt-350m" : "bert-large"), qPrintable(subject));
            QCOMPARE(window.workspace()->shownPoint(), top.point.index);
        }

        // Unchecking the extra model changes what a search answers: the points go stale.
        list->item(row)->setCheckState(Qt::Unchecked);
        QVERIFY(chart->isStale());
        QVERIFY(setup->setExtraModels({"opt-350m"}));
        QVERIFY(!chart->isStale());

        // The project keeps the extra model ("search_models") and a new window reads it back.
        QTemporaryDir dir;
        const QString path = dir.filePath("multi.tandem");
        QVERIFY(window.workspace()->saveProject(path));
        QTRY_VERIFY_WITH_TIMEOUT(!window.workspace()->filesJob()->busy(),
                                 120000);  // its results beside it
        const auto saved = core::io::ProjectFile::load(path.toStdString());
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.message().c_str());
        QCOMPARE(saved->model, std::string("bert-large"));
        QCOMPARE(saved->searchModels, std::vector<std::string>{"opt-350m"});
        ui::MainWindow reopened;
        QVERIFY(reopened.workspace()->openProject(path));
        QCOMPARE(reopened.setup()->extraModels(), QStringList{"opt-350m"});
        QCOMPARE(reopened.setup()->searchRequest().models.size(), std::size_t(2));
        QCOMPARE(reopened.setup()->project().searchFingerprint(),
                 setup->project().searchFingerprint());
        // Its saved results come back as a multi-model design space, per-model numbers included.
        QTRY_COMPARE_WITH_TIMEOUT(reopened.views()->designSpace()->pointCount(),
                                  qint64(points.size()), 120000);
        QVERIFY(!reopened.views()->designSpace()->isStale());
        QVERIFY(reopened.views()->designSpace()->yAxisLabel().contains("geometric mean"));
        QCOMPARE(reopened.views()->designSpace()->modelThroughputsOf(top.point.index),
                 window.views()->designSpace()->modelThroughputsOf(top.point.index));

        // File ▸ Open results… in a window on one model: the file's other model becomes an extra.
        const QString json = dir.filePath("multi.json");
        window.workspace()->exportResultsTo(json, true);
        QTRY_VERIFY_WITH_TIMEOUT(!window.workspace()->filesJob()->busy(), 120000);
        ui::MainWindow other;
        QVERIFY(other.workspace()->setModel("gpt2-xl"));
        QVERIFY(other.setup()->extraModels().isEmpty());
        other.workspace()->openResults(json);
        QTRY_COMPARE_WITH_TIMEOUT(other.views()->designSpace()->pointCount(), qint64(points.size()),
                                  120000);
        QCOMPARE(other.setup()->modelReference(), QString("bert-large"));
        QCOMPARE(other.setup()->extraModels(), QStringList{"opt-350m"});
        const QString otherTip = other.views()->designSpace()->tooltipFor(top.point.index);
        QVERIFY2(otherTip.contains(t0) && otherTip.contains(t1), qPrintable(otherTip));
    }
};

QTEST_MAIN(TestMultiModel)
#include "test_multi_model.moc"
