// ComparisonView: the attribution chain with step and total factors computed here from the
// throughputs fed in, each step naming the one thing it changes (a placement gain is never
// measured against a baseline with other HBM), the explanation's verdict on whether they compound,
// unavailable baselines showing core's reason, the factor base falling back when the fixed
// strategy does not fit on the reference chip, and the single-point mode over a real
// placeModel() answer (its plan against its fixed strategy). Screenshots go to a temporary folder
// (tests/ui/test_output_dir.h).
#include <QtTest>

#include "core/common/units.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/breakdown_chart.h"
#include "ui/charts/design_space_chart.h"
#include "ui/jobs/search_job.h"
#include "ui/panels/comparison_view.h"

using namespace tandem;
using core::search::BaselineOutcome;
using core::search::SearchBaselines;
using tandem::ui::ComparisonView;

namespace {
BaselineOutcome outcome(double throughput, std::int64_t tensorCores, double area) {
    BaselineOutcome o;
    o.available = true;
    o.throughputSamplesPerSecond = throughput;
    o.point.accelerator.numTensorCores = tensorCores;
    o.point.areaSquareMillimetres = area;
    o.point.microbatchSize = 2;
    auto plan = std::make_shared<core::placement::Plan>();
    plan->tensorParallel = 8;
    plan->dataParallel = 16;
    plan->stages.resize(8);
    o.plan = plan;
    return o;
}

BaselineOutcome missing(const char* why) {
    BaselineOutcome o;
    o.message = why;
    return o;
}

QString factor(double a, double b) {
    return QString::fromUtf8("×%1").arg(a / b, 0, 'f', 2);
}

constexpr std::int64_t kGiB = std::int64_t(1) << 30;

// The case: the reference chip's best fixed point has 32 GiB and recompute on, its best
// placed point 80 GiB and recompute off (×1.42 over the fixed one, but at the same options the
// placement alone gives ×1.07).
SearchBaselines fourBaselines() {
    SearchBaselines b;
    b.referenceFixed = outcome(100, 8, 278.83);
    b.referenceFixed.point.accelerator.hbmCapacityBytes = 32 * kGiB;
    b.referenceFixed.point.recompute = core::hardware::Recompute::On;
    b.referencePlaced = outcome(142, 8, 278.83);
    b.referencePlaced.point.accelerator.hbmCapacityBytes = 80 * kGiB;
    b.searchedFixed = outcome(118, 16, 270.5);
    b.joint = outcome(205, 32, 276.1);
    b.joint.point.accelerator.hbmCapacityBytes = 80 * kGiB;
    b.placementOnly = outcome(107, 8, 278.83);
    b.chipOnly = outcome(112, 16, 270.5);
    b.chipAndPlacement = outcome(150, 32, 276.1);
    b.sameHbm = outcome(170, 32, 276.1);
    for (BaselineOutcome* o : {&b.placementOnly, &b.chipOnly, &b.chipAndPlacement, &b.sameHbm})
        o->point.accelerator.hbmCapacityBytes = 32 * kGiB;
    for (BaselineOutcome* o : {&b.placementOnly, &b.chipOnly, &b.chipAndPlacement})
        o->point.recompute = core::hardware::Recompute::On;
    b.referenceInSpace = true;
    return b;
}
}  // namespace

class TestComparisonView : public QObject {
    Q_OBJECT
private slots:
    void fourBaselinesWithFactors();
    void unavailableBaselinesShowTheirReason();
    void stepsNameEverythingTheyChange();
    void singlePointAgainstFixedStrategy();
    void realSearchEndToEnd();
};

