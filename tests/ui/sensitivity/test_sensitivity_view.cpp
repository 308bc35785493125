// Issue 27 item 14: what limits this chip, as a tornado chart. Oracles: core's
// analyseSensitivity answer carried by the job (the chart's bars are its changes × 100, its rows
// its order); the row texts against the entries; exported files; the view never blocks (the
// analysis answers through the job's signal while the event loop runs).
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>

#include "core/model/model_zoo.h"
#include "tests/support/small_placement.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/tornado_chart.h"
#include "ui/jobs/analysis_job.h"
#include "ui/main_window.h"
#include "ui/panels/sensitivity_view.h"
#include "ui/view_tabs.h"

using namespace tandem;

class TestSensitivityView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::isolateUserFolders(); }

    void analysesInTheBackgroundAndDrawsATornado() {
        ui::SensitivityView view;
        view.resize(1000, 700);
        view.show();
        QVERIFY(!view.analyseButton()->isEnabled());  // no point yet
        view.setPoint(tandem::test::gpt2XlOn32Tpuv4(), "gpt2-xl on 32 × tpuv4-like");
        QVERIFY(view.analyseButton()->isEnabled());
        QSignalSpy finished(view.job(), &ui::AnalysisJob::sensitivityFinished);
        QTest::mouseClick(view.analyseButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        const auto result =
            finished[0][1].value<std::shared_ptr<const core::search::SensitivityResult>>();
        QVERIFY(result && !result->cancelled);
        ui::TornadoChart* chart = view.chart();
        QCOMPARE(chart->rowCount(), int(result->entries.size()));
        // The point it analysed above the plot (issue 27 item 10), what it shows in the title.
        QVERIFY2(chart->subject().contains("gpt2-xl on 32 × tpuv4-like"),
                 qPrintable(chart->subject()));
        QVERIFY2(chart->titleText().contains("What limits this point"),
                 qPrintable(chart->titleText()));
        for (int row = 0; row < chart->rowCount(); ++row) {
            const auto& e = result->entries[std::size_t(row)];
            QCOMPARE(chart->rowLabel(row), QString::fromStdString(e.label));
            for (const bool high : {false, true}) {
                const auto& side = high ? e.high : e.low;
                const double drawn = chart->barPercent(row, high);
                if (side.evaluated)
                    QCOMPARE(drawn, 100 * e.throughputChange(side));
                else
                    QVERIFY(std::isnan(drawn));
            }
        }
        // The most influential parameter is on top and its bar is the longest.
        double longest = 0;
        for (int row = 0; row < chart->rowCount(); ++row)
            for (const bool high : {false, true})
                if (std::isfinite(chart->barPercent(row, high)))
                    longest = std::max(longest, std::abs(chart->barPercent(row, high)));
        QCOMPARE(
            std::max(std::abs(chart->barPercent(0, false)), std::abs(chart->barPercent(0, true))),
            longest);
        QVERIFY(longest > 1);  // ±10 % of something moves throughput by more than 1 %
        // Hover a row: its values and figures.
        const QString text = chart->rowTextAt(chart->rowCentre(0));
        QVERIFY2(text.contains(QString::fromStdString(result->entries[0].label)) &&
                     text.contains("at this point"),
                 qPrintable(text));
        // Energy per sample instead.
        view.metricChooser()->setCurrentIndex(1);
        QCOMPARE(chart->metric(), ui::TornadoChart::Metric::Energy);
        double previous = 1e300;
        for (int row = 0; row < chart->rowCount(); ++row) {
            const core::search::SensitivityEntry* e = nullptr;
            for (const auto& candidate : result->entries)
                if (QString::fromStdString(candidate.label) == chart->rowLabel(row)) e = &candidate;
            QVERIFY(e);
            if (e->high.evaluated && e->high.fits)
                QCOMPARE(chart->barPercent(row, true), 100 * e->energyChange(e->high));
            // Rows by their impact on energy now.
            double most = 0;
            for (const bool high : {false, true})
                if (std::isfinite(chart->barPercent(row, high)))
                    most = std::max(most, std::abs(chart->barPercent(row, high)));
            QVERIFY(most <= previous);
            previous = most;
        }
        for (const char* suffix : {"png", "pdf", "svg"}) {
            const QString path = test::outputPath(QString("tornado.%1").arg(suffix));
            QCOMPARE(chart->exportTo(path, 0, 0, "gpt2-xl on 32 × tpuv4-like"), QString());
            QVERIFY(QFile(path).size() > 1000);
        }
        QVERIFY(view.grab().save(test::outputPath("sensitivity_view.png")));
        // Another point: the chart says it answers the earlier one.
        view.setPoint(tandem::test::gpt2XlOn32Tpuv4(), "another point");
        QVERIFY2(view.statusText().contains("changed"), qPrintable(view.statusText()));
    }

    void stopAlwaysAnswers() {
        ui::SensitivityView view;
        view.setPoint(tandem::test::gpt2XlOn32Tpuv4(), "gpt2-xl");
        QSignalSpy finished(view.job(), &ui::AnalysisJob::sensitivityFinished);
        QSignalSpy failed(view.job(), &ui::AnalysisJob::failed);
        view.analyse();
        view.stop();
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() + failed.size() == 1, 120000);
        QTRY_VERIFY(!view.job()->busy());
        QVERIFY(view.analyseButton()->isEnabled());
    }

    void isATabOfTheWindow() {
        ui::MainWindow window;
        ui::ViewTabs* tabs = window.views();
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == "Sensitivity") tabs->setCurrentIndex(i);
        QCOMPARE(static_cast<ui::ChartWidget*>(tabs->sensitivityView()->chart()),
                 tabs->currentChart());
    }
};

QTEST_MAIN(TestSensitivityView)
#include "test_sensitivity_view.moc"
