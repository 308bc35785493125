// The placement choosing the interleaving V and the ZeRO stage (issue 26, item 6;
// core/placement/strategy_choice.h). Oracle: brute force over every strategy P,T,D of a small
// cluster with every V and ZeRO stage, each evaluated on its own by evaluateStrategy()
// (`tandem-cli place --strategy P,T,D --interleave V --zero Z`), against the partition solver's
// plan with V = 1 and ZeRO 0: the choice must be the fastest of all of them, exactly.
#include <QtTest>

#include <cmath>
#include <limits>
#include <string>

#include "core/model/model_zoo.h"
#include "core/placement/fixed_strategy.h"
#include "core/placement/strategy_choice.h"
#include "core/placement/strategy_evaluation.h"
#include "tests/core/placement/small_gpt_request.h"

namespace hw = tandem::core::hardware;
using namespace tandem::core::placement;

namespace {

ModelPlacementRequest request() {
    return tandem::test::smallGptRequest();
}

struct Best {
    double seconds = std::numeric_limits<double>::infinity();
    std::int64_t interleave = 0, zero = 0;
};

// The fastest strategy of equal stages, by brute force: every P dividing the 8 layers, every
// width, every D the 8 devices allow, every V and ZeRO stage (or the given ones), each
// evaluated alone; strategies that cannot be formed are errors and skipped.
Best bruteForce(const ModelPlacementRequest& base, std::int64_t onlyP = 0, std::int64_t onlyT = 0,
                std::int64_t onlyD = 0) {
    Best best;
    const bool anyV = base.training.interleave == hw::kInterleaveChosen;
    const bool anyZ = base.training.zero == hw::kZeroChosen;
    for (std::int64_t P : {1, 2, 4, 8})
        for (std::int64_t T : {1, 2, 4, 8})
            for (std::int64_t D = 1; P * T * D <= 8; ++D)
                for (std::int64_t V = 1; V <= 8; ++V)
                    for (std::int64_t Z = 0; Z <= 3; ++Z) {
                        if ((onlyP && P != onlyP) || (onlyT && T != onlyT) || (onlyD && D != onlyD))
                            continue;
                        if ((!anyV && V != base.training.interleave) ||
                            (!anyZ && Z != base.training.zero))
                            continue;
                        ModelPlacementRequest r = base;
                        r.training.interleave = V;
                        r.training.zero = Z;
                        const auto e = evaluateStrategy(r, StrategySpec{P, T, D});
                        if (!e.ok() || !e->result.fits || !e->result.plan) continue;
                        if (e->result.plan->timePerBatchSeconds < best.seconds)
                            best = {e->result.plan->timePerBatchSeconds, V, Z};
                    }
    return best;
}

double solverSeconds(ModelPlacementRequest r) {
    r.training.interleave = 1;
    r.training.zero = 0;
    const auto placed = placeModel(r);
    if (!placed.ok()) qFatal("placeModel: %s", placed.message().c_str());
    return placed->result.plan ? placed->result.plan->timePerBatchSeconds
                               : std::numeric_limits<double>::infinity();
}

}  // namespace

class TestStrategyChoice : public QObject {
    Q_OBJECT

private slots:
    void choiceIsTheFastestOfAll_data() {
        QTest::addColumn<qint64>("interleave");
        QTest::addColumn<qint64>("zero");
        QTest::addColumn<double>("hbmGiB");
        QTest::newRow("V and ZeRO chosen") << qint64(0) << qint64(-1) << 80.0;
        QTest::newRow("V chosen") << qint64(0) << qint64(0) << 80.0;
        QTest::newRow("ZeRO chosen") << qint64(1) << qint64(-1) << 80.0;
        QTest::newRow("V = 2 given") << qint64(2) << qint64(0) << 80.0;
        // Little HBM: sharding and narrow stages decide what fits.
        QTest::newRow("ZeRO chosen, tight HBM") << qint64(1) << qint64(-1) << 2.0;
        // Many candidates cannot hold their weights and optimizer state: the choice skips them
        // unpriced (CostModel::stateExceedsCapacity) and must still find what pricing all finds.
        QTest::newRow("V and ZeRO chosen, tight HBM") << qint64(0) << qint64(-1) << 2.0;
        QTest::newRow("V and ZeRO chosen, tighter HBM") << qint64(0) << qint64(-1) << 1.0;
    }

