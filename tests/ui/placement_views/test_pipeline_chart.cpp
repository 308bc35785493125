// The Pipeline tab on long pipelines (issue 14, items 9 and 11): a GPT-3-sized pipeline (8 stages
// × 683 microbatches, ~400 s) opens on a readable start of the batch — every stage's warm-up and
// a few steady-state cycles, each block its own numbered rectangle — with a note saying what is
// shown; 0, Home and End show the whole batch, its start and its end; the time axis reads in the
// unit the range in view needs (µs, ms, s, min); the header gives one time per batch and one
// bubble with its definition; and which blocks are numbered depends on their width in pixels,
// not on their number. Pictures go to a temporary folder (tests/ui/test_output_dir.h).
#include <qcustomplot.h>
#include <QtTest>
#include <algorithm>

#include "core/common/units.h"
#include "core/placement/pipeline_timeline.h"
#include "tests/ui/placement_views/synthetic_plan.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/panels/pipeline_view.h"

using namespace tandem;
using core::placement::Plan;

namespace {

QString shot(const QString& name) {
    return tandem::test::outputPath(name + ".png");
}

Plan synthetic(int S, std::int64_t m, std::int64_t t, std::int64_t d) {
    return tandem::test::syntheticPlan(S, m, t, d);
}

// S equal stages (forward f, backward 2f) and m microbatches, with the cost model's figures filled
// in as core would: the pipeline takes 3f·(m + S − 1), its bubble (S − 1)/(m + S − 1).
std::shared_ptr<const Plan> equalStages(int S, std::int64_t m, double f) {
    auto plan = std::make_shared<Plan>(synthetic(S, m, 1, 1));
    for (auto& stage : plan->stages) {
        stage.forwardSeconds = f;
        stage.backwardSeconds = 2 * f;
        stage.loadSeconds = 3 * f;
    }
    plan->maxStageLoadSeconds = 3 * f;
    plan->pipelineSeconds = 3 * f * double(m + S - 1);
    plan->bubbleFraction = double(S - 1) / double(m + S - 1);
    plan->syncSeconds = 1.5;
    plan->optimizerSeconds = 0.25;
    plan->timePerBatchSeconds = plan->pipelineSeconds + 1.75;
    plan->throughputSamplesPerSecond = double(m) / plan->timePerBatchSeconds;
    return plan;
}

// The axis's tick labels as numbers (English locale: "1,500").
std::vector<double> tickValues(QCPAxis* axis) {
    std::vector<double> values;
    for (QString label : axis->tickVectorLabels()) values.push_back(label.remove(',').toDouble());
    return values;
}

}  // namespace

