// The Schedule tab on the real pipeline: GPT-3 175B placed on the TPUv4-like preset (1,024
// devices). Expected counts come straight from the LayerSchedules and layer graphs (operators
// with a mode and a duration; one-core Fused operators are drawn on a TC and a VC row), never
// from GanttLayout. Also: layer / direction / width switches, the Chrome trace export, hover
// text, and a 4,000-operator synthetic layer whose sub-pixel bars merge and whose zoomed view
// draws only the bars in view (bench_views times it). Issue 14, item 11: the link bars' names
// stay readable when the view is cleared and set again and the direction switched (the makespan
// and bound lines: test_gantt_lines).
#include <qcustomplot.h>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "core/common/units.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/gantt_chart.h"
#include "ui/panels/schedule_view.h"

using namespace tandem;
namespace sch = core::schedule;

namespace {

struct Expected {
    int operators = 0;
    int bars = 0;
};

Expected expectedFor(const core::placement::WidthInput& width, int unique, sch::Direction d) {
    const auto& entry = width.schedules->unique[std::size_t(unique)];
    const auto& schedule = d == sch::Direction::Forward ? *entry.forward : *entry.backward;
    const auto& ops =
        d == sch::Direction::Forward ? entry.graph->forward() : entry.graph->backward();
    Expected e;
    for (std::size_t i = 0; i < schedule.tasks.size(); ++i) {
        const auto& t = schedule.tasks[i];
        if (t.mode == sch::TaskMode::None || t.durationSeconds <= 0) continue;
        ++e.operators;
        e.bars +=
            (ops[i].opClass == core::model::OpClass::Fused && t.mode == sch::TaskMode::OneCore) ? 2
                                                                                                : 1;
    }
    return e;
}

// Pixels near `centre` (±dx, ±dy) of `image` that are nearly white, as the bars' names are.
int whitePixelsNear(const QImage& image, QPoint centre, int dx, int dy) {
    int n = 0;
    for (int y = centre.y() - dy; y <= centre.y() + dy; ++y)
        for (int x = centre.x() - dx; x <= centre.x() + dx; ++x) {
            const QColor c = image.pixelColor(x, y);
            n += c.red() > 210 && c.green() > 210 && c.blue() > 210;
        }
    return n;
}

}  // namespace

class TestScheduleView : public QObject {
    Q_OBJECT
    std::shared_ptr<const core::placement::ModelPlacement> placement_;

private slots:
    void initTestCase() {
        core::placement::ModelPlacementRequest request;
        request.model = core::model::zooModel("gpt3-175b").value();
        request.hardware = core::hardware::PresetLibrary::preset("tpuv4-like").value();
        request.widths = {4, 8};
        auto placed = core::placement::placeModel(request);
        QVERIFY2(placed, placed ? "" : placed.message().c_str());
        placement_ = std::make_shared<const core::placement::ModelPlacement>(std::move(*placed));
        QCOMPARE(placement_->widths.size(), std::size_t(2));
    }

    void oneBarPerScheduledOperator() {
        ui::ScheduleView view;
        view.resize(1200, 700);
        view.setPlacement(placement_);
        // Default: the plan's width and the most repeated layer (96 transformer blocks).
        const auto& plan = placement_->result.plan;
        QVERIFY(plan);
        const auto& width = placement_->widths[std::size_t(view.widthIndex())];
        QCOMPARE(width.graph->options().tensorParallel, plan->tensorParallel);
        QCOMPARE(view.layerChoices(), int(width.graph->uniqueGraphs().size()));
        int blocks = 0;
        for (int u : width.graph->uniqueIndexOfLayer()) blocks += u == view.uniqueLayer();
        QCOMPARE(blocks, 96);

        for (int u = 0; u < view.layerChoices(); ++u) {
            view.setUniqueLayer(u);
            for (auto d : {sch::Direction::Forward, sch::Direction::Backward}) {
                view.setDirection(d);
                const Expected e = expectedFor(width, u, d);
                QVERIFY(e.operators > 0);
                QCOMPARE(view.chart()->operatorCount(), e.operators);
                QCOMPARE(view.chart()->barCount(), e.bars);
                QVERIFY(view.lastError().isEmpty());
            }
        }
        // The backward pass of a transformer block has more operators than its forward pass
        // (two GEMMs per weight GEMM), so the switch must change the count.
        view.setUniqueLayer(1);
        view.setDirection(sch::Direction::Forward);
        const int forwardBars = view.chart()->barCount();
        view.setDirection(sch::Direction::Backward);
        QVERIFY(view.chart()->barCount() > forwardBars);

        // The other width: t changes the chip's work, the counts follow its own schedules.
        const int other = 1 - view.widthIndex();
        view.setWidthIndex(other);
        const Expected e = expectedFor(placement_->widths[std::size_t(other)], view.uniqueLayer(),
                                       view.direction());
        QCOMPARE(view.chart()->barCount(), e.bars);
    }

