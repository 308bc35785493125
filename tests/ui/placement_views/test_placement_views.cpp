// The Pipeline and Placement tabs on real and synthetic plans: GPT-3 175B placed on the
// TPUv4-like cluster gives one device-map cell per device (each found again under its own cell),
// 2·S·m pipeline blocks and one stacked memory bar per stage whose height is the plan's total;
// a 64-stage × 512-microbatch pipeline and a 65,536-device map draw work bounded by pixels
// (sub-pixel blocks and cells merge; zoomed in, exactly the blocks in view are drawn; the time
// is bench_views' business); missing plans say why; the device map keeps its labels when its
// plan is cleared and set again (issue 14). test_chart_text covers how a chart's subject and
// centred message wrap; test_pipeline_chart covers the pipeline chart's default view, time unit,
// header and block numbers. Every widget is grabbed to a PNG in a temporary folder
// (tests/ui/test_output_dir.h) for a human to look at.
#include <qcustomplot.h>
#include <QSplitter>
#include <QtTest>

#include "core/common/units.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "core/placement/pipeline_timeline.h"
#include "tests/ui/placement_views/synthetic_plan.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/device_map_chart.h"
#include "ui/charts/memory_chart.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/panels/comparison_text.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/pipeline_view.h"
#include "ui/panels/placement_view.h"

using namespace tandem;
using core::placement::Plan;

namespace {

constexpr double kGiB = double(std::int64_t(1) << 30);

QString shot(const QString& name) {
    return tandem::test::outputPath(name + ".png");
}

Plan synthetic(int S, std::int64_t m, std::int64_t t, std::int64_t d) {
    return tandem::test::syntheticPlan(S, m, t, d);
}

}  // namespace

class TestPlacementViews : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const Plan> gpt3_;
    std::vector<std::string> names_;

