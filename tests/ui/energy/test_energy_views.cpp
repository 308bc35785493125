// Issue 27 item 12 in the app. Oracles: the Summary's days, device-hours, MWh and cost worked out
// by hand from a plan's batch, time, devices and joules; the design space's plotted values as each
// point's objective in the objective's display unit; the objective chooser read back.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QtTest>

#include "core/common/units.h"
#include "core/estimate/model_estimate.h"
#include "core/estimate/operator_estimator.h"
#include "core/model/model_zoo.h"
#include "core/search/search_objective.h"
#include "tests/support/test_presets.h"
#include "tests/ui/design_space/synthetic_design_points.h"
#include "tests/ui/placement_views/synthetic_plan.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/design_space_chart.h"
#include "ui/editors/search_run_options.h"
#include "ui/panels/energy_budget_box.h"
#include "ui/panels/summary_panel.h"
#include "ui/widgets/elided_label.h"

using namespace tandem;
using core::search::SearchObjective;

namespace {
core::placement::Plan pricedPlan() {
    core::placement::Plan plan = test::syntheticPlan(4, 8, 2, 3);  // 24 devices
    plan.globalBatch = 96;
    plan.timePerBatchSeconds = 2.5;
    plan.throughputSamplesPerSecond = 96 / 2.5;
    plan.energy.known = true;
    plan.energy.computeJoules = 6000;
    plan.energy.memoryJoules = 2000;
    plan.energy.networkJoules = 1000;
    plan.energy.staticJoules = 3000;
    plan.energy.averagePowerWatts = 12000.0 / (24 * 2.5);
    return plan;
}
}  // namespace

class TestEnergyViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::isolateUserFolders(); }

    void summaryPricesThePlan() {
        ui::EnergyBudgetBox box;
        box.resize(700, 220);
        const core::placement::Plan plan = pricedPlan();
        box.setTokensPerSample(1000);
        box.showPlan(&plan);
        box.setBudget(48e6, 3.0);  // 48 M tokens = 500 iterations of 96 × 1,000 tokens
        QVERIFY(box.energyText().contains("12.0 kJ per iteration"));
        QVERIFY(box.energyText().contains("compute 50 %"));
        QVERIFY(box.energyText().contains("200 W per device on average, 4.80 kW for the 24"));
        // 500 iterations × 2.5 s = 1,250 s: 0.0145 days, 8.33 device-hours, 6 MJ = 1.67e-3 MWh.
        const double trainingDays = 500 * 2.5 / 86400;  // modelled, no clock read
        const QString training = box.trainingText();
        QVERIFY2(training.contains(QString::fromStdString(core::formatSignificant(trainingDays)) +
                                   " days"),
                 qPrintable(training));
        QVERIFY(training.contains(" 8 device-hours"));  // 8.33 shown as a count
        QVERIFY(training.contains(
            QString::fromStdString(core::formatSignificant(500 * 12000 / 3.6e9)) + " MWh"));
        QVERIFY(training.contains("cost 25"));  // 8.33 × 3 = 25
        QVERIFY(training.contains("(500 iterations)"));
        QVERIFY(box.grab().save(test::outputPath("energy_budget.png")));
        // A user edit re-prices at once and says so; no price: no cost.
        QSignalSpy edited(&box, &ui::EnergyBudgetBox::budgetChanged);
        box.findChild<QDoubleSpinBox*>("budgetPrice")->setValue(0);
        QCOMPARE(edited.count(), 1);
        QVERIFY(!box.trainingText().contains("cost"));
        // A plan that records no batch cannot be priced, and says why.
        core::placement::Plan unknown = plan;
        unknown.globalBatch = 0;
        box.showPlan(&unknown);
        QVERIFY(box.trainingText().startsWith("not known"));
        box.showPlan(nullptr);
        QCOMPARE(box.trainingText(), QStringLiteral("—"));
    }

    void summaryExplainsAHighMfu() {
        // Above 70 % MFU the Summary says why under the figure; below it, nothing more.
        ui::SummaryPanel panel;
        core::placement::Plan plan = pricedPlan();
        plan.mfu = 0.785;
        plan.breakdown.computeSeconds = 2.4;
        plan.breakdown.pipelineBubbleSeconds = 0.1;
        panel.showPlan(&plan);
        QVERIFY2(panel.planText().contains("model FLOPs utilisation 78.5 %\nMFU 78.5 % is above "
                                           "the 46–58 %"),
                 qPrintable(panel.planText()));
        QVERIFY2(panel.planText().contains("compute-bound: its layers' work is 96.0 % of the time"),
                 qPrintable(panel.planText()));
        plan.mfu = 0.45;
        panel.showPlan(&plan);
        QVERIFY(panel.planText().endsWith("model FLOPs utilisation 45.0 %"));
    }

    void summaryPeakNamesTheFp8Rate() {
        // The peak row says what MFU is counted against and, on an fp8 chip, what its GEMMs run at.
        auto hw = test::presetOrDie("h100-80gb");
        auto source = core::model::zooModel("gpt2-xl");
        QVERIFY(source);
        auto built = (*source)->build({});
        QVERIFY(built);
        const auto peakText = [&](const core::hardware::HardwarePoint& point) {
            auto estimator =
                core::estimate::OperatorEstimator::create(point.accelerator, point.cluster);
            ui::SummaryPanel panel;
            panel.showEvaluation(*built, point, core::estimate::estimateModel(*built, *estimator));
            for (const ui::ElidedLabel* label : panel.findChildren<ui::ElidedLabel*>())
                if (label->fullText().contains("FLOP/s")) return label->fullText();
            return QString();
        };
        QCOMPARE(peakText(hw), QString("989 TFLOP/s dense fp16/bf16"));
        hw.accelerator.precision = core::hardware::Precision::Fp8;
        QCOMPARE(peakText(hw), QString("989 TFLOP/s dense fp16/bf16 · fp8 GEMMs 1.98 PFLOP/s"));
    }

    void objectiveChooserRoundTrips() {
        ui::SearchRunOptions options;
        auto* combo = options.findChild<QComboBox*>("objective");
        QVERIFY(combo);
        QCOMPARE(combo->count(), int(core::search::kSearchObjectives.size()));
        QCOMPARE(int(options.objective()), int(SearchObjective::Throughput));
        QSignalSpy changed(&options, &ui::SearchRunOptions::changed);
        options.setObjective(SearchObjective::Cost);  // a setter: no signal
        QCOMPARE(changed.count(), 0);
        QCOMPARE(int(options.objective()), int(SearchObjective::Cost));
        combo->setCurrentIndex(combo->findData(int(SearchObjective::ThroughputPerWatt)));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(int(options.objective()), int(SearchObjective::ThroughputPerWatt));
        QVERIFY(combo->currentText().contains("samples/kJ"));
        QVERIFY(!combo->itemData(0, Qt::ToolTipRole).toString().isEmpty());
    }

    void designSpacePlotsTheObjective() {
        ui::DesignSpaceChart chart;
        chart.resize(900, 600);
        chart.setObjective(SearchObjective::ThroughputPerWatt);
        QCOMPARE(chart.yAxisLabel(), QStringLiteral("Throughput per watt (samples/kJ)"));
        std::vector<core::search::EvaluatedPoint> points;
        for (std::int64_t i = 0; i < 200; ++i) {
            auto p = test::syntheticDesignPoint(i);
            if (p.feasible()) {
                p.planShape = {1, 4, 2, 1.0, 1, 0, false};
                p.planShape.devicesUsed = 8;
                p.planShape.joulesPerIteration = 1e4 * double(1 + i % 5);
                p.planShape.averagePowerWatts = p.planShape.joulesPerIteration / 8;
                p.objective = 64.0 / p.planShape.joulesPerIteration;  // samples per joule
            }
            points.push_back(p);
        }
        chart.addPoints(points);
        // The best is the highest samples per joule, shown in samples/kJ.
        const core::search::EvaluatedPoint* best = nullptr;
        for (const auto& p : points)
            if (p.feasible() && (!best || p.objective > best->objective)) best = &p;
        QVERIFY(best);
        QVERIFY2(chart.titleText().contains(QString::fromStdString(core::search::formatObjective(
                     SearchObjective::ThroughputPerWatt, best->objective))),
                 qPrintable(chart.titleText()));
        const QString tip = chart.tooltipFor(best->point.index);
        QVERIFY2(tip.contains("throughput per watt"), qPrintable(tip));
        QVERIFY(tip.contains("samples/kJ"));
        QVERIFY(tip.contains("per device on 8 devices"));
        QVERIFY(chart.grab().save(test::outputPath("design_space_per_watt.png")));
        // Throughput again: the axis says so.
        chart.clear();
        chart.setObjective(SearchObjective::Throughput);
        QCOMPARE(chart.yAxisLabel(), QStringLiteral("Throughput (samples/s)"));
    }
};

QTEST_MAIN(TestEnergyViews)
#include "test_energy_views.moc"