    void choiceIsTheFastestOfAll() {
        QFETCH(qint64, interleave);
        QFETCH(qint64, zero);
        QFETCH(double, hbmGiB);
        ModelPlacementRequest r = request();
        r.training.interleave = interleave;
        r.training.zero = zero;
        r.hardware.accelerator.hbmCapacityBytes = std::int64_t(hbmGiB * (1 << 30));
        const auto placed = placeModel(r);
        QVERIFY2(placed.ok(), placed.ok() ? "" : placed.message().c_str());
        const Best brute = bruteForce(r);
        const bool solverPrices = interleave <= 1 && zero <= 0;
        const double solver = solverPrices ? solverSeconds(r) : 1e300;
        const double expected = std::min(solver, brute.seconds);
        QVERIFY2(std::isfinite(expected), "the case must have a feasible plan");
        QVERIFY(placed->result.plan.has_value());
        const Plan& plan = *placed->result.plan;
        QCOMPARE(plan.timePerBatchSeconds, expected);
        QVERIFY(placed->choice.has_value());
        QCOMPARE(placed->choice->interleaveChosen, interleave == hw::kInterleaveChosen);
        QCOMPARE(placed->choice->zeroChosen, zero == hw::kZeroChosen);
        QVERIFY(placed->choice->strategiesPriced > 0);
        if (brute.seconds < solver) {
            // A strategy of equal stages won: the plan carries its V and ZeRO stage.
            QVERIFY(placed->choice->strategy.has_value());
            QCOMPARE(plan.interleave, placed->problem.training.interleave);
            QCOMPARE(plan.zero, placed->problem.training.zero);
            if (interleave != hw::kInterleaveChosen) QCOMPARE(plan.interleave, interleave);
            if (zero != hw::kZeroChosen) QCOMPARE(plan.zero, zero);
        } else {
            QVERIFY(!placed->choice->strategy.has_value());
            QCOMPARE(plan.interleave, std::int64_t(1));
            QCOMPARE(plan.zero, std::int64_t(0));
        }
    }

    void aFixedStrategyGetsItsBestVAndZero() {
        ModelPlacementRequest r = request();
        r.training.strategyPipeline = 2;
        r.training.strategyTensor = 1;
        r.training.strategyData = 4;
        r.training.interleave = hw::kInterleaveChosen;
        r.training.zero = hw::kZeroChosen;
        const auto placed = placeModel(r);
        QVERIFY2(placed.ok(), placed.ok() ? "" : placed.message().c_str());
        QVERIFY(placed->result.plan.has_value());
        const Best brute = bruteForce(r, 2, 1, 4);
        QCOMPARE(placed->result.plan->timePerBatchSeconds, brute.seconds);
        QCOMPARE(placed->result.plan->interleave, brute.interleave);
        QCOMPARE(placed->result.plan->zero, brute.zero);
        QCOMPARE(std::int64_t(placed->result.plan->stages.size()), std::int64_t(2));
        QCOMPARE(placed->result.plan->dataParallel, std::int64_t(4));
    }

