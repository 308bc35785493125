// The Gantt chart's makespan and lower-bound lines (issue 14, item 11): where they coincide, as
// for a schedule proved optimal, both stay visible — the wide makespan line beside the bound's
// dashes all along, the dashes over it — and the legend names both with their values.
#include <qcustomplot.h>
#include <QtTest>
#include <cmath>

#include "core/schedule/gantt_layout.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/gantt_chart.h"

using namespace tandem;
namespace sch = core::schedule;

class TestGanttLines : public QObject {
    Q_OBJECT

private slots:
    // Issue 14, item 11. A schedule proved optimal has its makespan on its lower bound: the
    // dashed bound line used to cover the makespan line but for its gaps. Now the makespan line
    // shows beside the bound's dashes all along, and the dashes show too.
    void makespanLineShowsUnderTheBound() {
        sch::ScheduleProblem problem;
        problem.numTensorCores = 4;
        problem.numVectorCores = 1;
        sch::LayerSchedule schedule;
        schedule.numTensorCores = 4;
        schedule.numVectorCores = 1;
        for (int i = 0; i < 4; ++i) {
            const double duration = (10 + 5 * i) * 1e-6;
            problem.tasks.push_back({"op." + std::to_string(i),
                                     core::model::OpClass::TensorCore,
                                     duration,
                                     duration,
                                     1e6,
                                     {}});
            schedule.tasks.push_back(
                {0, duration, sch::TaskMode::OneCore, {{sch::LaneKind::TensorCore, i, 1}}});
        }
        schedule.makespanSeconds = 25e-6;
        schedule.lowerBoundSeconds = 25e-6;
        auto layout = sch::GanttLayout::build(problem, schedule);
        QVERIFY(layout);
        ui::GanttChart chart;
        chart.resize(1000, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setLayout(std::make_shared<const sch::GanttLayout>(std::move(*layout)), "optimal");
        QCOMPARE(chart.timeUnit(), QString("µs"));
        const QImage image = chart.grab().toImage();
        QVERIFY(image.save(tandem::test::outputPath("gantt_makespan_on_bound.png")));
        auto* plot = chart.plot();
        const int x = int(std::lround(plot->xAxis->coordToPixel(25)));
        const QRect area = plot->axisRect()->rect();
        int rows = 0, dark = 0, red = 0;
        for (int y = area.top() + 2; y < area.bottom() - 2; ++y) {
            bool isDark = false, isRed = false;
            for (int dx = -4; dx <= 4; ++dx) {
                const QColor c = image.pixelColor(plot->mapTo(&chart, QPoint(x + dx, y)));
                isDark |= c.red() < 80 && c.green() < 80 && c.blue() < 80;
                isRed |= c.red() > 150 && c.green() < 90 && c.blue() < 90;
            }
            ++rows;
            dark += isDark;
            red += isRed;
        }
        qInfo("makespan = bound: makespan colour in %d, bound colour in %d of %d rows", dark, red,
              rows);
        QVERIFY2(dark > 0.95 * rows, qPrintable(QString("%1 of %2 rows").arg(dark).arg(rows)));
        QVERIFY2(red > 0.4 * rows, qPrintable(QString("%1 of %2 rows").arg(red).arg(rows)));
        // The legend names both with their values.
        QStringList names;
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
                names << item->plottable()->name();
        QVERIFY2(names.contains("Makespan 25.0 µs") && names.contains("Lower bound 25.0 µs"),
                 qPrintable(names.join(", ")));
    }
};

QTEST_MAIN(TestGanttLines)
#include "test_gantt_lines.moc"