void TestComparisonView::fourBaselinesWithFactors() {
    ComparisonView view;
    const auto b = fourBaselines();
    view.setBaselines(b);
    QCOMPARE(view.columnCount(), 6);
    QVERIFY(view.columnTitle(0).contains("fixed strategy"));
    QVERIFY(view.columnTitle(4).contains("joint"));
    // Chain: reference + fixed → placement → chip → microbatch/recompute → HBM; then the chip
    // alone with the fixed strategy, built on the first column.
    const double t[6] = {100, 107, 150, 170, 205, 112};
    const int from[6] = {-1, 0, 1, 2, 3, 0};
    for (int c = 0; c < 6; ++c) {
        QCOMPARE(view.cellText(ComparisonView::Factor, c), factor(t[c], t[0]));
        if (from[c] >= 0)
            QCOMPARE(view.cellText(ComparisonView::Step, c), factor(t[c], t[from[c]]));
        QVERIFY(view.cellText(ComparisonView::Throughput, c).endsWith("samples/s"));
        QVERIFY(view.cellText(ComparisonView::Area, c).endsWith(QString::fromUtf8("mm²")));
        QCOMPARE(view.cellText(ComparisonView::Plan, c),
                 QString::fromUtf8("t = 8 · d = 16 · 8 stages"));
        QCOMPARE(view.cellText(ComparisonView::Microbatch, c), QString("2 samples"));
    }
    // Each step names the one thing it changes and what it holds.
    QCOMPARE(view.cellText(ComparisonView::Changed, 1),
             QString("placement (same chip, HBM, microbatch, recompute)"));
    QVERIFY(view.cellText(ComparisonView::Changed, 2).startsWith("chip (same options)"));
    QVERIFY(view.cellText(ComparisonView::Changed, 3).contains("(same HBM)"));
    QVERIFY(view.cellText(ComparisonView::Changed, 4).contains("HBM capacity"));
    QCOMPARE(view.cellText(ComparisonView::Hbm, 1), QString("32.0 GiB"));
    QCOMPARE(view.cellText(ComparisonView::Throughput, 1), QString("107 samples/s"));
    QVERIFY(view.cellText(ComparisonView::TensorCores, 4).startsWith(QString::fromUtf8("32 × ")));
    const QString text = view.explanation();
    // The placement's factor at the same HBM, microbatch and recompute — not 142/100, which
    // mixed the placement with 80 GiB of HBM and recompute off.
    QVERIFY2(text.contains("placement on the same chip and options: <b>" + factor(107, 100)),
             qPrintable(text));
    QVERIFY2(!text.contains(factor(142, 100)), qPrintable(text));
    QVERIFY(text.contains("32.0 GiB HBM, microbatch 2, recompute on"));
    QVERIFY(text.contains(factor(150, 107)) && text.contains(factor(170, 150)) &&
            text.contains(factor(205, 170)) && text.contains(factor(205, 100)));
    // 1.07 · 1.12 = 1.20 < 1.50 (chip and placement together at the same options): compound.
    QVERIFY2(text.contains(factor(107.0 * 112.0, 100.0 * 100.0)) && text.contains("reinforce"),
             qPrintable(text));
    QVERIFY(!text.contains("outside"));
    QVERIFY(!text.contains("Partial"));
    // A cancelled search: partial, and the reference chip not reached is not "outside".
    SearchBaselines partial = fourBaselines();
    partial.partial = true;
    view.setBaselines(partial);
    QVERIFY2(view.explanation().contains("Partial results: the search was cancelled"),
             qPrintable(view.explanation()));
    QVERIFY(!view.explanation().contains("outside"));
    QVERIFY2(view.heading().contains("partial"), qPrintable(view.heading()));
    // Issue 27, item 4: its best is the best so far, not an optimum, in every column title.
    for (int c = 0; c < view.columnCount(); ++c)
        QVERIFY2(!view.columnTitle(c).contains("optimum"), qPrintable(view.columnTitle(c)));
    bool bestSoFar = false;
    for (int c = 0; c < view.columnCount(); ++c)
        bestSoFar = bestSoFar || view.columnTitle(c).contains("best so far");
    QVERIFY(bestSoFar);
    view.setBaselines(b);
    bool optimum = false;
    for (int c = 0; c < view.columnCount(); ++c)
        optimum = optimum || view.columnTitle(c).contains("joint optimum");
    QVERIFY(optimum);

    // Gains that overlap: chip and placement together below the product.
    auto overlap = b;
    overlap.chipAndPlacement.throughputSamplesPerSecond = 110;
    view.setBaselines(overlap);
    QVERIFY2(view.explanation().contains("less than"), qPrintable(view.explanation()));
    view.resize(1000, 560);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setBaselines(b);
    QTest::qWait(30);  // let the layout follow the new text before grabbing
    QVERIFY(view.grab().save(tandem::test::outputPath("comparison_search.png")));
}