    void sequenceParallelismIsTheFasterOfBoth() {
        // At t = 8 of one node (a fixed strategy, so that both runs are the same width), and in
        // the free placement: auto is the faster of off and on, exactly.
        for (const bool fixedT : {true, false}) {
            ModelPlacementRequest r = request();
            if (fixedT) {
                r.training.strategyPipeline = 1;
                r.training.strategyTensor = 8;
                r.training.strategyData = 1;
            }
            // Each plan's modelled time per batch (a cost-model value, not a measured time).
            double modelledBatchTime[2] = {0, 0};
            for (const bool on : {false, true}) {
                r.training.sequenceParallel =
                    on ? hw::SequenceParallel::On : hw::SequenceParallel::Off;
                const auto placed = placeModel(r);
                QVERIFY2(placed.ok() && placed->result.plan, "both fit");
                QCOMPARE(placed->result.plan->sequenceParallel, on);
                QVERIFY(!placed->choice.has_value());
                modelledBatchTime[on] = placed->result.plan->timePerBatchSeconds;
            }
            if (fixedT)
                QVERIFY2(modelledBatchTime[0] != modelledBatchTime[1],
                         "the two differ, so the choice is visible");
            r.training.sequenceParallel = hw::SequenceParallel::Auto;
            const auto chosen = placeModel(r);
            QVERIFY2(chosen.ok(), chosen.ok() ? "" : chosen.message().c_str());
            QVERIFY(chosen->result.plan && chosen->choice);
            QVERIFY(chosen->choice->sequenceParallelChosen);
            QCOMPARE(chosen->result.plan->timePerBatchSeconds,
                     std::min(modelledBatchTime[0], modelledBatchTime[1]));
            QCOMPARE(chosen->result.plan->sequenceParallel,
                     modelledBatchTime[1] < modelledBatchTime[0]);
            if (fixedT) QCOMPARE(chosen->result.plan->tensorParallel, std::int64_t(8));
        }
        // An encoder cannot run it: auto keeps the placement without it.
        ModelPlacementRequest bert;
        bert.model = *tandem::core::model::zooModel("bert-large");
        bert.hardware = request().hardware;
        bert.training.strategyPipeline = 1;
        bert.training.strategyTensor = 8;
        bert.training.strategyData = 1;
        bert.training.sequenceParallel = hw::SequenceParallel::On;
        QVERIFY(!placeModel(bert).ok());
        bert.training.sequenceParallel = hw::SequenceParallel::Auto;
        const auto encoder = placeModel(bert);
        QVERIFY2(encoder.ok(), encoder.ok() ? "" : encoder.message().c_str());
        QVERIFY(encoder->result.plan && !encoder->result.plan->sequenceParallel);
        QCOMPARE(encoder->result.plan->tensorParallel, std::int64_t(8));
        // One strategy's evaluation takes only given values.
        ModelPlacementRequest given = request();
        given.training.sequenceParallel = hw::SequenceParallel::Auto;
        QVERIFY(!evaluateStrategy(given, StrategySpec{1, 8, 1}).ok());
    }

    void boundsSkipOnlyWhatCannotWin_data() {
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("hbmGiB");
        QTest::addColumn<bool>("overlap");
        QTest::newRow("off, 80 GiB") << int(hw::Recompute::Off) << 80.0 << false;
        QTest::newRow("on, 80 GiB") << int(hw::Recompute::On) << 80.0 << false;
        QTest::newRow("auto, 2 GiB") << int(hw::Recompute::Auto) << 2.0 << false;
        QTest::newRow("selective, 80 GiB, overlap")
            << int(hw::Recompute::Selective) << 80.0 << true;
    }

