// ModelEvaluator checked against independent oracles: placeModel() (the lead's one-request
// pipeline) for the same hardware and training gives bit-for-bit the same throughput and plan;
// counters prove each (chip, mbs, t) is scheduled once; the upper bound is checked against the
// evaluated throughput of hundreds of random points and, layer by layer, against the scheduled
// makespans; explorers give identical results for 1 and 2 threads and pruned finds the
// exhaustive optimum; the joint optimum never loses to the fixed baseline. GPT-3's cost per
// point is bench_search_evaluator's business.
#include <QtTest>
#include <algorithm>
#include <random>
#include <string>
#include <thread>

#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "core/search/exhaustive_explorer.h"
#include "core/search/model_evaluator.h"
#include "core/search/pruned_explorer.h"
#include "core/search/search_grid.h"
#include "tests/core/search/search_test_support.h"

using namespace tandem::core;
using namespace tandem::core::search;

namespace {

using namespace search_test;

// A reduced PHAZE space: a few dozen chips, 2 mbs × 2 HBM × 2 recompute.
SearchSpace smallSpace() {
    SearchSpace s = SearchSpace::phaze();
    s.name = "test";
    s.numTensorCores = {1, 4, 16};
    s.tensorCoreRows = {32, 128};
    s.tensorCoreCols = {64, 128};
    s.numVectorCores = {1, 4};
    s.globalBufferBytes = {16 * kMiB, 128 * kMiB};
    s.microbatchSizes = {1, 2};
    s.hbmCapacityBytes = {16 * kGiB, 80 * kGiB};
    s.recompute = {hardware::Recompute::Off, hardware::Recompute::On};
    return s;
}

std::unique_ptr<ModelEvaluator> evaluatorFor(const model::ModelSourcePtr& m,
                                             const SearchSpace& space,
                                             ModelEvaluatorOptions options = {},
                                             const hardware::TrainingConfig& training = {}) {
    auto ev = ModelEvaluator::create(m, space, training, options);
    if (!ev) qFatal("%s", ev.message().c_str());
    return std::move(ev).value();
}

placement::ModelPlacementRequest requestFor(const model::ModelSourcePtr& m,
                                            const SearchSpace& space, const SearchPoint& p,
                                            const hardware::TrainingConfig& training = {}) {
    placement::ModelPlacementRequest r;
    r.model = m;
    r.training = training;
    r.hardware = space.base;
    r.hardware.accelerator = p.accelerator;
    r.training.microbatch = p.microbatchSize;
    r.training.recompute = p.recompute;
    r.widths = space.widthsFor(*m);
    return r;
}

// QVERIFY2 evaluates its message even when the check passes.
template <typename T>
const char* why(const Expected<T>& e) {
    static thread_local std::string text;
    text = e.ok() ? std::string() : e.message();
    return text.c_str();
}

}  // namespace

class TestSearchEvaluator : public QObject {
    Q_OBJECT
private slots:
    void matchesPlaceModelBitForBit_data();
    void matchesPlaceModelBitForBit();
    void schedulesOncePerChipMicrobatchWidth();
    void upperBoundHoldsOnRandomPoints();
    void layerBoundBelowScheduledMakespans();
    void explorersAreDeterministicAndPrunedFindsOptimum();
    void jointOptimumNeverBelowBaseline();
    void errorsAndInfeasiblePointsAreValues();
};

void TestSearchEvaluator::matchesPlaceModelBitForBit_data() {
    QTest::addColumn<qint64>("interleave");
    QTest::addColumn<qint64>("zero");
    QTest::addColumn<bool>("sequenceParallelAuto");
    QTest::newRow("plain 1F1B, ZeRO 0") << qint64(1) << qint64(0) << false;
    // Left to the placement: each point chooses them as placeModel() does.
    QTest::newRow("V and ZeRO chosen")
        << qint64(hardware::kInterleaveChosen) << qint64(hardware::kZeroChosen) << false;
    // Given values the solver cannot price: strategies of equal stages only.
    QTest::newRow("V = 2, ZeRO 1 given") << qint64(2) << qint64(1) << false;
    // Sequence parallelism left to the placement too: both ways per point, the faster kept.
    QTest::newRow("V, ZeRO and sequence parallelism chosen")
        << qint64(hardware::kInterleaveChosen) << qint64(hardware::kZeroChosen) << true;
}