private slots:
    void initTestCase() {
        core::placement::ModelPlacementRequest request;
        request.model = core::model::zooModel("gpt3-175b").value();
        request.hardware = core::hardware::PresetLibrary::preset("tpuv4-like").value();
        QCOMPARE(request.hardware.cluster.devices, std::int64_t(1024));
        // PHAZE's accounting (no optimizer state, 2-byte gradients): the plan these views are
        // checked on.
        request.training.optimizer = core::hardware::Optimizer::Sgd;
        request.training.gradReduceInBf16 = true;
        auto placed = core::placement::placeModel(request);
        QVERIFY2(placed, placed ? "" : placed.message().c_str());
        QVERIFY2(placed->result.plan, placed->result.infeasibleReason.c_str());
        gpt3_ = std::make_shared<const Plan>(*placed->result.plan);
        for (const auto& layer : placed->problem.widths.front().layers)
            names_.push_back(layer.name);
        QCOMPARE(gpt3_->devices.size(), std::size_t(1024));
    }

    void deviceMapHasOneCellPerDevice() {
        ui::PlacementView view;
        view.resize(1400, 700);
        view.setPlan(gpt3_, names_, 1024);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* map = view.deviceMap();
        QCOMPARE(map->cellCount(), 1024);
        // Every device's cell is found again under its centre: a layout with overlapping or
        // missing cells fails here.
        int idle = 0;
        QVERIFY(view.grab().save(shot("placement_view")));
        QVERIFY2(map->width() > view.memoryChart()->width(),
                 qPrintable(QString("device map %1 px, memory chart %2 px wide")
                                .arg(map->width())
                                .arg(view.memoryChart()->width())));
        for (int id = 0; id < 1024; ++id) {
            QCOMPARE(map->deviceAt(map->cellCentre(id)), id);
            idle += gpt3_->devices[std::size_t(id)].idle();
        }
        QCOMPARE(idle, int(1024 - gpt3_->devicesUsed));
        // The tooltip names the device, its assignment, the stage's layers and memory in GiB.
        const int probe = 1000;
        const auto& a = gpt3_->devices[probe];
        QVERIFY(!a.idle());
        const QString text = map->deviceTextAt(map->cellCentre(probe));
        QVERIFY2(text.contains(QString("Device %1\n").arg(probe)), qPrintable(text));
        QVERIFY2(text.contains(QString("Replica %1 of %2, stage %3 of %4, tensor-parallel rank %5")
                                   .arg(a.replica)
                                   .arg(gpt3_->dataParallel)
                                   .arg(a.stage)
                                   .arg(gpt3_->stages.size())
                                   .arg(a.tensorRank)),
                 qPrintable(text));
        // Issue 27, item 5: one numbering, the layers' names ("layers 73–84 (layer.72 …
        // layer.83)" mixed positions and names before).
        const auto& layers = gpt3_->stages[std::size_t(a.stage)].layers;
        QVERIFY2(
            text.contains(QString("%1 layers: %2 … %3")
                              .arg(layers.size())
                              .arg(QString::fromStdString(names_[std::size_t(layers.front())]),
                                   QString::fromStdString(names_[std::size_t(layers.back())]))),
            qPrintable(text));
        QVERIFY2(!text.contains(QString("layers %1–%2").arg(layers.front()).arg(layers.back())),
                 qPrintable(text));
        QVERIFY2(text.contains("GiB of 32.0 GiB HBM"), qPrintable(text));
        if (idle > 0) QVERIFY(map->deviceTextAt(map->cellCentre(1023)).contains("idle"));
        QVERIFY(view.headerText().contains(QString("%1 idle").arg(idle)));
        QVERIFY(map->grab().save(shot("device_map")));
    }

    void planWithoutDeviceTableIsAssigned() {
        auto bare = std::make_shared<Plan>(*gpt3_);
        bare->devices.clear();
        ui::PlacementView view;
        view.setPlan(bare, names_, 2048);
        QCOMPARE(view.deviceMap()->cellCount(), 2048);
        view.setPlan(bare, names_, 512);  // fewer devices than the plan uses
        QCOMPARE(view.deviceMap()->cellCount(), 0);
        QVERIFY2(view.headerText().contains("No plan: the plan uses"),
                 qPrintable(view.headerText()));
    }

    void memoryBarsStackToThePlansTotals() {
        ui::PlacementView view;
        view.resize(1400, 700);
        view.setPlan(gpt3_, names_, 1024);
        auto* memory = view.memoryChart();
        QCOMPARE(memory->barCount(), int(gpt3_->stages.size()));
        for (int k = 0; k < memory->barCount(); ++k) {
            const auto& m = gpt3_->stages[std::size_t(k)].memory;
            QVERIFY(std::abs(memory->stackedGiB(k) - m.totalBytes / kGiB) <
                    1e-9 * m.totalBytes / kGiB);
        }
        QCOMPARE(memory->capacityGiB(), 32.0);
        QVERIFY(memory->stackedGiB(int(gpt3_->stages.size())) == 0);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const int k = 3;
        const QString text = memory->stageTextAt(memory->barCentre(k));
        const auto& stage = gpt3_->stages[std::size_t(k)].layers;
        QVERIFY2(text.startsWith(QString("Stage %1 (%2 layers: %3 … ")
                                     .arg(k)
                                     .arg(stage.size())
                                     .arg(QString::fromStdString(names_[std::size_t(stage[0])]))) &&
                     text.contains("Weights: ") && text.contains("of 32.0 GiB HBM"),
                 qPrintable(text));
        QVERIFY(memory->grab().save(shot("memory")));
    }

    void pipelineHasTwoBlocksPerStageAndMicrobatch() {
        ui::PipelineView view;
        view.resize(1400, 700);
        view.setPlan(gpt3_, names_);
        const auto S = std::int64_t(gpt3_->stages.size());
        QCOMPARE(std::int64_t(view.chart()->blockCount()), 2 * S * gpt3_->microbatchesPerPipeline);
        const QString header = view.headerText();
        QVERIFY2(header.contains(QString("t = %1").arg(gpt3_->tensorParallel)) &&
                     header.contains(QString("d = %1").arg(gpt3_->dataParallel)) &&
                     header.contains("samples/s") &&
                     header.contains(QString("time per batch %1 · ")
                                         .arg(QString::fromStdString(
                                             core::formatSeconds(gpt3_->timePerBatchSeconds)))),
                 qPrintable(header));
        // Where the time goes, and the MFU, as the CLI prints them.
        const auto& b = gpt3_->breakdown;
        QVERIFY2(header.contains(
                     QString("compute %1 · recompute %2")
                         .arg(QString::fromStdString(core::formatSeconds(b.computeSeconds)),
                              QString::fromStdString(core::formatSeconds(b.recomputeSeconds)))) &&
                     header.contains(QString("optimizer step %1")
                                         .arg(QString::fromStdString(
                                             core::formatSeconds(b.optimizerSeconds)))) &&
                     header.contains("model FLOPs utilisation"),
                 qPrintable(header));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.grab().save(shot("pipeline_view")));
    }

    // Issue 26, item 6: a strategy fixed in the training (the set-up's Strategy fields) is what
    // the views show, interleaved chunks drawn as blocks of their own (2·S·m·V of them), and the
    // Comparison names it as the user's, with its interleaving, ZeRO and recomputation.
    void fixedInterleavedStrategyIsDrawnByChunk() {
        core::placement::ModelPlacementRequest request;
        request.model = core::model::zooModel("gpt3-175b").value();
        request.hardware = core::hardware::PresetLibrary::preset("a100-80gb").value();
        request.training.globalBatch = 1536;
        request.training.recompute = core::hardware::Recompute::On;
        request.training.optimizer = core::hardware::Optimizer::Adam;
        request.training.interleave = 2;
        request.training.zero = 1;
        request.training.strategyPipeline = 8;
        request.training.strategyTensor = 8;
        request.training.strategyData = 16;
        auto placed = core::placement::placeModel(request);
        QVERIFY2(placed, placed ? "" : placed.message().c_str());
        QVERIFY2(placed->result.plan, placed->result.infeasibleReason.c_str());
        QVERIFY(placed->fixedStrategy.has_value());
        const auto plan = std::make_shared<const Plan>(*placed->result.plan);
        QCOMPARE(plan->stages.size(), std::size_t(8));
        QCOMPARE(plan->tensorParallel, std::int64_t(8));
        QCOMPARE(plan->dataParallel, std::int64_t(16));
        ui::PipelineView view;
        view.resize(1400, 700);
        view.setPlan(plan, {});
        QCOMPARE(view.chart()->timeline()->chunkCount(), std::int64_t(2));
        QCOMPARE(std::int64_t(view.chart()->blockCount()),
                 2 * 8 * plan->microbatchesPerPipeline * 2);
        // The simulation of the interleaved schedule takes what the cost model says the
        // pipeline takes (equal stages here but for the embedding and the head).
        const double simulated = view.chart()->timeline()->makespanSeconds();
        QVERIFY2(std::abs(simulated - plan->pipelineSeconds) < 0.05 * plan->pipelineSeconds,
                 qPrintable(QString("%1 vs %2").arg(simulated).arg(plan->pipelineSeconds)));
        ui::ComparisonView comparison;
        comparison.setSinglePoint(*placed, request.hardware.accelerator);
        QVERIFY2(comparison.heading().contains("your fixed strategy"),
                 qPrintable(comparison.heading()));
        const QString text = ui::singlePointComparisonText(*placed);
        QVERIFY2(text.contains("Your fixed strategy (t = 8 · d = 16 · 8 stages; V = 2 · ZeRO 1 · "
                               "full recomputation)"),
                 qPrintable(text));
    }

    // Issue 14, item 11: a plan cleared (File ▸ New project) and set again, or set twice, keeps
    // the device map's replica and stage labels.
    void deviceMapLabelsSurviveClearAndSet() {
        ui::PlacementView view;
        view.resize(1400, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* plot = view.deviceMap()->plot();
        view.setPlan(gpt3_, names_, 1024);
        QTRY_VERIFY(plot->yAxis->tickVectorLabels().contains("stage 20"));
        const QStringList x = plot->xAxis->tickVectorLabels(), y = plot->yAxis->tickVectorLabels();
        QCOMPARE(x, QStringList({"r0", "r1", "r2", "r3", "r4", "r5"}));
        QCOMPARE(y.size(), 22);  // 21 stages and the idle devices
        view.clearPlan("new project");
        QTRY_VERIFY(plot->xAxis->tickVectorLabels().isEmpty());
        for (int times = 0; times < 2; ++times) {
            view.setPlan(gpt3_, names_, 1024);
            QTRY_COMPARE(plot->xAxis->tickVectorLabels(), x);
            QTRY_COMPARE(plot->yAxis->tickVectorLabels(), y);
        }
        QVERIFY(view.grab().save(shot("placement_view_again")));
    }

    void largePipelineDrawsOnlyWhatShows() {
        const auto plan = std::make_shared<const Plan>(synthetic(64, 512, 1, 1));
        ui::PipelineView view;
        view.resize(1400, 800);
        view.setPlan(plan);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* chart = view.chart();
        QCOMPARE(chart->blockCount(), 65536);
        // Work is bounded by pixels, not blocks (bench_views times it): the whole timeline has
        // blocks far narrower than a pixel, which merge into runs.
        chart->resetView();
        const int whole = chart->drawnRectangleCount();
        qInfo("64 x 512 (65,536 blocks), whole timeline: %d rectangles drawn", whole);
        QVERIFY(whole > 64);
        QVERIFY(whole < chart->blockCount() / 2);
        QVERIFY(chart->grab().save(shot("pipeline_large")));
        // Zoomed in to the first 60 ms of stages 0–15: exactly the blocks in that window, each
        // wide enough to be drawn (and labelled) on its own.
        chart->showRange(0, 0.06, 0, 15);
        int visible = 0;
        for (int stage = 0; stage <= 15; ++stage)
            for (const auto& b : chart->timeline()->stageBlocks(stage))
                visible += b.startSeconds * 1e3 <= 0.06 * 1e3;
        qInfo("zoomed: %d rectangles drawn, %d blocks in the window", chart->drawnRectangleCount(),
              visible);
        QVERIFY(visible > 16);
        QCOMPARE(chart->drawnRectangleCount(), visible);
        // Hover a known block: stage 0 runs microbatch 1's forward first, from 0 to 1 ms.
        const QString text = chart->blockTextAt(chart->blockCentre(0, 0));
        QVERIFY2(text.startsWith("Stage 0") && text.contains("Microbatch 1 of 512, forward pass") &&
                     text.contains("duration 1.00 ms"),
                 qPrintable(text));
        QVERIFY(chart->grab().save(shot("pipeline_zoomed")));
    }

    void largeDeviceMapMergesCells() {
        // 65,536 devices: t = 4, d = 256, 60 stages plus 2,096 idle devices.
        const auto plan = std::make_shared<Plan>(synthetic(60, 64, 4, 256));
        core::placement::assignDevices(*plan, 65536);
        ui::PlacementView view;
        view.resize(1400, 800);
        view.setPlan(plan, {}, 65536);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* map = view.deviceMap();
        QCOMPARE(map->cellCount(), 65536);
        // Cells smaller than a pixel merge into runs of one colour (bench_views times it).
        map->resetView();
        qInfo("device map of 65,536 devices: %d rectangles drawn", map->drawnRectangleCount());
        QVERIFY(map->drawnRectangleCount() > 60);
        QVERIFY(map->drawnRectangleCount() < map->cellCount() / 2);
        // Cells are smaller than a pixel here, so a point finds a device near the one asked for,
        // in the same row band: same stage, or idle like it.
        for (int id : {0, 1, 4, 1023, 40000, 61439, 61440, 65535}) {
            const int found = map->deviceAt(map->cellCentre(id));
            QVERIFY(found >= 0);
            QCOMPARE(plan->devices[std::size_t(found)].stage, plan->devices[std::size_t(id)].stage);
        }
        QVERIFY(map->grab().save(shot("device_map_large")));
    }

    // Issue 27, item 5: one of something is singular ("1 stages", "1 sample(s)" before).
    void countsTakeTheirNumber() {
        Plan one = synthetic(1, 1, 1, 1);
        one.microbatchSize = 1;
        const auto shared = std::make_shared<const Plan>(one);
        ui::PipelineView pipeline;
        pipeline.setPlan(shared);
        const QString header = pipeline.headerText();
        QVERIFY2(header.contains("× 1 stage · 1 microbatch of 1 sample per pipeline"),
                 qPrintable(header));
        QVERIFY2(!header.contains("stages") && !header.contains("(s)"), qPrintable(header));
        ui::PlacementView placement;
        placement.setPlan(shared, {}, 1);
        QVERIFY2(placement.headerText().contains("× 1 stage"), qPrintable(placement.headerText()));
        QVERIFY(!placement.headerText().contains("1 stages"));
        // Two of each are plural.
        Plan two = synthetic(2, 2, 1, 1);
        two.microbatchSize = 2;
        pipeline.setPlan(std::make_shared<const Plan>(two));
        QVERIFY2(pipeline.headerText().contains("× 2 stages · 2 microbatches of 2 samples"),
                 qPrintable(pipeline.headerText()));
    }

    void noPlanSaysWhy() {
        ui::PipelineView pipeline;
        pipeline.clearPlan("the model does not fit in HBM");
        QCOMPARE(pipeline.headerText(), QString("No plan: the model does not fit in HBM"));
        QCOMPARE(pipeline.chart()->blockCount(), 0);
        pipeline.setPlan(nullptr);
        QVERIFY(pipeline.headerText().startsWith("No plan: "));
        ui::PlacementView placement;
        placement.setPlan(nullptr, {}, 1024);
        QVERIFY(placement.headerText().startsWith("No plan: "));
        QCOMPARE(placement.memoryChart()->barCount(), 0);
        // A plan whose timeline cannot be built (no stages) is refused with core's message.
        pipeline.setPlan(std::make_shared<const Plan>());
        QVERIFY2(pipeline.headerText().contains("no stages"), qPrintable(pipeline.headerText()));
        pipeline.resize(900, 400);
        pipeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pipeline));
        QVERIFY(pipeline.grab().save(shot("pipeline_none")));
    }
};

QTEST_MAIN(TestPlacementViews)
#include "test_placement_views.moc"
