// Tied embeddings (the head's logits reuse the token embedding's weight): a stage that holds
// every layer holds that weight once, so its parameters are the model's own count — Megatron's
// 12·l·h² + 13·l·h + 2·h + (V + s)·h for its GPT — while a pipeline's first and last stages each
// hold a copy, as Megatron's do (they all-reduce its gradient). Checked end to end through
// placeModel on fixed strategies, for an untied model (both matrices, counted once each), and
// in an HBM that holds the one-stage plan only when the weight is held once.
#include <QtTest>

#include <cmath>

#include "core/placement/model_placement.h"
#include "core/validation/run_request.h"
#include "tests/core/placement/small_gpt_request.h"

using namespace tandem::core::placement;
namespace hw = tandem::core::hardware;
namespace val = tandem::core::validation;

namespace {

// The small GPT's sizes (small_gpt_request.h): h 1,024, 8 layers, sequence 1,024, vocabulary
// 50,257 padded to a multiple of 128.
constexpr double kHidden = 1024, kLayers = 8, kSequence = 1024, kVocab = 50304;
constexpr double kBytes = 2;  // bf16 parameters

// Megatron's GPT parameter count with one embedding matrix (tied).
constexpr double kTiedParameters = 12 * kLayers * kHidden * kHidden + 13 * kLayers * kHidden +
                                   2 * kHidden + (kVocab + kSequence) * kHidden;
constexpr double kEmbedding = kVocab * kHidden;

ModelPlacementRequest fixed(ModelPlacementRequest r, std::int64_t p, std::int64_t d) {
    r.training.strategyPipeline = p;
    r.training.strategyTensor = 1;
    r.training.strategyData = d;
    return r;
}

ModelPlacementRequest untied(ModelPlacementRequest r) {
    val::MeasuredRun run = tandem::test::smallGptRun();
    run.model.tiedEmbeddings = false;  // a measured set's "tied_embeddings": false
    auto source = val::gptModelSource(run);
    if (!source.ok()) qFatal("untied model: %s", source.message().c_str());
    r.model = *source;
    return r;
}

Plan planOf(const ModelPlacementRequest& r) {
    const auto placed = placeModel(r);
    if (!placed.ok()) qFatal("place: %s", placed.message().c_str());
    if (!placed->result.plan) qFatal("no plan: %s", placed->result.infeasibleReason.c_str());
    return *placed->result.plan;
}

double stageParameters(const Plan& plan) {
    double bytes = 0;
    for (const StagePlan& stage : plan.stages) bytes += stage.parameterBytes;
    return bytes / kBytes;
}

}  // namespace

class TestTiedWeights : public QObject {
    Q_OBJECT

private slots:
    void oneStageHoldsATiedWeightOnce() {
        const ModelPlacementRequest tied = tandem::test::smallGptRequest();
        const Plan one = planOf(fixed(tied, 1, 8));
        QCOMPARE(stageParameters(one), kTiedParameters);
        QCOMPARE(one.stages[0].memory.weightsBytes, kTiedParameters * kBytes);
        // Two stages: the embedding's and the head's each hold the matrix.
        const Plan two = planOf(fixed(tied, 2, 4));
        QCOMPARE(two.stages.size(), std::size_t(2));
        QCOMPARE(stageParameters(two), kTiedParameters + kEmbedding);
        // Untied, the head owns a matrix of its own wherever it sits.
        const ModelPlacementRequest own = untied(tied);
        QCOMPARE(stageParameters(planOf(fixed(own, 1, 8))), kTiedParameters + kEmbedding);
        QCOMPARE(stageParameters(planOf(fixed(own, 2, 4))), kTiedParameters + kEmbedding);
        // The data-parallel synchronisation moves what the stage holds: less than untied.
        QVERIFY(one.syncSeconds < planOf(fixed(own, 1, 8)).syncSeconds);
    }

    // HBM just large enough for the one-stage plan on one device: counting the tied copy twice
    // would put its weights, gradients and Adam state alone above it (the position table keeps
    // its 1,024 rows at sequence 256), so the plan is only found when the stage keeps it once —
    // with the ZeRO stage given, and left to the placement (one replica: ZeRO 0 again).
    void tightMemoryHoldsTheWeightOnce() {
        ModelPlacementRequest r = fixed(tandem::test::smallGptRequest(), 1, 1);
        r.training.sequenceLength = 256;  // activations well below the tied copy's state
        const Plan needed = planOf(r);
        const double perParameter = needed.stages[0].memory.weightsBytes / kTiedParameters +
                                    needed.stages[0].memory.gradientsBytes / kTiedParameters +
                                    needed.stages[0].memory.optimizerBytes / kTiedParameters;
        QVERIFY((kTiedParameters + kEmbedding) * perParameter > needed.stages[0].memory.totalBytes);
        r.hardware.accelerator.hbmCapacityBytes =
            std::int64_t(std::ceil(needed.stages[0].memory.totalBytes));
        const Plan tight = planOf(r);
        QCOMPARE(tight.timePerBatchSeconds, needed.timePerBatchSeconds);
        r.training.zero = hw::kZeroChosen;
        const Plan chosen = planOf(r);
        QCOMPARE(chosen.timePerBatchSeconds, needed.timePerBatchSeconds);
        QCOMPARE(stageParameters(chosen), kTiedParameters);
    }
};

QTEST_GUILESS_MAIN(TestTiedWeights)
#include "test_tied_weights.moc"