void TestSearchEvaluator::matchesPlaceModelBitForBit() {
    QFETCH(qint64, interleave);
    QFETCH(qint64, zero);
    QFETCH(bool, sequenceParallelAuto);
    hardware::TrainingConfig training;
    training.optimizer = hardware::Optimizer::Adam;
    training.interleave = interleave;
    training.zero = zero;
    if (sequenceParallelAuto) training.sequenceParallel = hardware::SequenceParallel::Auto;
    SearchSpace space = smallSpace();
    std::vector<const char*> models = {"gpt2-xl", "opt-350m"};
    if (sequenceParallelAuto) {
        // Where it wins: a model split 8 ways whose stages fit only by rerunning layers without it
        // (megatron-gpt2-8.3b, microbatches of 4: `place --sequence-parallel=auto` chooses it).
        models = {"opt-350m", "megatron-gpt2-8.3b"};
        space.microbatchSizes = {1, 4};
        space.recompute = {hardware::Recompute::Off, hardware::Recompute::Auto};
    }
    const SearchGrid grid = gridOf(space);
    int compared = 0, feasible = 0, chosen = 0, withSequenceParallel = 0;
    for (const char* name : models) {
        const auto m = zoo(name);
        const auto ev = evaluatorFor(m, space, {}, training);
        ModelEvaluatorOptions lean;
        lean.keepPlans = false;
        const auto leanEv = evaluatorFor(m, space, lean, training);
        for (std::int64_t chip : {std::int64_t(0), grid.chipCount() / 2, grid.chipCount() - 1}) {
            for (std::int64_t o = 0; o < grid.optionsPerChip(); o += 3) {
                const SearchPoint p = grid.point(chip * grid.optionsPerChip() + o);
                const EvaluatedPoint e = ev->evaluate(p, nullptr);
                auto placed = placement::placeModel(requestFor(m, space, p, training));
                QVERIFY2(placed.ok(), why(placed));
                ++compared;
                if (!placed->result.plan) {
                    QVERIFY(e.status == PointStatus::Infeasible);
                    QCOMPARE(e.message, placed->result.infeasibleReason);
                    continue;
                }
                ++feasible;
                QVERIFY(e.status == PointStatus::Feasible);
                const placement::Plan& want = *placed->result.plan;
                QVERIFY(e.throughputSamplesPerSecond == want.throughputSamplesPerSecond);
                QVERIFY(e.objective == e.throughputSamplesPerSecond);
                const EvaluatedPoint l = leanEv->evaluate(p, nullptr);
                QVERIFY(l.objective == e.objective && !l.plan && !l.baselinePlan);
                QCOMPARE(e.plan->tensorParallel, want.tensorParallel);
                QCOMPARE(e.plan->dataParallel, want.dataParallel);
                QCOMPARE(e.plan->stages.size(), want.stages.size());
                QCOMPARE(e.plan->interleave, want.interleave);
                QCOMPARE(e.plan->zero, want.zero);
                QCOMPARE(e.plan->sequenceParallel, want.sequenceParallel);
                QCOMPARE(e.planShape.sequenceParallel, want.sequenceParallel);
                withSequenceParallel += want.sequenceParallel ? 1 : 0;
                if (want.interleave != 1 || want.zero != 0) ++chosen;
                for (std::size_t s = 0; s < want.stages.size(); ++s)
                    QCOMPARE(e.plan->stages[s].layers, want.stages[s].layers);
                QVERIFY(e.plan->devices.empty());
                const bool baselineFits = placed->baseline && placed->baseline->fits;
                QCOMPARE(bool(e.baselinePlan), baselineFits);
                if (baselineFits)
                    QVERIFY(e.baselinePlan->throughputSamplesPerSecond ==
                            placed->baseline->plan->throughputSamplesPerSecond);
            }
        }
    }
    qInfo(
        "compared %d points with placeModel, %d feasible, %d with V > 1 or ZeRO > 0, %d with "
        "sequence parallelism",
        compared, feasible, chosen, withSequenceParallel);
    QVERIFY(feasible >= 6);
    if (sequenceParallelAuto)
        QVERIFY2(withSequenceParallel > 0, "some point must choose sequence parallelism");
    if (interleave != 1 || zero != 0) QVERIFY2(chosen > 0, "some point must choose them");
}