    void exportTraceIsValidJson() {
        ui::ScheduleView view;
        view.setPlacement(placement_);
        view.setUniqueLayer(1);
        QTemporaryDir dir;
        const QString path = dir.filePath("trace.json");
        QCOMPARE(view.exportTrace(path), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonParseError error;
        const auto doc = QJsonDocument::fromJson(file.readAll(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const auto& width = placement_->widths[std::size_t(view.widthIndex())];
        const auto& graph = *width.schedules->unique[1].graph;
        // One "X" event per operator of both directions; the drawn ones have a mode and a
        // duration, and per direction they match the chart's operator count.
        int events = 0, drawnForward = 0, drawnBackward = 0;
        for (const auto& value : doc.object()["traceEvents"].toArray()) {
            const auto event = value.toObject();
            if (event["ph"].toString() != "X") continue;
            ++events;
            const bool drawn = event["dur"].toDouble() > 0 &&
                               event["args"].toObject()["mode"].toString() != "none";
            (event["pid"].toInt() == 1 ? drawnForward : drawnBackward) += drawn;
        }
        QCOMPARE(events, int(graph.forward().size() + graph.backward().size()));
        view.setDirection(sch::Direction::Forward);
        QCOMPARE(drawnForward, view.chart()->operatorCount());
        view.setDirection(sch::Direction::Backward);
        QCOMPARE(drawnBackward, view.chart()->operatorCount());

        // The whole model: every layer's operators.
        QCOMPARE(view.exportTrace(path, true), QString());
        file.close();
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto all = QJsonDocument::fromJson(file.readAll()).object()["traceEvents"].toArray();
        std::size_t expected = 0;
        for (const auto& layer : width.graph->layers())
            expected += layer.graph->forward().size() + layer.graph->backward().size();
        QCOMPARE(std::size_t(std::count_if(
                     all.begin(), all.end(),
                     [](const QJsonValue& v) { return v.toObject()["ph"].toString() == "X"; })),
                 expected);

        // A path that cannot be written gives a message and leaves nothing behind.
        const QString bad = dir.filePath("missing/dir/trace.json");
        const QString message = view.exportTrace(bad);
        QVERIFY(message.contains("missing/dir"));
        QVERIFY(!QFile::exists(bad));
    }

    void hoverTellsNameStartDurationFlops() {
        ui::ScheduleView view;
        view.resize(1200, 700);
        view.setPlacement(placement_);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* chart = view.chart();
        const auto* layout = chart->layout();
        QVERIFY(layout);
        // The longest GEMM and the longest collective are surely wide enough to hit.
        for (auto kind : {core::model::OpClass::TensorCore, core::model::OpClass::Collective}) {
            int longest = -1;
            for (int i = 0; i < chart->barCount(); ++i) {
                const auto& b = layout->bars()[std::size_t(i)];
                if (b.opClass != kind) continue;
                if (longest < 0 || b.endSeconds - b.startSeconds >
                                       layout->bars()[std::size_t(longest)].endSeconds -
                                           layout->bars()[std::size_t(longest)].startSeconds)
                    longest = i;
            }
            QVERIFY(longest >= 0);
            const QPoint at = chart->barCenter(longest);
            QVERIFY(at.x() >= 0);
            const QString tip = chart->toolTipAt(at);
            const auto& bar = layout->bars()[std::size_t(longest)];
            const auto& op = layout->tasks()[std::size_t(bar.task)];
            QVERIFY2(tip.contains(QString::fromStdString(op.name)), qPrintable(tip));
            QVERIFY2(tip.contains("Start: ") && tip.contains("Duration: ") && tip.contains("FLOPs"),
                     qPrintable(tip));
            const QString duration =
                QString::fromStdString(core::formatSeconds(bar.endSeconds - bar.startSeconds));
            QVERIFY2(tip.contains(duration), qPrintable(tip));
            // Rates carry "/s" once: "TFLOP/s", "GB/s" (not "GFLOP/s/s").
            QVERIFY2(!tip.contains("/s/s"), qPrintable(tip));
            const double seconds = bar.endSeconds - bar.startSeconds;
            if (kind == core::model::OpClass::TensorCore) {
                QVERIFY2(tip.contains(QString::fromStdString(core::formatFlops(op.flops))),
                         qPrintable(tip));
                QVERIFY2(tip.contains(
                             QString::fromStdString(core::formatRate(op.flops / seconds, "FLOP"))),
                         qPrintable(tip));
                QVERIFY2(tip.contains("FLOP/s)"), qPrintable(tip));
            } else {
                QVERIFY2(tip.contains("All-reduce: "), qPrintable(tip));
                QVERIFY2(tip.contains(QString::fromStdString(
                             core::formatRate(op.collectiveBytes / seconds, "B"))),
                         qPrintable(tip));
                QVERIFY2(tip.contains("B/s)"), qPrintable(tip));
            }
        }
        QVERIFY(chart->toolTipAt(QPoint(1, 1)).isEmpty());
        QVERIFY(view.grab().save(tandem::test::outputPath("gantt_schedule_view.png")));
        view.setDirection(sch::Direction::Backward);
        QVERIFY(view.grab().save(tandem::test::outputPath("gantt_schedule_view_backward.png")));
        view.setUniqueLayer(0);
        QVERIFY(view.grab().save(tandem::test::outputPath("gantt_schedule_view_embedding.png")));
    }

    // Issue 14, item 11. The chart reuses its bar and name items from one drawing to the next;
    // a bar item created after a name item used to be drawn over it, so after File ▸ New project
    // (the view cleared and set again) or a switch of direction the link bars' names vanished.
    void linkBarNamesSurviveClearAndSet() {
        ui::ScheduleView view;
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setPlacement(placement_);
        view.clear("new project");
        view.setPlacement(placement_);
        for (auto d :
             {sch::Direction::Forward, sch::Direction::Backward, sch::Direction::Forward}) {
            view.setDirection(d);
            auto* chart = view.chart();
            const QImage image = chart->grab().toImage();
            int checked = 0;
            for (int i = 0; i < chart->barCount(); ++i) {
                const auto& bar = chart->layout()->bars()[std::size_t(i)];
                const auto& op = chart->layout()->tasks()[std::size_t(bar.task)];
                if (bar.opClass != core::model::OpClass::Collective) continue;
                const double us = (bar.endSeconds - bar.startSeconds) * 1e6;
                const double px = us / (chart->layout()->makespanSeconds() * 1e6) *
                                  chart->plot()->axisRect()->width();
                if (px < 150) continue;  // surely wide enough for its name
                ++checked;
                const int white = whitePixelsNear(image, chart->barCenter(i), 20, 5);
                QVERIFY2(white > 10,
                         qPrintable(QString("%1 (%2 px wide, %3): %4 white pixels")
                                        .arg(QString::fromStdString(op.name))
                                        .arg(px)
                                        .arg(d == sch::Direction::Forward ? "forward" : "backward")
                                        .arg(white)));
            }
            QVERIFY(checked >= 2);
        }
        QCoreApplication::processEvents();  // the header's deferred layout, for the picture
        QVERIFY(view.grab().save(tandem::test::outputPath("gantt_after_clear.png")));
    }

    void aggregatedRowsStackTheirBars() {
        // 64 TCs in 16 rows of 4: task i runs on TC i for (1 + i % 4) µs from (i % 3) µs, so
        // each row holds 4 overlapping bars and must stack them in sub-rows.
        sch::ScheduleProblem problem;
        problem.numTensorCores = 64;
        problem.numVectorCores = 1;
        sch::LayerSchedule schedule;
        schedule.numTensorCores = 64;
        schedule.numVectorCores = 1;
        for (int i = 0; i < 64; ++i) {
            const double start = (i % 3) * 1e-6, duration = (1 + i % 4) * 1e-6;
            problem.tasks.push_back({"op." + std::to_string(i),
                                     core::model::OpClass::TensorCore,
                                     duration,
                                     duration,
                                     1e6,
                                     {}});
            schedule.tasks.push_back(
                {start, duration, sch::TaskMode::OneCore, {{sch::LaneKind::TensorCore, i, 1}}});
            schedule.makespanSeconds = std::max(schedule.makespanSeconds, start + duration);
        }
        schedule.lowerBoundSeconds = schedule.makespanSeconds * 0.9;
        auto layout = sch::GanttLayout::build(problem, schedule);
        QVERIFY(layout);
        QCOMPARE(int(layout->rows().size()), 16 + 1 + 1);
        ui::GanttChart chart;
        chart.resize(1000, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setLayout(std::make_shared<const sch::GanttLayout>(std::move(*layout)), "64 TCs");
        QCOMPARE(chart.barCount(), 64);
        QCOMPARE(chart.drawnItemCount(), 64);  // every bar wide enough: none merged
        QVERIFY(chart.grab().save(tandem::test::outputPath("gantt_aggregated.png")));
    }

    void largeLayerMergesAndCulls() {
        // 4,000 one-core GEMMs, 500 rounds on 8 TCs, plus a parallel op and a collective.
        const int n = 4000, tcs = 8;
        sch::ScheduleProblem problem;
        problem.numTensorCores = tcs;
        problem.numVectorCores = 2;
        sch::LayerSchedule schedule;
        schedule.numTensorCores = tcs;
        schedule.numVectorCores = 2;
        const double d = 1e-6;
        for (int i = 0; i < n; ++i) {
            problem.tasks.push_back(
                {"gemm." + std::to_string(i), core::model::OpClass::TensorCore, d, d, 1e6, {}});
            schedule.tasks.push_back({(i / tcs) * d,
                                      d,
                                      sch::TaskMode::OneCore,
                                      {{sch::LaneKind::TensorCore, i % tcs, 1}}});
        }
        schedule.makespanSeconds = (n / tcs) * d;
        schedule.lowerBoundSeconds = schedule.makespanSeconds;
        auto layout = sch::GanttLayout::build(problem, schedule);
        QVERIFY(layout);
        ui::GanttChart chart;
        chart.resize(1000, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setLayout(std::make_shared<const sch::GanttLayout>(std::move(*layout)), "synthetic");
        QCOMPARE(chart.barCount(), n);
        QCOMPARE(chart.timeUnit(), QString("µs"));
        // Work is bounded by pixels, not bars (bench_views times it). 500 bars side by side in
        // < 1,000 px: merged, far fewer rectangles than bars.
        QVERIFY2(chart.drawnItemCount() < n / 4,
                 qPrintable(QString::number(chart.drawnItemCount())));
        // Zooming in (keyboard) culls: fewer bars are in view, each wide enough to stay separate.
        for (int i = 0; i < 20; ++i) QTest::keyClick(&chart, Qt::Key_Plus);
        QVERIFY(chart.drawnItemCount() > 0);
        QVERIFY(chart.drawnItemCount() < n / 4);
        QTest::keyClick(&chart, Qt::Key_Home);
        qInfo("4000 bars: %d rectangles drawn", chart.drawnItemCount());
        QVERIFY(chart.drawnItemCount() > 0);
        QVERIFY(chart.drawnItemCount() < n / 4);
        QVERIFY(chart.grab().save(tandem::test::outputPath("gantt_large.png")));
        chart.setLayout(nullptr);
        QCOMPARE(chart.barCount(), 0);
        QCOMPARE(chart.drawnItemCount(), 0);
    }
};

QTEST_MAIN(TestScheduleView)
#include "test_schedule_view.moc"