    // The bounded choice against pricing every candidate in the canonical order (T, V, ZeRO
    // stage, P, D; the first of equals kept), on the same problem: the same strategy, V, ZeRO
    // stage and time, and every candidate either priced or bounded.
    void boundsSkipOnlyWhatCannotWin() {
        QFETCH(int, recompute);
        QFETCH(double, hbmGiB);
        QFETCH(bool, overlap);
        ModelPlacementRequest r = request();
        r.training.recompute = hw::Recompute(recompute);
        r.training.overlapGradReduce = overlap;
        r.hardware.accelerator.hbmCapacityBytes = std::int64_t(hbmGiB * (1 << 30));
        const auto plain = placeModel(r);  // V = 1, ZeRO 0: its problem holds every width
        QVERIFY2(plain.ok(), plain.ok() ? "" : plain.message().c_str());
        const PlacementProblem& problem = plain->problem;
        StrategyChoiceInput input;
        input.problem = &problem;
        input.transformerLayers = 8;
        const auto chosen = chooseStrategy(input);
        QVERIFY2(chosen.ok(), chosen.ok() ? "" : chosen.message().c_str());

        struct {
            double seconds = std::numeric_limits<double>::infinity();
            std::int64_t P = 0, T = 0, D = 0, V = 0, Z = 0;
        } reference;
        std::int64_t candidates = 0;
        const std::int64_t microbatches = problem.microbatchesPerBatch();
        for (const LayerCostSet& set : problem.widths)
            for (std::int64_t V : {1, 2, 4, 8})
                for (std::int64_t Z = 0; Z <= 3; ++Z)
                    for (std::int64_t P : {1, 2, 4, 8}) {
                        const std::int64_t T = set.tensorParallel;
                        if (P * T > 8) continue;
                        const std::int64_t most = std::min<std::int64_t>(8 / (P * T), microbatches);
                        for (std::int64_t D = 1; D <= most; ++D) {
                            if (microbatches % D != 0 && D != most) continue;
                            if (Z > 0 && D < 2) continue;
                            const std::int64_t m = (microbatches + D - 1) / D;
                            if (!interleavingProblem(P, V, 8, m).empty()) continue;
                            ++candidates;
                            PlacementProblem each = problem;
                            each.training.interleave = V;
                            each.training.zero = Z;
                            const auto e = evaluateFixedStrategy(
                                each, FixedStrategy{P, T, D, 8, {}}, CostModelKind::Native);
                            QVERIFY(e.ok());
                            if (!e->fits || !e->plan) continue;
                            if (e->plan->timePerBatchSeconds < reference.seconds)
                                reference = {e->plan->timePerBatchSeconds, P, T, D, V, Z};
                        }
                    }
        QCOMPARE(chosen->strategiesPriced + chosen->strategiesBounded, candidates);
        QVERIFY2(chosen->strategiesBounded > 0, "the bound must skip something");
        QCOMPARE(chosen->found, std::isfinite(reference.seconds));
        if (!chosen->found) return;
        QCOMPARE(chosen->plan.timePerBatchSeconds, reference.seconds);
        QCOMPARE(chosen->strategy.pipeline, reference.P);
        QCOMPARE(chosen->strategy.tensor, reference.T);
        QCOMPARE(chosen->strategy.data, reference.D);
        QCOMPARE(chosen->interleave, reference.V);
        QCOMPARE(chosen->zero, reference.Z);
        // A time to beat that the best meets exactly leaves nothing: ties do not beat it.
        input.mustBeatSeconds = reference.seconds;
        const auto none = chooseStrategy(input);
        QVERIFY(none.ok());
        QVERIFY(!none->found);
    }

    void phazeCompatChoosesPlainOnly() {
        // PHAZE has neither: left to the placement they stay 1 and 0, and the plan is the
        // solver's, bit for bit.
        ModelPlacementRequest r = request();
        r.costModel = CostModelKind::PhazeCompat;
        const auto plain = placeModel(r);
        r.training.interleave = hw::kInterleaveChosen;
        r.training.zero = hw::kZeroChosen;
        const auto chosen = placeModel(r);
        QVERIFY(plain.ok() && chosen.ok() && plain->result.plan && chosen->result.plan);
        QCOMPARE(chosen->result.plan->timePerBatchSeconds, plain->result.plan->timePerBatchSeconds);
        QCOMPARE(chosen->result.plan->interleave, std::int64_t(1));
        QCOMPARE(chosen->result.plan->zero, std::int64_t(0));
        QVERIFY(!chosen->choice->strategy.has_value());
        r.training.sequenceParallel = hw::SequenceParallel::Auto;
        const auto withSp = placeModel(r);
        QVERIFY(withSp.ok() && withSp->result.plan);
        QCOMPARE(withSp->result.plan->timePerBatchSeconds, plain->result.plan->timePerBatchSeconds);
        QVERIFY(!withSp->result.plan->sequenceParallel);
        // Given values stay refused by phaze-compat.
        r.training.zero = 1;
        QVERIFY(!placeModel(r).ok());
    }
};

QTEST_APPLESS_MAIN(TestStrategyChoice)
#include "test_strategy_choice.moc"