void TestSearchEvaluator::schedulesOncePerChipMicrobatchWidth() {
    SearchSpace space = smallSpace();
    space.microbatchSizes = {1, 2, 4, 8};
    space.hbmCapacityBytes = {32 * kGiB, 64 * kGiB, 80 * kGiB};
    const SearchGrid grid = gridOf(space);
    QCOMPARE(grid.optionsPerChip(), std::int64_t(24));
    const auto m = zoo("gpt2-xl");
    const auto widths = space.widthsFor(*m);
    // gpt2-xl's baseline width is among its widths in the zoo: no extra width is scheduled.
    QVERIFY(std::find(widths.begin(), widths.end(), m->baselineStrategy().tensor) != widths.end());
    for (int threads : {1, 2}) {
        const auto ev = evaluatorFor(m, space);
        const std::int64_t chip = 3;
        std::vector<std::thread> workers;
        std::atomic<std::int64_t> next{0};
        for (int w = 0; w < threads; ++w)
            workers.emplace_back([&] {
                for (std::int64_t o; (o = next++) < 24;)
                    ev->evaluate(grid.point(chip * 24 + o), nullptr);
            });
        for (auto& w : workers) w.join();
        const auto s = ev->statistics();
        QCOMPARE(s.evaluations, std::int64_t(24));
        QCOMPARE(s.chipEntriesComputed, std::int64_t(4));
        QCOMPARE(s.chipEntriesReused, std::int64_t(20));
        QCOMPARE(s.widthSchedules, std::int64_t(4 * widths.size()));
    }
}

void TestSearchEvaluator::upperBoundHoldsOnRandomPoints() {
    SearchSpace space = SearchSpace::phaze();
    space.numTensorCores = SearchSpace::powersOfTwo(1, 256);
    space.tensorCoreRows = SearchSpace::powersOfTwo(4, 256);
    space.tensorCoreCols = SearchSpace::powersOfTwo(4, 256);
    space.numVectorCores = SearchSpace::powersOfTwo(1, 64);
    space.globalBufferBytes = {2 * kMiB, 16 * kMiB, 128 * kMiB};
    const SearchGrid grid = gridOf(space);
    std::mt19937_64 rng(20240517);
    int checked = 0, feasible = 0;
    double tightest = 0;
    for (const char* name : {"bert-large", "opt-350m", "gpt2-xl", "llama2-7b"}) {
        const auto ev = evaluatorFor(zoo(name), space);
        std::uniform_int_distribution<std::int64_t> pick(0, grid.pointCount() - 1);
        for (int i = 0; i < 60; ++i) {
            const SearchPoint p = grid.point(pick(rng));
            const EvaluatedPoint e = ev->evaluate(p, nullptr);
            QVERIFY2(e.status != PointStatus::Error, e.message.c_str());
            const double bound = ev->upperBound(p);
            QVERIFY2(bound >= e.objective,
                     qPrintable(QString("%1 point %2: bound %3 < objective %4")
                                    .arg(name)
                                    .arg(p.index)
                                    .arg(bound)
                                    .arg(e.objective)));
            ++checked;
            if (e.feasible()) {
                ++feasible;
                tightest = std::max(tightest, e.objective / bound);
            }
        }
    }
    qInfo("bound >= throughput on %d random points (%d feasible); best ratio %.3f", checked,
          feasible, tightest);
    QVERIFY(checked >= 200);
    QVERIFY(feasible >= 100);
    QVERIFY(tightest > 0.2);  // the bound is not vacuous
}

