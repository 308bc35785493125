// The energy model (issue 27, item 12): prices from a chip's documented parameters checked by
// hand; each preset's MAC energy reproduces its datasheet TDP; a plan's arithmetic equals the
// model FLOPs counted independently from the graph (4/3 of them with full recomputation); and
// the acceptance run — GPT-3 175B on 1,024 A100s (t = 8, p = 16, d = 8, global batch 1,536,
// Adam, full recomputation) — draws 250–400 W per GPU and trains 300 B tokens within 10 % of
// the 34 days Narayanan et al. (2021) estimate.
#include <QtTest>

#include <cmath>

#include "core/energy/energy_estimate.h"
#include "core/energy/training_cost.h"
#include "core/hardware/area_model.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/placement/plan_activity.h"
#include "core/placement/strategy_evaluation.h"

namespace hw = tandem::core::hardware;
namespace en = tandem::core::energy;
namespace pl = tandem::core::placement;

namespace {

bool near(double a, double b, double relative) {
    return std::fabs(a - b) <= relative * std::fabs(b);
}

pl::ModelPlacementRequest gpt3OnA100(hw::Recompute recompute) {
    pl::ModelPlacementRequest r;
    r.model = tandem::core::model::zooModel("gpt3-175b").value();
    r.hardware = hw::PresetLibrary::preset("a100-like").value();
    r.training.globalBatch = 1536;
    r.training.recompute = recompute;
    r.training.optimizer = hw::Optimizer::Adam;
    return r;
}

}  // namespace

class TestEnergy : public QObject {
    Q_OBJECT

private slots:
    void ratesByHand() {
        hw::AcceleratorConfig a;  // the TPUv4-like defaults
        a.macEnergyPicojoules = 2.0;
        a.globalBufferEnergyPicojoulesPerByte = 1.5;
        a.hbmEnergyPicojoulesPerByte = 30.0;
        a.tensorCoreRows = 32;
        a.tensorCoreCols = 64;
        a.tensorCoreTileFolds = 2;
        a.bytesPerElement = 2;
        hw::ClusterConfig c;
        c.intraNodeLinkEnergyPicojoulesPerByte = 40;
        c.interNodeLinkEnergyPicojoulesPerByte = 90;
        const en::EnergyRates r = en::EnergyRates::of(a, c);
        // Operand streams of a 64 × 128 tile: 2 · (1/64 + 1/128) bytes per MAC.
        const double perMac = 2.0 + 2.0 * (1.0 / 64 + 1.0 / 128) * 1.5;
        QVERIFY(near(r.joulesPerGemmFlop, 0.5 * perMac * 1e-12, 1e-12));
        QVERIFY(near(r.joulesPerOtherFlop, 1.0e-12, 1e-12));
        QVERIFY(near(r.joulesPerHbmByte, 31.5e-12, 1e-12));
        QVERIFY(near(r.joulesPerIntraNodeByte, 40e-12, 1e-12));
        QVERIFY(near(r.joulesPerInterNodeByte, 90e-12, 1e-12));
        // No die area given: the area model's, times the static power density.
        const double area = hw::AreaModel(true).areaSquareMillimetres(a).value();
        QVERIFY(near(r.dieAreaSquareMillimetres, area, 1e-12));
        QVERIFY(near(r.staticWattsPerDevice, 0.07 * area, 1e-12));
        a.dieAreaSquareMillimetres = 500;
        QVERIFY(near(en::EnergyRates::of(a, c).staticWattsPerDevice, 35.0, 1e-12));
        // fp8 GEMMs: the MAC at the fp8 fraction, the operand streams unchanged.
        a.precision = hw::Precision::Fp8;
        a.fp8MacRatio = 2;
        a.fp8MacEnergyFraction = 0.25;
        const double fp8PerMac = 0.5 + 2.0 * (1.0 / 64 + 1.0 / 128) * 1.5;
        QVERIFY(near(en::EnergyRates::of(a, c).joulesPerGemmFlop, 0.5 * fp8PerMac * 1e-12, 1e-12));
    }

    void estimateSumsItsParts() {
        en::EnergyRates r;
        r.joulesPerGemmFlop = 1e-12;
        r.joulesPerOtherFlop = 2e-12;
        r.joulesPerHbmByte = 3e-12;
        r.joulesPerIntraNodeByte = 4e-12;
        r.joulesPerInterNodeByte = 5e-12;
        r.staticWattsPerDevice = 50;
        en::IterationActivity a;
        a.flops = 3e15;
        a.gemmFlops = 2e15;
        a.hbmBytes = 1e13;
        a.intraNodeLinkBytes = 1e12;
        a.interNodeLinkBytes = 2e11;
        a.devices = 8;
        a.seconds = 4;
        const en::EnergyEstimate e = en::estimateEnergy(a, r);
        QVERIFY(e.known);
        QVERIFY(near(e.computeJoules, 2000.0 + 2000.0, 1e-12));
        QVERIFY(near(e.memoryJoules, 30.0, 1e-12));
        QVERIFY(near(e.networkJoules, 4.0 + 1.0, 1e-12));
        QVERIFY(near(e.staticJoules, 50.0 * 8 * 4, 1e-12));
        QVERIFY(near(e.averagePowerWatts, e.totalJoules() / 32.0, 1e-12));
    }

