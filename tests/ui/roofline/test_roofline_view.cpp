// Issue 27 item 13: the roofline of the current chip. Oracles: core::estimate::rooflineOf on the
// same estimate (the view only draws it), the ridge as peak ÷ bandwidth from the preset's numbers,
// each dot's hover text against its point's own classification, and the exported files.
#include <QComboBox>
#include <QFile>
#include <QtTest>

#include "core/estimate/model_estimate.h"
#include "core/estimate/operator_estimator.h"
#include "core/estimate/roofline.h"
#include "core/model/model_zoo.h"
#include "tests/support/test_presets.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/roofline_chart.h"
#include "ui/main_window.h"
#include "ui/panels/roofline_view.h"
#include "ui/view_tabs.h"

using namespace tandem;

class TestRooflineView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::isolateUserFolders(); }

    void drawsTheLayerOnTheChipsRoofs() {
        const auto hw = test::presetOrDie("a100-80gb");
        auto source = core::model::zooModel("gpt2-xl");
        QVERIFY(source);
        auto built = (*source)->build({});
        QVERIFY(built);
        auto graph = std::make_shared<const core::model::ModelGraph>(std::move(*built));
        auto estimator = core::estimate::OperatorEstimator::create(hw.accelerator, hw.cluster);
        QVERIFY(estimator);
        auto estimate = std::make_shared<const core::estimate::ModelEstimate>(
            core::estimate::estimateModel(*graph, *estimator));
        ui::RooflineView view;
        view.resize(1000, 640);
        view.show();
        view.showEstimate(graph, hw, estimate);
        QCOMPARE(view.layerChooser()->count(), int(estimate->layers.size()));
        QCOMPARE(view.layerChooser()->currentIndex(), 1);  // the first block, not the embedding
        const auto& shown = view.chart()->roofline();
        QVERIFY(shown.has_value());
        const auto oracle = core::estimate::rooflineOf(estimate->layers[1], hw.accelerator);
        QCOMPARE(shown->points.size(), oracle.points.size());
        QVERIFY(!oracle.points.empty());
        QCOMPARE(shown->ridgeIntensity,
                 hw.accelerator.peakFlopsPerSecond() / hw.accelerator.achievableHbmBandwidth());
        const QString title = view.chart()->titleText();
        QVERIFY2(title.contains("gpt2-xl") && title.contains(QString::fromStdString(hw.name)) &&
                     title.contains(QString::fromStdString(estimate->layers[1].name)),
                 qPrintable(title));
        // Hover: each dot names its operator and what bounds it.
        int memory = 0, compute = 0;
        for (std::size_t i = 0; i < oracle.points.size(); ++i) {
            const auto& p = oracle.points[i];
            const QPoint at = view.chart()->pointPixel(i);
            const auto hit = view.chart()->pointAt(at);
            QVERIFY(hit.has_value());
            const auto& q = shown->points[*hit];  // coinciding dots may answer for each other
            QCOMPARE(q.intensity, p.intensity);
            const QString text = view.chart()->pointTextAt(at);
            QVERIFY2(text.contains(QString::fromStdString(q.name)), qPrintable(text));
            const bool memoryBound = oracle.memoryBound(q);
            const QString expected = oracle.fractionOfRoof(q) < 0.5 ? "under both roofs"
                                     : memoryBound                  ? "memory-bound"
                                                                    : "compute-bound";
            QVERIFY2(text.contains(expected), qPrintable(text));
            (memoryBound ? memory : compute)++;
        }
        QVERIFY(memory > 0 && compute > 0);
        QVERIFY(view.chart()->pointTextAt(QPoint(2, 2)).isEmpty());
        // Another layer: another title and other points.
        view.layerChooser()->setCurrentIndex(int(estimate->layers.size()) - 1);
        QVERIFY(view.chart()->titleText().contains(
            QString::fromStdString(estimate->layers.back().name)));
        view.layerChooser()->setCurrentIndex(1);
        // Exports in the three formats, with a caption.
        for (const char* suffix : {"png", "pdf", "svg"}) {
            const QString path = test::outputPath(QString("roofline.%1").arg(suffix));
            QCOMPARE(view.chart()->exportTo(path, 0, 0, "gpt2-xl on a100-80gb, layer 1"),
                     QString());
            QVERIFY(QFile(path).size() > 1000);
        }
        QVERIFY(view.grab().save(test::outputPath("roofline_view.png")));
        view.clear("no point");
        QVERIFY(!view.chart()->roofline().has_value());
    }

    void isATabWithAnExportableChart() {
        ui::MainWindow window;
        ui::ViewTabs* tabs = window.views();
        int index = -1;
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == "Roofline") index = i;
        QVERIFY(index >= 0);
        tabs->setCurrentIndex(index);
        QCOMPARE(static_cast<ui::ChartWidget*>(tabs->rooflineView()->chart()),
                 tabs->currentChart());
    }
};

QTEST_MAIN(TestRooflineView)
#include "test_roofline_view.moc"