void TestSearchEvaluator::layerBoundBelowScheduledMakespans() {
    // The per-layer bound against the makespans the scheduler actually returns; also with
    // FlashAttention on chips whose special-function unit its softmax waits on.
    const SearchSpace space = smallSpace();
    const SearchGrid grid = gridOf(space);
    int layers = 0;
    for (const char* name : {"opt-350m", "gpt2-xl", "gpt2-xl+flash"}) {
        const bool flash = std::string(name).ends_with("+flash");
        const auto m = zoo(flash ? "gpt2-xl" : name);
        hardware::TrainingConfig training;
        training.flashAttention = flash;
        for (std::int64_t chip = 0; chip < grid.chipCount(); chip += 5) {
            SearchPoint p = grid.point(chip * grid.optionsPerChip());
            if (flash) p.accelerator.specialFunctionOpsPerCycle = 16;
            auto placed = placement::placeModel(requestFor(m, space, p, training));
            QVERIFY2(placed.ok(), why(placed));
            for (const auto& w : placed->widths) {
                const ThroughputBound bound(*w.graph, space.base.cluster);
                for (std::size_t u = 0; u < w.schedules->unique.size(); ++u) {
                    for (bool backward : {false, true}) {
                        const auto& s = backward ? w.schedules->unique[u].backward
                                                 : w.schedules->unique[u].forward;
                        const double lb = bound.layerSecondsLowerBound(u, backward, p.accelerator);
                        QVERIFY2(lb <= s->makespanSeconds * (1 + 1e-12),
                                 qPrintable(QString("%1 chip %2 t %3 layer %4: %5 > %6")
                                                .arg(name)
                                                .arg(chip)
                                                .arg(w.graph->options().tensorParallel)
                                                .arg(u)
                                                .arg(lb)
                                                .arg(s->makespanSeconds)));
                        QVERIFY(lb > 0);
                        ++layers;
                    }
                }
            }
        }
    }
    qInfo("layer bound checked on %d layer directions", layers);
}

void TestSearchEvaluator::explorersAreDeterministicAndPrunedFindsOptimum() {
    const SearchSpace space = smallSpace();
    const SearchGrid grid = gridOf(space);
    qInfo("small space: %lld chips, %lld points", (long long)grid.chipCount(),
          (long long)grid.pointCount());
    QVERIFY(grid.chipCount() >= 20);
    const auto m = zoo("opt-350m");
    const auto ev = evaluatorFor(m, space);
    ThreadPool one(1), two(2);
    const SearchResults a = ExhaustiveExplorer().explore(grid, *ev, one);
    const SearchResults b = ExhaustiveExplorer().explore(grid, *ev, two);
    QCOMPARE(a.points().size(), std::size_t(grid.pointCount()));
    QCOMPARE(b.points().size(), a.points().size());
    int feasible = 0;
    for (std::size_t i = 0; i < a.points().size(); ++i) {
        const auto &x = a.points()[i], &y = b.points()[i];
        QCOMPARE(x.point, y.point);
        QVERIFY(x.status == y.status);
        QCOMPARE(x.message, y.message);
        QVERIFY(x.objective == y.objective);
        QCOMPARE(x.schedules, y.schedules);
        feasible += x.feasible();
    }
    QVERIFY(feasible > 0);
    QVERIFY(a.best().has_value());
    QCOMPARE(a.best(), b.best());
    // A fresh evaluator, so that pruning cannot lean on a warm cache for its answer.
    const auto fresh = evaluatorFor(m, space);
    const SearchResults pruned = PrunedExplorer().explore(grid, *fresh, two);
    QVERIFY(pruned.best().has_value());
    const EvaluatedPoint& want = a.points()[*a.best()];
    const EvaluatedPoint& got = pruned.points()[*pruned.best()];
    QCOMPARE(got.point.index, want.point.index);
    QVERIFY(got.objective == want.objective);
    QCOMPARE(pruned.statistics().boundViolations, std::int64_t(0));
    qInfo("pruned evaluated %lld of %lld points", (long long)pruned.statistics().evaluated,
          (long long)grid.pointCount());
}