    // Each preset's MAC energy is (TDP − static) / (sustained share × dense MAC rate): running
    // dense GEMMs at the rate it sustains, the modelled chip draws its datasheet TDP.
    void presetsDrawTheirTdpInDenseGemms() {
        const std::pair<const char*, double> tdp[] = {
            {"v100-32gb", 300},  {"a100-40gb", 400},   {"a100-80gb", 400},    {"h100-80gb", 700},
            {"h200-141gb", 700}, {"b200-192gb", 1000}, {"mi300x-192gb", 750}, {"tpuv4-like", 192}};
        for (const auto& [name, watts] : tdp) {
            const hw::HardwarePoint p = hw::PresetLibrary::preset(name).value();
            const auto& a = p.accelerator;
            const en::EnergyRates r = en::EnergyRates::of(a, p.cluster);
            const double macs = a.tensorCoreEfficiency * a.peakFlopsPerSecond() / 2;
            const double modelled = r.staticWattsPerDevice + macs * a.macEnergyPicojoules * 1e-12;
            QVERIFY2(near(modelled, watts, 0.01),
                     (std::string(name) + ": " + std::to_string(modelled) + " W").c_str());
            QVERIFY(r.staticWattsPerDevice > 0.05 * watts && r.staticWattsPerDevice < 0.3 * watts);
        }
    }

    void trainingCostByHand() {
        en::TrainingBudget budget;
        budget.tokens = 1e9;
        const auto c = en::trainingCost(budget, 1e6, 2.0, 64, 1e7);
        QVERIFY(c.ok());
        QCOMPARE(c->iterations, 1000.0);
        QVERIFY(near(c->days, 2000.0 / 86400, 1e-12));
        QVERIFY(near(c->deviceHours, 64 * 2000.0 / 3600, 1e-12));
        QVERIFY(near(c->energyMegawattHours, 1e10 / 3.6e9, 1e-12));
        QVERIFY(!c->hasCost);
        budget.pricePerDeviceHour = 2.5;
        QVERIFY(near(en::trainingCost(budget, 1e6, 2.0, 64, 1e7)->cost, 2.5 * 64 * 2000.0 / 3600,
                     1e-12));
        for (double bad : {0.0, -1.0, std::nan(""), double(INFINITY)}) {
            budget.tokens = bad;
            QVERIFY(!en::trainingCost(budget, 1e6, 2.0, 64, 1e7).ok());
        }
        budget.tokens = 1e9;
        QVERIFY(!en::trainingCost(budget, 0, 2.0, 64, 1e7).ok());
        QVERIFY(!en::trainingCost(budget, 1e6, 0, 64, 1e7).ok());
    }

    // The plan's executed GEMM FLOPs, summed from the estimator's operator costs, against
    // Megatron's model FLOPs counted from the graph (3 × forward GEMMs): equal without
    // recomputation, 4/3 of them with full recomputation (the forward runs twice).
    void arithmeticMatchesModelFlops() {
        for (const auto& [recompute, factor] :
             {std::pair{hw::Recompute::Off, 1.0}, std::pair{hw::Recompute::On, 4.0 / 3.0}}) {
            pl::ModelPlacementRequest r = gpt3OnA100(recompute);
            r.hardware.accelerator.hbmCapacityBytes *= 4;  // let every setting fit
            const auto e = pl::evaluateStrategy(r, pl::StrategySpec{16, 8, 8});
            QVERIFY2(e.ok() && e->result.plan, e.ok() ? e->result.reason.c_str() : "error");
            const pl::Plan& plan = *e->result.plan;
            QVERIFY(plan.modelFlopsPerIteration > 0);
            QVERIFY2(near(plan.activity.gemmFlops, factor * plan.modelFlopsPerIteration, 0.01),
                     (std::to_string(plan.activity.gemmFlops) + " vs " +
                      std::to_string(plan.modelFlopsPerIteration))
                         .c_str());
            QVERIFY(plan.activity.flops > plan.activity.gemmFlops);
            QVERIFY(plan.activity.hbmBytes > 0);
            QVERIFY(plan.activity.intraNodeLinkBytes > 0);  // t = 8 inside a DGX node
            QVERIFY(plan.activity.interNodeLinkBytes > 0);  // stages and replicas across nodes
            QCOMPARE(plan.activity.devices, std::int64_t(1024));
            QCOMPARE(plan.activity.seconds, plan.timePerBatchSeconds);
        }
    }

    void gpt3OnA100MatchesNarayanan() {
        const auto e =
            pl::evaluateStrategy(gpt3OnA100(hw::Recompute::On), pl::StrategySpec{16, 8, 8});
        QVERIFY(e.ok() && e->result.plan);
        const pl::Plan& plan = *e->result.plan;
        QVERIFY(plan.energy.known);
        const double watts = plan.energy.averagePowerWatts;
        QVERIFY2(watts > 250 && watts < 400, std::to_string(watts).c_str());
        QVERIFY(plan.energy.computeJoules > plan.energy.staticJoules);
        en::TrainingBudget budget;
        budget.tokens = 300e9;
        const auto cost = pl::planTrainingCost(plan, budget, 2048);
        QVERIFY(cost.ok());
        QVERIFY2(near(cost->days, 34.0, 0.10), std::to_string(cost->days).c_str());
        QVERIFY(near(cost->deviceHours, cost->days * 24 * 1024, 1e-9));
        QVERIFY(near(cost->energyMegawattHours,
                     cost->iterations * plan.energy.totalJoules() / 3.6e9, 1e-9));
    }
};

QTEST_APPLESS_MAIN(TestEnergy)
#include "test_energy.moc"
