// Issue 27 item 10, driven as a user drives the window: every chart of the shown point names the
// model and the chip it shows (ChartWidget::subject), for the set-up and for a design-space
// point (whose chip is described by core's describeChip, the oracle), Sensitivity once it has
// answered, the Design space in its title; and the selected point and tab survive saving the
// project and opening it again. test_multi_model covers a multi-model point's model choice.
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "core/hardware/chip_description.h"
#include "tests/ui/main_window/window_test_support.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/breakdown_chart.h"
#include "ui/charts/design_space_chart.h"
#include "ui/charts/device_map_chart.h"
#include "ui/charts/gantt_chart.h"
#include "ui/charts/memory_chart.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/charts/roofline_chart.h"
#include "ui/charts/tornado_chart.h"
#include "ui/jobs/analysis_job.h"
#include "ui/jobs/results_file_job.h"
#include "ui/panels/current_point_bar.h"
#include "ui/panels/pipeline_view.h"
#include "ui/panels/placement_view.h"
#include "ui/panels/roofline_view.h"
#include "ui/panels/schedule_view.h"
#include "ui/panels/sensitivity_view.h"
#include "ui/panels/summary_panel.h"

using namespace tandem;

namespace {

std::vector<ui::ChartWidget*> pointCharts(ui::ViewTabs* views) {
    return {views->scheduleView()->chart(),        views->pipelineView()->chart(),
            views->pipelineView()->gpipeChart(),   views->placementView()->deviceMap(),
            views->placementView()->memoryChart(), views->summary()->breakdownChart(),
            views->rooflineView()->chart()};
}

// Every chart's subject holds each of `parts`.
void checkSubjects(ui::ViewTabs* views, const QStringList& parts) {
    for (ui::ChartWidget* chart : pointCharts(views))
        for (const QString& part : parts)
            QVERIFY2(
                chart->subject().contains(part),
                qPrintable(QString("%1: \"%2\" lacks \"%3\"")
                               .arg(chart->metaObject()->className(), chart->subject(), part)));
}

QString chipText(const core::hardware::AcceleratorConfig& chip) {
    return QString::fromStdString(core::hardware::describeChip(chip));
}

}  // namespace

class TestChartSubjects : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { tandem::test::isolateUserFolders(); }
    void init() { QSettings().clear(); }

    void everyChartNamesTheModelAndTheChip() {
        ui::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(window.workspace()->setModel("bert-large"));
        QVERIFY(window.workspace()->setHardware("tpuv4-like"));
        window.workspace()->evaluate();
        QVERIFY(window_test::settle(window));
        const auto setUp = window.setup()->pointRequest();
        checkSubjects(window.views(),
                      {"bert-large", "tpuv4-like", chipText(setUp.hardware.accelerator)});

        // A design-space point: its own chip.
        window_test::search(window);
        const auto results = window.workspace()->results();
        const core::search::EvaluatedPoint* other = nullptr;
        for (const auto& p : results->points())
            if (p.feasible() &&
                p.point.accelerator.numTensorCores != setUp.hardware.accelerator.numTensorCores)
                other = &p;
        QVERIFY(other);
        emit window.views()->designSpace()->pointSelected(other->point.index);
        QVERIFY(window_test::settle(window));
        QCOMPARE(window.workspace()->shownPoint(), other->point.index);
        checkSubjects(window.views(),
                      {"bert-large", QString("chip of point %1").arg(other->point.index),
                       chipText(other->point.accelerator)});
        // The design space names the model and the cluster's reference chip in its title.
        const QString title = window.views()->designSpace()->titleText();
        QVERIFY2(title.contains("bert-large") && title.contains("tpuv4-like"), qPrintable(title));

        // Sensitivity names the point it analysed once it answers.
        ui::SensitivityView* sensitivity = window.views()->sensitivityView();
        window.views()->showPage(sensitivity);
        sensitivity->analyse();
        QTRY_VERIFY_WITH_TIMEOUT(!sensitivity->job()->busy(), 300000);
        QVERIFY2(sensitivity->chart()->subject().contains(chipText(other->point.accelerator)) &&
                     sensitivity->chart()->subject().contains("bert-large"),
                 qPrintable(sensitivity->chart()->subject()));
        // An exported chart carries its subject (it is a row of the plot).
        window.views()->showPage(window.views()->pipelineView());
        QVERIFY(window.views()->pipelineView()->chart()->subject().endsWith("1F1B schedule"));
        QVERIFY(window.views()->pipelineView()->gpipeChart()->subject().contains("GPipe schedule"));
        QVERIFY(window.views()->pipelineView()->chart()->grab().save(
            tandem::test::outputPath("pipeline_with_subject.png")));
    }

    void selectedPointSurvivesSaveAndReopen() {
        QTemporaryDir dir;
        const QString path = dir.filePath("selected.tandem");
        qint64 selected = -1;
        int pipelineTab = -1;
        {
            ui::MainWindow window;
            window.show();
            window_test::search(window);
            // Not the best point: reopening must not fall back on it by chance.
            const auto results = window.workspace()->results();
            for (const auto& p : results->points())
                if (p.feasible() &&
                    p.point.index != results->points()[*results->best()].point.index)
                    selected = p.point.index;
            QVERIFY(selected >= 0);
            emit window.views()->designSpace()->pointSelected(selected);
            QVERIFY(window_test::settle(window));
            window.views()->showPage(window.views()->pipelineView());
            pipelineTab = window.views()->currentIndex();
            QVERIFY(window.workspace()->saveProject(path));
            QTRY_VERIFY_WITH_TIMEOUT(!window.workspace()->filesJob()->busy(), 120000);
        }
        ui::MainWindow reopened;
        reopened.show();
        QVERIFY(reopened.workspace()->openProject(path));
        QTRY_COMPARE_WITH_TIMEOUT(reopened.workspace()->shownPoint(), selected, 120000);
        QVERIFY(window_test::settle(reopened));
        QCOMPARE(reopened.views()->currentIndex(), pipelineTab);
        QVERIFY2(reopened.currentPointBar()->text().contains(
                     QString("design-space point %1").arg(selected)),
                 qPrintable(reopened.currentPointBar()->text()));
        QCOMPARE(reopened.views()->designSpace()->selectedPointIndex(), selected);
        QVERIFY2(reopened.views()->pipelineView()->chart()->subject().contains(
                     QString("chip of point %1").arg(selected)),
                 qPrintable(reopened.views()->pipelineView()->chart()->subject()));
    }
};

QTEST_MAIN(TestChartSubjects)
#include "test_chart_subjects.moc"