// Issue 27, item 2: a step whose best point also moved the chip (gpt2-xl: global buffer 8 → 32
// MiB at "+ microbatch, recompute") or flipped recompute (at "+ HBM capacity") says so.
void TestComparisonView::stepsNameEverythingTheyChange() {
    ComparisonView view;
    SearchBaselines b = fourBaselines();
    b.sameHbm.point.accelerator.globalBufferBytes *= 4;  // another chip
    b.sameHbm.point.microbatchSize = 4;
    b.joint.point.accelerator.globalBufferBytes = b.sameHbm.point.accelerator.globalBufferBytes;
    b.joint.point.microbatchSize = 4;
    b.joint.point.recompute = core::hardware::Recompute::On;  // off at sameHbm
    view.setBaselines(b);
    QCOMPARE(view.columnTitle(3), QString("+ microbatch,\nrecompute,\nchip"));
    QCOMPARE(view.cellText(ComparisonView::Changed, 3),
             QString("chip, microbatch, recompute (same HBM)"));
    QCOMPARE(view.columnTitle(4), QString("+ HBM capacity,\nrecompute\n= joint optimum"));
    QCOMPARE(view.cellText(ComparisonView::Changed, 4),
             QString("HBM capacity, recompute (every choice free)"));
    // The usual case: the headers name what the step frees, the row what it changed.
    view.setBaselines(fourBaselines());
    QCOMPARE(view.columnTitle(3), QString("+ microbatch,\nrecompute"));
    QCOMPARE(view.cellText(ComparisonView::Changed, 3), QString("recompute (same HBM)"));
    QCOMPARE(view.columnTitle(4), QString("+ HBM capacity\n= joint optimum"));
}

void TestComparisonView::unavailableBaselinesShowTheirReason() {
    ComparisonView view;
    auto b = fourBaselines();
    b.chipOnly = missing("p · t · d = 2048 exceeds the 1024 devices");
    b.referenceInSpace = false;
    view.setBaselines(b);
    QCOMPARE(view.cellText(ComparisonView::Throughput, 5), QString("not available"));
    QVERIFY(view.cellText(ComparisonView::Note, 5).contains("exceeds the 1024 devices"));
    QCOMPARE(view.cellText(ComparisonView::Factor, 5), QString::fromUtf8("—"));
    QCOMPARE(view.cellText(ComparisonView::Factor, 4), factor(205, 100));
    QVERIFY(view.explanation().contains("exceeds the 1024 devices"));
    QVERIFY(view.explanation().contains("outside the searched space"));
    view.resize(1000, 560);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTest::qWait(30);
    QVERIFY(view.grab().save(tandem::test::outputPath("comparison_unavailable.png")));

    // No fixed strategy on the reference chip: factors fall back to reference + placement.
    b = fourBaselines();
    b.referenceFixed = missing("stage 0 needs 41.2 GiB of 32.0 GiB HBM");
    view.setBaselines(b);
    QCOMPARE(view.cellText(ComparisonView::Factor, 1), factor(142, 142));
    QCOMPARE(view.cellText(ComparisonView::Factor, 3), factor(205, 142));
    QVERIFY(view.explanation().contains("41.2 GiB"));
    QVERIFY(view.explanation().contains(factor(205, 142)));

    // Nothing fits anywhere.
    SearchBaselines none;
    none.referenceFixed = none.referencePlaced = none.searchedFixed = none.joint =
        missing("no plan fits in HBM");
    view.setBaselines(none);
    for (int c = 0; c < 4; ++c)
        QCOMPARE(view.cellText(ComparisonView::Throughput, c), QString("not available"));
    QVERIFY(view.explanation().contains("No point of the search fits"));
    view.clear();
    QCOMPARE(view.columnCount(), 0);
}

