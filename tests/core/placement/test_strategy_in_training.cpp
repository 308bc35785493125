// A fixed strategy P,T,D in the training configuration (issue 26, item 6: the app's set-up can
// fix a strategy or let the search choose): placeModel() then evaluates exactly what
// evaluateStrategy() does (`tandem-cli place --strategy`), bit for bit, instead of searching;
// interleaving and ZeRO run; a partly set strategy, a strategy that
// cannot be formed and a search over a fixed strategy are refused with messages that say how to
// fix them.
#include <QtTest>

#include <string>

#include "core/hardware/parameter_registry.h"
#include "core/placement/strategy_evaluation.h"
#include "tests/core/placement/small_gpt_request.h"

namespace hw = tandem::core::hardware;
using namespace tandem::core::placement;

namespace {

bool contains(const std::string& text, const char* part) {
    return text.find(part) != std::string::npos;
}

ModelPlacementRequest request() {
    return tandem::test::smallGptRequest();
}

ModelPlacementRequest fixed(ModelPlacementRequest r, std::int64_t p, std::int64_t t,
                            std::int64_t d) {
    r.training.strategyPipeline = p;
    r.training.strategyTensor = t;
    r.training.strategyData = d;
    return r;
}

}  // namespace

class TestStrategyInTraining : public QObject {
    Q_OBJECT

private slots:
    void fixedStrategyIsEvaluatedAsGiven() {
        for (const auto& [p, t, d] : {std::tuple{2, 2, 2}, {1, 8, 1}, {4, 1, 2}, {8, 1, 1}}) {
            const ModelPlacementRequest r = fixed(request(), p, t, d);
            QVERIFY(fixedStrategyIn(r.training).has_value());
            const auto placed = placeModel(r);
            QVERIFY2(placed.ok(), placed.ok() ? "" : placed.message().c_str());
            QVERIFY(placed->result.plan.has_value());
            const Plan& plan = *placed->result.plan;
            QCOMPARE(std::int64_t(plan.stages.size()), std::int64_t(p));
            QCOMPARE(plan.tensorParallel, std::int64_t(t));
            QCOMPARE(plan.dataParallel, std::int64_t(d));
            QCOMPARE(placed->widths.size(), std::size_t(1));
            // The CLI's --strategy evaluation, bit for bit.
            const auto evaluated = evaluateStrategy(request(), StrategySpec{p, t, d});
            QVERIFY(evaluated.ok() && evaluated->result.plan);
            QCOMPARE(plan.timePerBatchSeconds, evaluated->result.plan->timePerBatchSeconds);
            QCOMPARE(plan.maxStageLoadSeconds, evaluated->result.plan->maxStageLoadSeconds);
        }
        // Without a strategy the search chooses, and it is never slower than any of them.
        const auto searched = placeModel(request());
        QVERIFY(searched.ok() && searched->result.plan);
        QVERIFY(!fixedStrategyIn(request().training));
        const auto given = placeModel(fixed(request(), 2, 2, 2));
        QVERIFY(searched->result.plan->timePerBatchSeconds <=
                given->result.plan->timePerBatchSeconds * (1 + 1e-12));
    }

    void interleavingAndZeroRunWithAFixedStrategy() {
        ModelPlacementRequest r = fixed(request(), 2, 1, 4);
        r.training.interleave = 2;
        r.training.zero = 1;
        const auto placed = placeModel(r);
        QVERIFY2(placed.ok(), placed.ok() ? "" : placed.message().c_str());
        QVERIFY(placed->result.plan.has_value());
        QCOMPARE(placed->result.plan->interleave, std::int64_t(2));
        QCOMPARE(placed->result.plan->zero, std::int64_t(1));
        // Without a fixed strategy, V = 2 is priced among strategies of equal stages (the
        // partition solver has plain 1F1B only): the plan runs two chunks per device.
        ModelPlacementRequest searched = request();
        searched.training.interleave = 2;
        const auto chosen = placeModel(searched);
        QVERIFY2(chosen.ok(), chosen.ok() ? "" : chosen.message().c_str());
        QVERIFY(chosen->result.plan && chosen->choice && chosen->choice->strategy);
        QCOMPARE(chosen->result.plan->interleave, std::int64_t(2));
    }

    void badStrategiesAreRefused() {
        // P = 3 on the 8 layers: balanced stages of 3, 3 and 2 layers (the extra ones in the
        // middle first, then the first stage; the embedding with the first, the head with the
        // last), a plan like any other.
        const auto uneven = placeModel(fixed(request(), 3, 1, 1));
        QVERIFY2(uneven.ok(), uneven.ok() ? "" : uneven.message().c_str());
        QVERIFY(uneven->result.plan);
        std::vector<std::size_t> sizes;
        for (const auto& stage : uneven->result.plan->stages) sizes.push_back(stage.layers.size());
        QCOMPARE(sizes, (std::vector<std::size_t>{4, 3, 3}));
        // P = 6: 1, 2, 2, 1, 1, 1 layers — the two extra ones in the middle stages, so the ends,
        // which also hold the embedding and the head, are the lighter (not ⌈8/6⌉ = 2 each and
        // two stages left empty).
        const auto six = placeModel(fixed(request(), 6, 1, 1));
        QVERIFY2(six.ok(), six.ok() ? "" : six.message().c_str());
        QVERIFY(six->result.plan);
        sizes.clear();
        for (const auto& stage : six->result.plan->stages) sizes.push_back(stage.layers.size());
        QCOMPARE(sizes, (std::vector<std::size_t>{2, 2, 2, 1, 1, 2}));
        // Interleaving needs equal stages.
        ModelPlacementRequest chunks = fixed(request(), 3, 1, 1);
        chunks.training.interleave = 2;
        const auto interleaved = placeModel(chunks);
        QVERIFY(!interleaved.ok());
        QVERIFY2(contains(interleaved.message(), "interleaving needs stages of equal"),
                 interleaved.message().c_str());
        // More devices than the node has.
        const auto large = placeModel(fixed(request(), 2, 2, 4));
        QVERIFY(!large.ok());
        QVERIFY2(contains(large.message(), "the cluster has 8"), large.message().c_str());
        // A strategy that is formed but does not fit: no plan, and the reason names it.
        ModelPlacementRequest small = fixed(request(), 1, 1, 1);
        small.hardware.accelerator.hbmCapacityBytes = 64.0 * 1024 * 1024;
        const auto unfit = placeModel(small);
        QVERIFY2(unfit.ok(), unfit.ok() ? "" : unfit.message().c_str());
        QVERIFY(!unfit->result.plan);
        QVERIFY2(contains(unfit->result.infeasibleReason, "fixed strategy P,T,D = 1,1,1"),
                 unfit->result.infeasibleReason.c_str());
        // Partly set: the registry's check says to set all three or none.
        hw::TrainingConfig partial;
        partial.strategyPipeline = 2;
        const auto status = hw::trainingParameters().validate(partial);
        QVERIFY(!status.ok());
        QVERIFY2(contains(status.message(), "together"), status.message().c_str());
        QVERIFY(!fixedStrategyIn(partial));
        partial.strategyTensor = partial.strategyData = 1;
        QVERIFY(hw::trainingParameters().validate(partial).ok());
    }
};

QTEST_APPLESS_MAIN(TestStrategyInTraining)
#include "test_strategy_in_training.moc"