void TestSearchEvaluator::jointOptimumNeverBelowBaseline() {
    const SearchSpace space = smallSpace();
    const SearchGrid grid = gridOf(space);
    int compared = 0;
    for (const char* name : {"gpt2-xl", "megatron-gpt2-2.5b", "bert-large"}) {
        const auto ev = evaluatorFor(zoo(name), space);
        for (std::int64_t i = 0; i < grid.pointCount(); i += 7) {
            const EvaluatedPoint e = ev->evaluate(grid.point(i), nullptr);
            if (!e.baselinePlan) continue;
            QVERIFY2(e.feasible(), name);
            QVERIFY(e.objective >= e.baselinePlan->throughputSamplesPerSecond);
            ++compared;
        }
    }
    qInfo("joint >= baseline on %d points where the baseline fits", compared);
    QVERIFY(compared >= 10);
}

void TestSearchEvaluator::errorsAndInfeasiblePointsAreValues() {
    SearchSpace space = smallSpace();
    const SearchGrid grid = gridOf(space);
    // 25 heads cannot be split 3 ways: Error, never a crash.
    space.tensorParallelWidths = {1, 3};
    const auto bad = evaluatorFor(zoo("gpt2-xl"), space);
    const EvaluatedPoint e = bad->evaluate(grid.point(0), nullptr);
    QVERIFY(e.status == PointStatus::Error);
    QVERIFY2(e.message.find("t = 3") != std::string::npos, e.message.c_str());
    QCOMPARE(e.objective, 0.0);
    QVERIFY(std::isinf(bad->upperBound(grid.point(0))));
    // GPT-3 on 1 GiB of HBM: nothing fits.
    space.tensorParallelWidths = {};
    const auto gpt3 = evaluatorFor(zoo("gpt3-175b"), space);
    SearchPoint tiny = grid.point(grid.pointCount() - 1);
    tiny.accelerator.hbmCapacityBytes = kGiB;
    const EvaluatedPoint f = gpt3->evaluate(tiny, nullptr);
    QVERIFY(f.status == PointStatus::Infeasible);
    QVERIFY(!f.message.empty());
    QVERIFY(!f.plan);
    QVERIFY(!f.baselinePlan);
    // A microbatch that does not divide the global batch: not a configuration Megatron runs,
    // so the point is infeasible with the reason; the space's other microbatch is evaluated.
    hardware::TrainingConfig odd;
    odd.globalBatch = 1023;  // 1 divides it, 2 does not
    const auto gpt2 = evaluatorFor(zoo("gpt2-xl"), smallSpace(), {}, odd);
    SearchPoint one = grid.point(0), two = grid.point(0);
    one.microbatchSize = 1;
    two.microbatchSize = 2;
    const EvaluatedPoint unsplit = gpt2->evaluate(two, nullptr);
    QVERIFY(unsplit.status == PointStatus::Infeasible && !unsplit.plan);
    QCOMPARE(unsplit.message,
             std::string("the global batch of 1023 samples does not split into microbatches of 2"));
    QVERIFY(gpt2->evaluate(one, nullptr).status == PointStatus::Feasible);
    // A cancelled control: Cancelled, not an answer.
    RunControl control;
    control.cancel();
    QVERIFY(gpt3->evaluate(grid.point(0), &control).status == PointStatus::Cancelled);
    // A search chooses every point's strategy: a fixed one is refused, with what to change.
    hardware::TrainingConfig fixed;
    fixed.strategyPipeline = fixed.strategyTensor = fixed.strategyData = 1;
    const auto refused = ModelEvaluator::create(zoo("gpt2-xl"), space, fixed);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.message().find("strategyPipeline") != std::string::npos,
             refused.message().c_str());
}

QTEST_GUILESS_MAIN(TestSearchEvaluator)
#include "test_search_evaluator.moc"