void TestComparisonView::singlePointAgainstFixedStrategy() {
    core::placement::ModelPlacementRequest r;
    r.model = *core::model::zooModel("opt-350m");
    const auto hardware = core::hardware::PresetLibrary::resolveHardware("tpuv4-like");
    QVERIFY(hardware);
    r.hardware = *hardware;
    const auto placement = core::placement::placeModel(r);
    QVERIFY2(placement, placement ? "" : placement.message().c_str());
    QVERIFY(placement->result.plan && placement->baseline && placement->baseline->fits);
    const double placed = placement->result.plan->throughputSamplesPerSecond;
    const double fixed = placement->baseline->plan->throughputSamplesPerSecond;

    ComparisonView view;
    view.setSinglePoint(*placement, r.hardware.accelerator);
    QCOMPARE(view.columnCount(), 2);
    QCOMPARE(view.cellText(ComparisonView::Factor, 0), QString::fromUtf8("×1.00"));
    QCOMPARE(view.cellText(ComparisonView::Factor, 1), factor(placed, fixed));
    QCOMPARE(view.cellText(ComparisonView::Area, 1), QString::fromUtf8("278.83 mm²"));
    const auto& p = *placement->result.plan;
    QCOMPARE(view.cellText(ComparisonView::Plan, 1),
             QString::fromUtf8("t = %1 · d = %2 · %3 stage%4")
                 .arg(p.tensorParallel)
                 .arg(p.dataParallel)
                 .arg(p.stages.size())
                 .arg(p.stages.size() == 1 ? "" : "s"));
    QVERIFY2(view.explanation().contains(factor(placed, fixed)), qPrintable(view.explanation()));
    QVERIFY(view.explanation().contains(
        QString::fromStdString(core::formatSeconds(placement->result.plan->timePerBatchSeconds))));
    QVERIFY(!view.explanation().contains(QStringLiteral("%1")));
    // Where the time goes: one stacked bar per column, parts = core's breakdown, summing to the
    // time per batch, MFU at the end.
    const auto* bars = view.breakdownChart();
    QCOMPARE(bars->rowCount(), 2);
    QCOMPARE(bars->partNames().size(), tandem::ui::BreakdownChart::kPartCount);
    const core::placement::Plan* rowPlans[2] = {&*placement->baseline->plan, &p};
    for (int row = 0; row < 2; ++row) {
        const auto& b = rowPlans[row]->breakdown;
        const double expected[] = {
            b.computeSeconds,     b.recomputeSeconds,      b.tensorParallelCommSeconds,
            b.pipelineP2pSeconds, b.pipelineBubbleSeconds, b.dataParallelSyncSeconds,
            b.optimizerSeconds};
        double sum = 0;
        for (int part = 0; part < tandem::ui::BreakdownChart::kPartCount; ++part) {
            QCOMPARE(bars->partSeconds(row, part), expected[part]);
            sum += bars->partSeconds(row, part);
        }
        QVERIFY(std::abs(sum - rowPlans[row]->timePerBatchSeconds) <=
                1e-9 * rowPlans[row]->timePerBatchSeconds);
        if (rowPlans[row]->mfu > 0)
            QVERIFY2(bars->rowNote(row).contains("MFU"), qPrintable(bars->rowNote(row)));
    }
    QVERIFY(p.mfu > 0);
    QVERIFY(!view.cellText(ComparisonView::Mfu, 1).isEmpty());
    qInfo("single point: placed %.2f samples/s, fixed %.2f samples/s", placed, fixed);
    view.resize(900, 520);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTest::qWait(30);
    QVERIFY(view.grab().save(tandem::test::outputPath("comparison_single.png")));

    // Without a fitting fixed strategy the reason is shown.
    auto noBaseline = *placement;
    noBaseline.baseline->fits = false;
    noBaseline.baseline->plan.reset();
    noBaseline.baseline->reason = "stage 3 needs 40.0 GiB of 32.0 GiB";
    view.setSinglePoint(noBaseline, r.hardware.accelerator);
    QCOMPARE(view.cellText(ComparisonView::Throughput, 0), QString("not available"));
    QVERIFY(view.explanation().contains("40.0 GiB"));

    // V, the ZeRO stage and sequence parallelism left to the placement (issue 26): the
    // explanation names the choice.
    r.training.interleave = core::hardware::kInterleaveChosen;
    r.training.zero = core::hardware::kZeroChosen;
    r.training.sequenceParallel = core::hardware::SequenceParallel::Auto;
    const auto chosen = core::placement::placeModel(r);
    QVERIFY2(chosen, chosen ? "" : chosen.message().c_str());
    QVERIFY(chosen->choice && chosen->result.plan);
    view.setSinglePoint(*chosen, r.hardware.accelerator);
    const auto& c = *chosen->result.plan;
    const QString named = chosen->choice->strategy
                              ? QString::fromUtf8("V = %1, ZeRO %2").arg(c.interleave).arg(c.zero)
                              : QString::fromUtf8("V = 1 and ZeRO 0");
    QVERIFY2(view.explanation().contains("The search chose the interleaving V and the ZeRO stage"),
             qPrintable(view.explanation()));
    QVERIFY2(view.explanation().contains(named), qPrintable(view.explanation()));
    QVERIFY2(view.explanation().contains(QString::fromUtf8("<b>sequence parallelism %1</b>")
                                             .arg(c.sequenceParallel ? "on" : "off")),
             qPrintable(view.explanation()));
}

