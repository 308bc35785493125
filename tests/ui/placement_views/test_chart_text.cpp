// How a chart fits its words (ui/charts/chart_widget.h): the subject row above the plot breaks at
// its " · " separators to the chart's width, and a centred message ("does not run: …") breaks at
// spaces to its axis rect, again at every resize and export, losing nothing. The widgets are
// grabbed to PNGs in a temporary folder (tests/ui/test_output_dir.h) for a human to look at.
#include <qcustomplot.h>
#include <QtTest>

#include "tests/ui/test_output_dir.h"
#include "ui/charts/memory_chart.h"

using namespace tandem;

namespace {

QString shot(const QString& name) {
    return tandem::test::outputPath(name + ".png");
}

}  // namespace

class TestChartText : public QObject {
    Q_OBJECT

private slots:
    // A subject wider than its chart (the Placement tab's two half-width charts) breaks at its
    // " · " separators instead of being clipped at both ends; a wide chart shows it on one line.
    void longSubjectWrapsToTheChartWidth() {
        const QFontMetrics metrics(QFont(QApplication::font().family(), 10, QFont::Bold));
        const QString parts = "gpt3-175b on 1,024 × tpuv4-like · 8 TC 128×128 · 2 VC ×128";
        const int firstTwo =
            metrics.horizontalAdvance("gpt3-175b on 1,024 × tpuv4-like · 8 TC 128×128");
        QCOMPARE(ui::ChartWidget::wrapSubject(parts, metrics, firstTwo),
                 QString("gpt3-175b on 1,024 × tpuv4-like · 8 TC 128×128\n2 VC ×128"));
        QCOMPARE(ui::ChartWidget::wrapSubject(parts, metrics, 100000), parts);
        // Narrower than every part: one part per line, each elided to the width.
        for (const QString& line : ui::ChartWidget::wrapSubject(parts, metrics, 60).split('\n'))
            QVERIFY2(metrics.horizontalAdvance(line) <= 60, qPrintable(line));
        QCOMPARE(ui::ChartWidget::wrapSubject(parts, metrics, 60).count('\n'), 2);

        const QString subject = QString::fromUtf8(
            "gpt3-175b on 1,024 × tpuv4-like · 8 TC 128×128 · 2 VC ×128 · GLB 128 MiB · "
            "HBM 32 GiB at 1200 GB/s");
        ui::MemoryChart chart;
        chart.setSubject(subject);
        chart.resize(420, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        auto* row = qobject_cast<QCPTextElement*>(chart.plot()->plotLayout()->element(0, 0));
        QVERIFY(row);
        QCOMPARE(chart.subject(), subject);
        const auto fitsWidth = [&](int width) {
            const QFontMetrics rowMetrics(row->font());
            for (const QString& line : row->text().split('\n'))
                if (rowMetrics.horizontalAdvance(line) > width - 12) return false;
            return true;
        };
        QVERIFY2(row->text().count('\n') >= 1 && fitsWidth(chart.plot()->width()),
                 qPrintable(row->text()));
        QCOMPARE(row->text().split('\n').join(" · "), subject);  // nothing lost
        QVERIFY(chart.grab().save(shot("subject_wrapped")));
        // Exported wider, the file has it on one line; the window keeps its own wrapping.
        const QString file = tandem::test::outputPath("subject_wide.png");
        QCOMPARE(chart.exportTo(file, 2400, 500), QString());
        QVERIFY(row->text().count('\n') >= 1 && fitsWidth(chart.plot()->width()));
        chart.resize(2400, 400);
        QTRY_COMPARE(row->text(), subject);
    }

    void centredMessageStaysInsideTheChart() {
        const QFontMetrics metrics{QFont()};
        QCOMPARE(
            ui::ChartWidget::wrapWords("aa bb cc", metrics, metrics.horizontalAdvance("aa bb")),
            QString("aa bb\ncc"));
        QCOMPARE(ui::ChartWidget::wrapWords("aa bb\ncc", metrics, 100000), QString("aa bb\ncc"));
        const QString longWord = "/a/very/long/path/that/cannot/break/anywhere/model.onnx";
        for (const QString& line :
             ui::ChartWidget::wrapWords("in " + longWord, metrics, 80).split('\n'))
            QVERIFY2(metrics.horizontalAdvance(line) <= 80, qPrintable(line));

        const QString reason =
            "does not run: stage 1 needs 92.4 GiB per device with 8 microbatches in flight, more "
            "than the 80.0 GiB of HBM; try recompute, more pipeline stages or a smaller microbatch";
        ui::MemoryChart chart;
        chart.clear(reason);
        chart.resize(380, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCPItemText* message = nullptr;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(chart.plot()->item(i));
                text && text->visible())
                message = text;
        QVERIFY(message);
        const auto fitsAxisRect = [&] {
            const QFontMetrics m(message->font());
            for (const QString& line : message->text().split('\n'))
                if (m.horizontalAdvance(line) > chart.plot()->axisRect()->width()) return false;
            return true;
        };
        QTRY_VERIFY2(message->text().count('\n') >= 2 && fitsAxisRect(),
                     qPrintable(message->text()));
        QCOMPARE(message->text().split('\n').join(' '), reason);  // nothing lost
        QVERIFY(chart.grab().save(shot("message_wrapped")));
        // Exported wider the file has fewer lines; the window keeps its own.
        const int lines = int(message->text().count('\n'));
        QCOMPARE(chart.exportTo(tandem::test::outputPath("message_wide.png"), 2400, 500),
                 QString());
        QTRY_COMPARE(int(message->text().count('\n')), lines);
        chart.resize(2400, 300);
        QTRY_COMPARE(message->text(), reason);
    }
};

QTEST_MAIN(TestChartText)
#include "test_chart_text.moc"
