// Issue 27 item 16: a report a student hands in. Oracles: the plan's own figures formatted as
// the app formats them, core's planTrainingCost for the days, Qt SVG's renderer for every chart
// (a chart it cannot draw fails), and the file itself (no script, no external reference).
#include <QAction>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QtTest>

#include "core/common/units.h"
#include "core/estimate/model_estimate.h"
#include "core/estimate/operator_estimator.h"
#include "core/io/training_report.h"
#include "core/model/model_zoo.h"
#include "core/placement/mfu_note.h"
#include "core/placement/plan_activity.h"
#include "tests/support/small_placement.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/roofline_chart.h"
#include "ui/main_window.h"
#include "ui/panels/roofline_view.h"
#include "ui/report_pdf.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

using namespace tandem;

namespace {
core::io::ReportInputs inputs() {
    const core::placement::ModelPlacementRequest r = test::gpt2XlOn32Tpuv4();
    auto placed = core::placement::placeModel(r);
    if (!placed || !placed->result.plan) qFatal("placement failed");
    core::io::ReportInputs in;
    in.title = "gpt2-xl on 32 × tpuv4-like";
    in.modelName = "gpt2-xl";
    in.hardware = r.hardware;
    in.training = r.training;
    in.plan = *placed->result.plan;
    in.budget = core::io::BudgetContext{{40e9, 2.5}, 1024};
    auto estimator =
        core::estimate::OperatorEstimator::create(r.hardware.accelerator, r.hardware.cluster);
    const auto estimate = core::estimate::estimateModel(*placed->widths.front().graph, *estimator);
    in.roofline = core::estimate::rooflineOf(estimate.layers[1], r.hardware.accelerator);
    in.rooflineLayer = estimate.layers[1].name;
    auto scaled =
        core::search::analyseScaling(r, core::search::ScalingMode::Strong, {8, 16, 32, 64});
    if (!scaled) qFatal("scaling failed");
    in.scaling = *scaled;
    return in;
}

QStringList svgsOf(const QString& html) {
    QStringList out;
    for (auto it =
             QRegularExpression("<svg.*?</svg>", QRegularExpression::DotMatchesEverythingOption)
                 .globalMatch(html);
         it.hasNext();)
        out << it.next().captured(0);
    return out;
}
}  // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::isolateUserFolders(); }

    void reportsThePlanSelfContained() {
        const core::io::ReportInputs in = inputs();
        const QString html = QString::fromStdString(core::io::reportHtml(in));
        for (const char* section :
             {"<h2>Set-up</h2>", "<h2>The plan</h2>", "<h2>Energy and time to train</h2>",
              "<h2>Roofline</h2>", "<h2>Scaling</h2>"})
            QVERIFY2(html.contains(section), section);
        QVERIFY(!html.contains("<h2>Search</h2>"));  // no search given
        const auto& plan = *in.plan;
        QVERIFY(html.contains(
            QString::fromStdString(core::formatThroughput(plan.throughputSamplesPerSecond))));
        QVERIFY(html.contains(QString::fromStdString(core::formatFixed(100 * plan.mfu, 1)) + " %"));
        QVERIFY(plan.mfu < core::placement::kHighMfu);
        QVERIFY(!html.contains("compute-bound"));  // the high-MFU note only above 70 %
        core::io::ReportInputs high = in;
        high.plan->mfu = 0.81;
        const QString explained = QString::fromStdString(core::io::reportHtml(high));
        QVERIFY(explained.contains("<p>MFU 81.0 % is above the 46–58 %"));
        QVERIFY(explained.contains("compute-bound"));
        const auto cost = core::placement::planTrainingCost(plan, in.budget->budget, 1024);
        QVERIFY(cost);
        QVERIFY(
            html.contains(QString::fromStdString(core::formatSignificant(cost->days)) + " days"));
        QVERIFY(html.contains("cost " + QString::fromStdString(core::formatCount(cost->cost))));
        // Self-contained: nothing fetched, nothing run.
        QVERIFY(!html.contains("<script"));
        QVERIFY(!html.contains("src="));
        QVERIFY(!html.contains("<link"));
        QCOMPARE(html.count("http"), html.count("xmlns=\"http://www.w3.org/2000/svg\""));
        // Every chart draws, and one dot per roofline point.
        const QStringList svgs = svgsOf(html);
        QCOMPARE(svgs.size(), 3);
        for (int i = 0; i < svgs.size(); ++i) {
            QSvgRenderer renderer(svgs[i].toUtf8());
            QVERIFY2(renderer.isValid(), qPrintable(QString("chart %1").arg(i)));
            QImage image(renderer.defaultSize(), QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter painter(&image);
            renderer.render(&painter);
            painter.end();
            QVERIFY(image.save(test::outputPath(QString("report_chart_%1.png").arg(i))));
        }
        QCOMPARE(svgs[1].count("<circle"), qsizetype(in.roofline->points.size()));
        // The written file is the same text.
        const QString path = test::outputPath("report.html");
        QVERIFY(core::io::saveReportHtml(path.toStdString(), in).ok());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()), html);
    }

    void escapesWhatItQuotes() {
        core::io::ReportInputs in;
        in.title = "<script>alert(1)</script> & co";
        in.modelName = "a<b>\"c\"";
        in.infeasibleReason = "does <not> fit";
        const QString html = QString::fromStdString(core::io::reportHtml(in));
        QVERIFY(!html.contains("<script>"));
        QVERIFY(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"));
        QVERIFY(html.contains("a&lt;b&gt;&quot;c&quot;"));
        QVERIFY(html.contains("Nothing fits: does &lt;not&gt; fit"));
    }

    void fileMenuExportsTheShownPoint() {
        ui::MainWindow window;
        QAction* action = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text() == "Export &report…") action = a;
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
        const QString path = test::outputPath("window_report.html");
        // Nothing evaluated yet: a message, no file.
        if (!window.workspace()->placement()) {
            QVERIFY(!window.workspace()->exportReportTo(path).isEmpty());
            QVERIFY(!QFile::exists(path));
        }
        QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->placement() != nullptr, 120000);
        // The Roofline tab's estimate arrives after the plan, from a job of its own.
        QTRY_VERIFY_WITH_TIMEOUT(window.views()->rooflineView()->chart()->roofline(), 120000);
        QCOMPARE(window.workspace()->exportReportTo(path), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(file.readAll());
        QVERIFY(html.contains("<h2>The plan</h2>"));
        QVERIFY(html.contains("tpuv4-like"));

        // The same report as a PDF: a PDF file of A4 pages carrying every chart as an image.
        const QString pdfPath = test::outputPath("window_report.pdf");
        QCOMPARE(window.workspace()->exportReportTo(pdfPath), QString());
        QFile pdf(pdfPath);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdf.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        const int figures = ui::reportFigureCount(html);
        QVERIFY(figures >= 2);  // the breakdown and the roofline at least
        QCOMPARE(int(bytes.count("/Subtype /Image")), figures);
        QVERIFY(bytes.count("/Type /Page\n") + bytes.count("/Type /Page\r") +
                    bytes.count("/Type /Page ") + bytes.count("/Type /Page/") >=
                1);
        // 595 × 842 points: A4.
        QVERIFY2(bytes.contains("/MediaBox [0 0 595") || bytes.contains("/MediaBox [0 0 594"),
                 bytes.left(2000).constData());
    }

    // A PDF report that cannot be written leaves what was there, and says which file.
    void pdfFailuresSayWhy() {
        const QString html = QString::fromStdString(core::io::reportHtml(inputs()));
        QCOMPARE(ui::reportFigureCount(html), int(svgsOf(html).size()));
        const QString blocked = test::outputPath("no-such-folder/report.pdf");
        const QString error = ui::writeReportPdf(html, blocked);
        QVERIFY2(error.contains("no-such-folder/report.pdf"), qPrintable(error));
        QVERIFY(!QFile::exists(blocked));
        const QString existing = test::outputPath("kept.pdf");
        {
            QFile f(existing);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("old");
        }
        const QString broken = html + "<svg xmlns='http://www.w3.org/2000/svg'><g></svg>";
        QVERIFY(!ui::writeReportPdf(broken, existing).isEmpty());
        QFile f(existing);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("old"));
        // And a good one does write a PDF.
        f.close();
        QCOMPARE(ui::writeReportPdf(html, existing), QString());
        QFile written(existing);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().startsWith("%PDF-"));
    }
};

QTEST_MAIN(TestReport)
#include "test_report.moc"