// A small real search through SearchJob, streamed into the design-space chart, then its
// baselines into the comparison view: the numbers shown must be the ones core produced.
void TestComparisonView::realSearchEndToEnd() {
    constexpr std::int64_t kMiB = std::int64_t(1) << 20, kGiB = std::int64_t(1) << 30;
    core::search::SearchRequest request;
    request.models = {*core::model::zooModel("opt-350m")};
    auto& space = request.space;  // PHAZE's base: the TPUv4-like chip is the reference
    space.numTensorCores = {1, 4, 8};
    space.tensorCoreRows = {32, 128};
    space.tensorCoreCols = {128};
    space.numVectorCores = {1, 2, 4};
    space.globalBufferBytes = {16 * kMiB, 128 * kMiB};
    space.microbatchSizes = {1, 4};
    space.hbmCapacityBytes = {32 * kGiB};
    space.recompute = {core::hardware::Recompute::Off, core::hardware::Recompute::On};
    request.threads = 2;

    tandem::ui::SearchJob job;
    tandem::ui::DesignSpaceChart chart;
    chart.setReferencePoint(space.base.accelerator, QStringLiteral("TPUv4-like chip"));
    qint64 streamed = 0;
    std::shared_ptr<const core::search::SearchResults> results;
    std::shared_ptr<const core::search::SearchBaselines> baselines;
    QString error;
    connect(&job, &tandem::ui::SearchJob::pointsReady, &chart,
            [&](const std::vector<core::search::EvaluatedPoint>& points) {
                streamed += qint64(points.size());
                chart.addPoints(points);
            });
    connect(&job, &tandem::ui::SearchJob::finished, this, [&](auto r, auto b) {
        results = r;
        baselines = b;
    });
    connect(&job, &tandem::ui::SearchJob::failed, this, [&](const QString& m) { error = m; });
    QString whyNot;
    QVERIFY2(job.start(request, &whyNot), qPrintable(whyNot));
    QTRY_VERIFY_WITH_TIMEOUT(results || !error.isEmpty(), 280000);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTRY_COMPARE(streamed, qint64(results->points().size()));
    QCOMPARE(chart.pointCount(), qint64(results->points().size()));
    QVERIFY(chart.pointCount() > 20);
    chart.setResults(results);
    QCOMPARE(std::size_t(chart.paretoLine().size()), results->paretoByArea().size());
    QVERIFY(results->best());
    QCOMPARE(*chart.bestPointIndex(), results->points()[*results->best()].point.index);

    QVERIFY2(baselines, qPrintable(job.baselineMessage()));
    QVERIFY(baselines->referenceInSpace);
    QVERIFY(baselines->referencePlaced.available && baselines->joint.available);
    // The chart's reference mark is the reference chip's best point: the referencePlaced baseline.
    const auto ref = chart.referencePointIndex();
    QVERIFY(ref);
    const auto& refPoint = *std::find_if(results->points().begin(), results->points().end(),
                                         [&](auto& p) { return p.point.index == *ref; });
    QCOMPARE(refPoint.throughputSamplesPerSecond,
             baselines->referencePlaced.throughputSamplesPerSecond);

    ComparisonView view;
    view.setBaselines(*baselines);
    const double rf = baselines->referenceFixed.throughputSamplesPerSecond;
    const double base = baselines->referenceFixed.available
                            ? rf
                            : baselines->referencePlaced.throughputSamplesPerSecond;
    const int jointColumn = baselines->referenceFixed.available ? 4 : 3;
    QCOMPARE(view.cellText(ComparisonView::Factor, jointColumn),
             factor(baselines->joint.throughputSamplesPerSecond, base));
    QCOMPARE(
        view.cellText(ComparisonView::Area, jointColumn),
        QString::fromUtf8("%1 mm²").arg(baselines->joint.point.areaSquareMillimetres, 0, 'f', 2));
    qInfo("real search: %lld points, front %zu, joint %.1f samples/s, reference+fixed %s",
          static_cast<long long>(chart.pointCount()), results->paretoByArea().size(),
          baselines->joint.throughputSamplesPerSecond,
          baselines->referenceFixed.available ? "available" : "not available");
    chart.resize(1100, 680);
    chart.show();
    view.resize(1000, 560);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTest::qWait(30);
    chart.replotNow();
    QVERIFY(chart.grab().save(tandem::test::outputPath("design_space_real.png")));
    QVERIFY(view.grab().save(tandem::test::outputPath("comparison_real.png")));
}

QTEST_MAIN(TestComparisonView)
#include "test_comparison_view.moc"
