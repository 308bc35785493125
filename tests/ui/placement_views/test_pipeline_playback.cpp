// The Pipeline tab's playback and GPipe comparison (issue 27 item 11) on GPT-2 XL placed on 32
// TPUv4-like chips. Oracles: core's pipelineSteps and momentAt for what the status says at each
// step (a stage's pass and microbatch, written out for every stage), scheduleMemory and the
// plan's own stage totals for the lines above the charts, and the closed forms GPipe must meet
// (2·S·m blocks, m microbatches held). The playhead follows the steps in both charts, keys step
// it, Play advances it, and the two charts keep one time window.
#include <QCheckBox>
#include <QtTest>

#include "core/common/units.h"
#include "core/placement/model_placement.h"
#include "core/placement/pipeline_memory.h"
#include "core/placement/pipeline_moment.h"
#include "core/placement/pipeline_timeline.h"
#include "tests/support/small_placement.h"
#include "tests/ui/placement_views/synthetic_plan.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/panels/pipeline_playback.h"
#include "ui/panels/pipeline_view.h"

using namespace tandem;
using core::placement::Plan;

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

}  // namespace

class TestPipelinePlayback : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const Plan> plan_;

private slots:
    void initTestCase() {
        auto placed = core::placement::placeModel(tandem::test::gpt2XlOn32Tpuv4());
        QVERIFY2(placed, placed ? "" : placed.message().c_str());
        QVERIFY(placed->result.plan);
        plan_ = std::make_shared<const Plan>(*placed->result.plan);
        QVERIFY2(plan_->stages.size() >= 2 && plan_->microbatchesPerPipeline >= 2,
                 "the set-up must give a pipeline to play");
    }

    void gpipeIsDrawnBesideOneFOneB() {
        ui::PipelineView view;
        view.resize(1400, 900);
        view.setPlan(plan_);
        const auto S = std::int64_t(plan_->stages.size());
        const auto m = plan_->microbatchesPerPipeline;
        const auto* gpipe = view.gpipeChart()->timeline();
        QVERIFY(gpipe);
        QCOMPARE(gpipe->schedule(), core::placement::PipelineSchedule::GPipe);
        QCOMPARE(std::int64_t(view.gpipeChart()->blockCount()), 2 * S * m);
        for (int k = 0; k < int(S); ++k) QCOMPARE(gpipe->peakInFlight(k), double(m));
        // 1F1B's line: the plan's own memory (its fullest stage); GPipe's: scheduleMemory.
        double fullest = 0;
        for (const auto& stage : plan_->stages)
            fullest = std::max(fullest, stage.memory.totalBytes);
        const QString one = view.scheduleText(false), gp = view.scheduleText(true);
        QVERIFY2(one.startsWith("1F1B (PipeDream-Flush)") &&
                     one.contains("memory per device " + qs(core::formatBytes(fullest))) &&
                     one.contains(QString("up to %1 of %2 microbatches").arg(S).arg(m)),
                 qPrintable(one));
        const auto memory = core::placement::scheduleMemory(*plan_, *gpipe);
        QVERIFY(memory.fullestBytes() > fullest);  // m > S: GPipe holds more
        QVERIFY2(
            gp.startsWith("GPipe") &&
                gp.contains("memory per device " + qs(core::formatBytes(memory.fullestBytes()))) &&
                gp.contains(QString("up to %1 of %1 microbatches").arg(m)) &&
                gp.contains(qs(core::formatSeconds(gpipe->makespanSeconds()))),
            qPrintable(gp));
        // Hidden on request, and the charts share one time window.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.gpipeChart()->isVisible());
        view.gpipeToggle()->setChecked(false);
        QVERIFY(!view.gpipeChart()->isVisible());
        QCOMPARE(view.focusedChart(), view.chart());
        view.gpipeToggle()->setChecked(true);
        const double end = view.chart()->timeline()->makespanSeconds();
        view.chart()->showRange(0.2 * end, 0.4 * end, 0, int(S) - 1);
        QCOMPARE(view.gpipeChart()->viewStartSeconds(), view.chart()->viewStartSeconds());
        QCOMPARE(view.gpipeChart()->viewEndSeconds(), view.chart()->viewEndSeconds());
    }

    void stepsSayWhatEveryStageDoes() {
        ui::PipelineView view;
        view.resize(1400, 900);
        view.setPlan(plan_);
        auto* playback = view.playback();
        const auto* one = view.chart()->timeline();
        const auto* gpipe = view.gpipeChart()->timeline();
        const auto steps = core::placement::pipelineSteps({one, gpipe});
        QCOMPARE(playback->stepCount(), int(steps.size()));
        QCOMPARE(playback->step(), -1);
        QCOMPARE(view.chart()->playheadSeconds(), -1.0);
        int checked = 0;
        for (int i :
             {0, 1, 2, 5, int(steps.size()) / 3, int(steps.size()) / 2, int(steps.size()) - 1}) {
            playback->setStep(i);
            QCOMPARE(playback->stepSeconds(i), steps[std::size_t(i)]);
            QCOMPARE(view.chart()->playheadSeconds(), steps[std::size_t(i)]);
            QCOMPARE(view.gpipeChart()->playheadSeconds(), steps[std::size_t(i)]);
            const QString status = playback->statusText();
            QVERIFY2(status.startsWith(QString("Step %1 of %2").arg(i + 1).arg(steps.size())),
                     qPrintable(status));
            const auto moment = core::placement::momentAt(*one, steps[std::size_t(i)]);
            if (steps[std::size_t(i)] >= one->makespanSeconds()) {
                QVERIFY2(status.contains("1F1B: every stage done"), qPrintable(status));
                continue;
            }
            // Up to 8 stages each is written out; more are counted.
            int forward = 0, backward = 0, filling = 0, waiting = 0, done = 0;
            for (int k = 0; k < int(moment.stages.size()); ++k) {
                const auto& s = moment.stages[std::size_t(k)];
                QString want = QString("stage %1 ").arg(k);
                switch (s.activity) {
                    case core::placement::StageActivity::Forward:
                        want += QString("forward %1").arg(s.microbatch + 1);
                        ++forward;
                        break;
                    case core::placement::StageActivity::Backward:
                        want += QString("backward %1").arg(s.microbatch + 1);
                        ++backward;
                        break;
                    case core::placement::StageActivity::Idle:
                        want += s.finished()  ? "done"
                                : s.filling() ? "idle, filling"
                                              : "idle, waiting";
                        ++(s.finished() ? done : s.filling() ? filling : waiting);
                }
                if (moment.stages.size() <= 8)
                    QVERIFY2(status.contains(want), qPrintable(want + " in " + status));
                ++checked;
            }
            if (moment.stages.size() > 8) {
                const QString counts =
                    QString(
                        "1F1B: of %1 stages %2 run a forward, %3 a backward; idle: %4 "
                        "filling, %5 waiting, %6 done · stage 0 ")
                        .arg(moment.stages.size())
                        .arg(forward)
                        .arg(backward)
                        .arg(filling)
                        .arg(waiting)
                        .arg(done);
                QVERIFY2(status.contains(counts), qPrintable(counts + " in " + status));
            }
        }
        QVERIFY(checked >= 10);
        // Step 0: only stage 0 runs (microbatch 1's forward); every later stage is filling.
        playback->setStep(0);
        const auto S = plan_->stages.size();
        QVERIFY2(playback->statusText().contains(
                     QString("1F1B: of %1 stages 1 run a forward, 0 a backward; idle: %2 filling")
                         .arg(S)
                         .arg(S - 1)),
                 qPrintable(playback->statusText()));
    }

    void shortPipelinesAreWrittenOutStageByStage() {
        // 4 stages, 8 microbatches, loads 1/2/3/1 ms forward and 2/4/2/4 ms backward.
        ui::PipelineView view;
        view.setPlan(std::make_shared<const Plan>(tandem::test::syntheticPlan(4, 8, 1, 1)));
        auto* playback = view.playback();
        playback->setStep(0);
        QVERIFY2(playback->statusText().contains("1F1B: stage 0 forward 1 (holds 1) · stage 1 "
                                                 "idle, filling · stage 2 idle, filling"),
                 qPrintable(playback->statusText()));
        // 1 ms: stage 0 starts microbatch 2, stage 1 takes microbatch 1 over.
        playback->setStep(1);
        QVERIFY2(playback->statusText().contains("1 ms into the batch") ||
                     playback->statusText().contains("1.00 ms into the batch"),
                 qPrintable(playback->statusText()));
        QVERIFY2(playback->statusText().contains("1F1B: stage 0 forward 2 (holds 2) · stage 1 "
                                                 "forward 1 (holds 1) · stage 2 idle, filling"),
                 qPrintable(playback->statusText()));
        playback->setStep(playback->stepCount() - 1);
        QVERIFY2(playback->statusText().contains("1F1B: every stage done") &&
                     playback->statusText().contains("GPipe: every stage done"),
                 qPrintable(playback->statusText()));
    }

    void keysAndPlayMoveThePlayhead() {
        ui::PipelineView view;
        view.resize(1400, 900);
        view.setPlan(plan_);
        view.show();
        view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        auto* playback = view.playback();
        view.chart()->setFocus();
        QTest::keyClick(view.chart(), Qt::Key_Period);
        QCOMPARE(playback->step(), 0);
        QTest::keyClick(view.chart(), Qt::Key_Period);
        QTest::keyClick(view.chart(), Qt::Key_Period);
        QCOMPARE(playback->step(), 2);
        QTest::keyClick(view.chart(), Qt::Key_Comma);
        QCOMPARE(playback->step(), 1);
        QTest::keyClick(view.chart(), Qt::Key_K);
        QVERIFY(playback->playing());
        QTRY_VERIFY(playback->step() >= 3);
        QTest::keyClick(view.chart(), Qt::Key_K);
        QVERIFY(!playback->playing());
        // A playhead past the view pans the view to it.
        const double at = playback->stepSeconds(playback->stepCount() - 2);
        playback->setStep(playback->stepCount() - 2);
        QVERIFY(view.chart()->viewStartSeconds() <= at && at <= view.chart()->viewEndSeconds());
        playback->setStep(playback->stepCount() / 4);
        QVERIFY(view.grab().save(tandem::test::outputPath("pipeline_playback.png")));
        // A new plan starts over: paused, no playhead.
        view.setPlan(plan_);
        QCOMPARE(playback->step(), -1);
        QCOMPARE(view.gpipeChart()->playheadSeconds(), -1.0);
    }

    void unrecordedMemorySaysSo() {
        Plan old = *plan_;
        for (auto& stage : old.stages) stage.memory.stashBytesPerMicrobatch = -1;
        ui::PipelineView view;
        view.setPlan(std::make_shared<const Plan>(old));
        QVERIFY2(view.scheduleText(true).contains("memory: not recorded in this results file"),
                 qPrintable(view.scheduleText(true)));
        view.clearPlan("no placement fits");
        QCOMPARE(view.playback()->stepCount(), 0);
        QVERIFY(view.gpipeChart()->timeline() == nullptr);
    }
};

QTEST_MAIN(TestPipelinePlayback)
#include "test_pipeline_playback.moc"