class TestPipelineChart : public QObject {
    Q_OBJECT

private slots:
    // Issue 14, item 9. GPT-3's 683 microbatches on 8 stages take ~400 s; drawn whole, a block
    // is 2 px and forward and backward blur. The default view is the start of the batch: every
    // stage's warm-up and a few steady-state cycles, each block its own numbered rectangle, with
    // a note on what is shown; 0 shows everything, End the cool-down. The axis reads in s.
    void longPipelineOpensReadable() {
        const auto plan = equalStages(8, 683, 0.19);
        ui::PipelineView view;
        view.resize(1400, 700);
        view.setPlan(plan);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* chart = view.chart();
        const auto* t = chart->timeline();
        const double makespan = t->makespanSeconds();
        QVERIFY(makespan > 390);
        QVERIFY(chart->grab().save(shot("pipeline_gpt3_default")));
        const double lo = chart->viewStartSeconds(), hi = chart->viewEndSeconds();
        QVERIFY2(lo <= 0 && hi < 0.05 * makespan,
                 qPrintable(QString("view %1–%2 s of %3 s").arg(lo).arg(hi).arg(makespan)));
        // In view: every stage's first backward (the warm-up is over everywhere), and stage 0's
        // backward of microbatch 6 (steady-state cycles follow it).
        for (int k = 0; k < t->stageCount(); ++k) {
            const auto blocks = t->stageBlocks(k);
            const auto firstBackward = std::find_if(blocks.begin(), blocks.end(),
                                                    [](const auto& b) { return !b.forward; });
            QVERIFY(firstBackward->endSeconds < hi);
        }
        int inView = 0;
        double narrowest = 1e9;
        for (int k = 0; k < t->stageCount(); ++k) {
            const auto blocks = t->stageBlocks(k);
            for (std::size_t i = 0; i < blocks.size(); ++i) {
                if (blocks[i].startSeconds < lo || blocks[i].endSeconds > hi) continue;
                ++inView;
                narrowest = std::min(narrowest, chart->blockRect(k, int(i)).width());
                if (k == 0 && !blocks[i].forward) QVERIFY(blocks[i].microbatch <= 20);
            }
        }
        qInfo("default view: %d blocks in view, the narrowest %.1f px", inView, narrowest);
        QVERIFY(inView >= 2 * 8 * 6);
        QVERIFY2(narrowest >= 12, qPrintable(QString::number(narrowest)));
        QVERIFY(chart->drawnRectangleCount() >= inView);  // no block merged with another
        QVERIFY2(
            chart->drawnLabelCount() >= inView,  // and every one numbered
            qPrintable(QString("%1 numbers, %2 blocks").arg(chart->drawnLabelCount()).arg(inView)));
        // The note says what is shown and how to see the rest.
        const QString note = chart->viewNote();
        QVERIFY2(note.startsWith("Microbatches 1–") && note.contains(" of 683") &&
                     note.contains("0: all"),
                 qPrintable(note));
        // The axis reads in seconds, not in hundreds of thousands of milliseconds.
        QCOMPARE(chart->timeUnit(), QString("s"));
        QCOMPARE(chart->plot()->xAxis->label(), QString("Time since the start of the batch (s)"));
        QTest::keyClick(chart->plot(), Qt::Key_0);
        QVERIFY(chart->viewStartSeconds() <= 0 && chart->viewEndSeconds() >= makespan);
        QCOMPARE(chart->timeUnit(), QString("s"));
        QVERIFY(chart->grab().save(shot("pipeline_gpt3_whole")));
        QCOMPARE(chart->drawnLabelCount(), 0);  // 2 px blocks: too narrow for any number
        const auto ticks = tickValues(chart->plot()->xAxis);
        QVERIFY(!ticks.empty());
        QVERIFY2(*std::max_element(ticks.begin(), ticks.end()) <= 1000,
                 qPrintable(chart->plot()->xAxis->tickVectorLabels().join(" ")));
        QCOMPARE(chart->viewNote(), QString("All 683 microbatches · Home: zoom to the start"));
        // End: the cool-down, as wide as the default view; Home: back to the start.
        QTest::keyClick(chart->plot(), Qt::Key_End);
        QVERIFY(chart->viewEndSeconds() >= makespan);
        QVERIFY(std::abs((chart->viewEndSeconds() - chart->viewStartSeconds()) - (hi - lo)) <
                1e-9 * makespan);
        QVERIFY2(chart->viewNote().contains("–683 of 683"), qPrintable(chart->viewNote()));
        QVERIFY(chart->grab().save(shot("pipeline_gpt3_end")));
        QTest::keyClick(chart->plot(), Qt::Key_Home);
        QCOMPARE(chart->viewEndSeconds(), hi);
    }

    // The unit follows the range in view: µs, ms, s, min.
    void timeAxisUnitFollowsTheRange() {
        ui::PipelineChart chart;
        chart.resize(1200, 500);
        const auto long_ = equalStages(8, 683, 1.0);  // 2,070 s: minutes
        chart.setTimeline(std::make_shared<const core::placement::PipelineTimeline>(
            core::placement::PipelineTimeline::build(*long_).value()));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const std::pair<double, const char*> cases[] = {
            {5e-4, "µs"}, {0.05, "ms"}, {1.5, "ms"}, {30, "s"}, {400, "s"}};
        for (const auto& [width, unit] : cases) {
            chart.showRange(0, width, 0, 7);
            QCOMPARE(chart.timeUnit(), QString(unit));
            const auto ticks = tickValues(chart.plot()->xAxis);
            QVERIFY(ticks.size() >= 2);
            // The ticks read in that unit: the last is about the range's width in it.
            const double perSecond = QString(unit) == "µs" ? 1e6 : QString(unit) == "ms" ? 1e3 : 1;
            QVERIFY2(ticks.back() <= width * perSecond && ticks.back() >= 0.5 * width * perSecond,
                     qPrintable(chart.plot()->xAxis->tickVectorLabels().join(" ")));
        }
        chart.resetView();
        QCOMPARE(chart.timeUnit(), QString("min"));
        QCOMPARE(chart.plot()->xAxis->label(), QString("Time since the start of the batch (min)"));
        const auto ticks = tickValues(chart.plot()->xAxis);
        QVERIFY2(ticks.back() >= 20 && ticks.back() <= 2070 / 60.0,
                 qPrintable(chart.plot()->xAxis->tickVectorLabels().join(" ")));
    }

