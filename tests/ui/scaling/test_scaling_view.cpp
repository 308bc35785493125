// Issue 27 item 15: throughput, MFU and time to train against the number of devices. Oracles:
// core's analyseScaling answer carried by the job (the chart's values are its figures; days to
// train worked out by hand from batch, sequence length and time per batch); the linear line
// through the set-up's size; exported files; the Summary's token budget reaching the chart.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>

#include "core/model/model_zoo.h"
#include "tests/support/small_placement.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/scaling_chart.h"
#include "ui/jobs/analysis_job.h"
#include "ui/main_window.h"
#include "ui/panels/energy_budget_box.h"
#include "ui/panels/scaling_view.h"
#include "ui/panels/summary_panel.h"
#include "ui/view_tabs.h"

using namespace tandem;

namespace {

std::shared_ptr<const core::search::ScalingResult> analyse(ui::ScalingView& view) {
    QSignalSpy finished(view.job(), &ui::AnalysisJob::scalingFinished);
    QTest::mouseClick(view.analyseButton(), Qt::LeftButton);
    if (!QTest::qWaitFor([&] { return finished.size() == 1; }, 120000)) return nullptr;
    return finished[0][1].value<std::shared_ptr<const core::search::ScalingResult>>();
}
}  // namespace

class TestScalingView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::isolateUserFolders(); }

    void strongAndWeakScaling() {
        ui::ScalingView view;
        view.resize(1000, 640);
        view.show();
        view.setPoint(tandem::test::gpt2XlOn32Tpuv4(), "gpt2-xl on 32 × tpuv4-like");
        const auto strong = analyse(view);
        QVERIFY(strong);
        QCOMPARE(strong->mode, core::search::ScalingMode::Strong);
        QCOMPARE(strong->points.size(), core::search::defaultScalingSizes(32).size());
        ui::ScalingChart* chart = view.chart();
        // The point it analysed above the plot (issue 27 item 10), what it shows in the title.
        QVERIFY2(chart->subject().contains("gpt2-xl on 32 × tpuv4-like"),
                 qPrintable(chart->subject()));
        QVERIFY2(chart->titleText().contains("Scaling with the number of devices"),
                 qPrintable(chart->titleText()));
        std::size_t base = 0;
        for (std::size_t i = 0; i < strong->points.size(); ++i) {
            const auto& p = strong->points[i];
            if (p.devices == 32) base = i;
            if (p.fits)
                QCOMPARE(chart->value(i), p.throughputSamplesPerSecond);
            else
                QVERIFY(std::isnan(chart->value(i)));
        }
        // The linear line passes through the set-up's size and doubles with the devices.
        QCOMPARE(chart->idealValue(base), strong->points[base].throughputSamplesPerSecond);
        QCOMPARE(chart->idealValue(base + 1), 2 * strong->points[base].throughputSamplesPerSecond);
        const QString text = chart->pointTextAt(chart->pointPixel(base));
        QVERIFY2(text.contains("32 devices") && text.contains("scaling efficiency 100 %"),
                 qPrintable(text));
        // MFU and days to train (300 B tokens of 1,024 per sample by default).
        view.metricChooser()->setCurrentIndex(1);
        QCOMPARE(chart->value(base), 100 * strong->points[base].mfu);
        view.metricChooser()->setCurrentIndex(2);
        const auto& p = strong->points[base];
        QCOMPARE(chart->value(base),
                 300e9 / (double(p.globalBatch) * 1024) * p.timePerBatchSeconds / 86400);
        view.setTokenBudget(150e9);
        QCOMPARE(chart->value(base),
                 150e9 / (double(p.globalBatch) * 1024) * p.timePerBatchSeconds / 86400);
        for (const char* suffix : {"png", "pdf", "svg"}) {
            const QString path = test::outputPath(QString("scaling.%1").arg(suffix));
            QCOMPARE(chart->exportTo(path, 0, 0, "gpt2-xl on tpuv4-like"), QString());
            QVERIFY(QFile(path).size() > 1000);
        }
        view.metricChooser()->setCurrentIndex(0);
        QVERIFY(view.grab().save(test::outputPath("scaling_view.png")));
        // Weak scaling: choosing it analyses again; the batch grows with the devices.
        QSignalSpy again(view.job(), &ui::AnalysisJob::scalingFinished);
        view.modeChooser()->setCurrentIndex(1);
        QTRY_COMPARE_WITH_TIMEOUT(again.size(), 1, 120000);
        const auto weak = again[0][1].value<std::shared_ptr<const core::search::ScalingResult>>();
        QCOMPARE(weak->mode, core::search::ScalingMode::Weak);
        for (const auto& q : weak->points) QCOMPARE(q.globalBatch, 256 * q.devices / 32);
        QVERIFY(view.currentResult());
        view.setPoint(tandem::test::gpt2XlOn32Tpuv4(), "another point");
        QVERIFY(view.statusText().contains("changed"));
        QVERIFY(!view.currentResult());  // a report leaves an earlier point's study out
    }

    void summaryBudgetReachesTheChart() {
        ui::MainWindow window;
        ui::ViewTabs* tabs = window.views();
        tabs->summary()->energyBudget()->findChild<QDoubleSpinBox*>("budgetTokens")->setValue(1);
        // 1 B tokens now: the chart's axis says so once it draws days; its budget is set.
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == "Scaling") tabs->setCurrentIndex(i);
        QCOMPARE(static_cast<ui::ChartWidget*>(tabs->scalingView()->chart()), tabs->currentChart());
    }
};

QTEST_MAIN(TestScalingView)
#include "test_scaling_view.moc"