    // Issue 14, item 9: one time per batch and one bubble, defined, in the header; the
    // simulated timeline's length and idle share in its tooltip.
    void headerGivesOneTimeAndOneBubble() {
        auto plan = std::make_shared<Plan>(*equalStages(8, 683, 0.19));
        plan->mfu = 0.42;
        ui::PipelineView view;
        view.setPlan(plan);
        const QString header = view.headerText();
        const auto text = [](double seconds) {
            return QString::fromStdString(core::formatSeconds(seconds));
        };
        QVERIFY2(
            header.contains(QString("time per batch %1 · ").arg(text(plan->timePerBatchSeconds))) &&
                header.contains("bubble 1.0 % = the share of the pipeline's time a stage "
                                "idles while the pipeline fills and drains, (ΣL − Lmax)/(m·Lmax "
                                "+ ΣL − Lmax) with the stage loads ΣL = 4.56 s, the slowest Lmax "
                                "= 570 ms, m = 683 (cost model: the slowest stage"),
            qPrintable(header));
        {  // PHAZE's plans keep PHAZE's formula
            auto phaze = std::make_shared<Plan>(*plan);
            phaze->costModel = core::placement::CostModelKind::PhazeCompat;
            ui::PipelineView other;
            other.setPlan(phaze);
            QVERIFY2(other.headerText().contains("(S − 1)/(m + S − 1) = 7/690 (cost model, every "
                                                 "stage timed as the slowest)"),
                     qPrintable(other.headerText()));
        }
        // No second time per batch (the pipeline part, the simulated timeline), no second bubble:
        // the percentages are the bubble and the model FLOPs utilisation.
        QVERIFY2(!header.contains(text(plan->pipelineSeconds)) &&
                     !header.contains(text(view.chart()->timeline()->makespanSeconds())),
                 qPrintable(header));
        QCOMPARE(header.count(" %"), 2);
        const QString tip = view.headerToolTip();
        QVERIFY2(tip.contains(text(plan->pipelineSeconds)) &&
                     tip.contains(text(view.chart()->timeline()->makespanSeconds())) &&
                     tip.contains("idle"),
                 qPrintable(tip));
    }

    // Issue 14, item 11: which blocks are numbered depends on their width, not on their number.
    // A block that holds the longest number in view — in the chart's font, else in a smaller
    // one — shows its own: microbatches 10 and up as well as 1–9 (the old chart asked for the
    // number's width plus 6 px, so 18 px blocks were numbered 1–9 only).
    void everyWideEnoughBlockIsNumbered() {
        const auto plan = equalStages(4, 40, 1e-3);
        ui::PipelineChart chart;
        chart.resize(1400, 500);
        chart.setTimeline(std::make_shared<const core::placement::PipelineTimeline>(
            core::placement::PipelineTimeline::build(*plan).value()));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const auto* t = chart.timeline();
        // Stage 0's forward of microbatch 12 starts the window.
        const auto stage0 = t->stageBlocks(0);
        const auto first = std::find_if(stage0.begin(), stage0.end(), [](const auto& b) {
            return b.forward && b.microbatch == 11;
        });
        const int firstIndex = int(first - stage0.begin());
        const QFontMetricsF metrics(chart.plot()->font());
        const double twoDigits = metrics.horizontalAdvance("88");
        for (double target : {twoDigits + 3, twoDigits - 1}) {
            // A window in which a forward block (1 ms) is `target` pixels wide.
            const double width = 1e-3 * chart.plot()->axisRect()->width() / target;
            chart.showRange(first->startSeconds - 1e-4, first->startSeconds + width, 0, 3);
            QVERIFY(std::abs(chart.blockRect(0, firstIndex).width() - target) < 0.5);
            int whole = 0, any = 0;
            for (int k = 0; k < t->stageCount(); ++k)
                for (const auto& b : t->stageBlocks(k)) {
                    const double lo = chart.viewStartSeconds(), hi = chart.viewEndSeconds();
                    any += b.endSeconds > lo && b.startSeconds < hi;
                    whole += b.startSeconds >= lo && b.endSeconds <= hi;
                }
            qInfo("blocks %.1f px wide: %d numbers, %d blocks wholly and %d partly in view", target,
                  chart.drawnLabelCount(), whole, any);
            QVERIFY(whole > 20);
            QVERIFY2(
                chart.drawnLabelCount() >= whole && chart.drawnLabelCount() <= any,
                qPrintable(
                    QString("%1 numbers for %2 blocks").arg(chart.drawnLabelCount()).arg(whole)));
            QVERIFY(chart.grab().save(shot(QString("pipeline_numbers_%1px").arg(int(target)))));
        }
    }
};

QTEST_MAIN(TestPipelineChart)
#include "test_pipeline_chart.moc"
