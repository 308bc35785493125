// Sequence parallelism and selective recomputation in the transformer builder, against
// Korthikanti et al. 2022 (Table 2: activation bytes per layer under each technique) and the ring
// identity all-reduce = reduce-scatter + all-gather; and their refusals.
#include <QtTest>

#include <string>

#include <cmath>

#include "core/estimate/operator_estimator.h"
#include "core/model/model_file.h"
#include "core/model/model_zoo.h"
#include "core/model/transformer_source.h"
#include "tests/core/model/model_test_support.h"

using namespace tandem::core;
using namespace tandem::core::model;

namespace {

using tandem::test::specOf;
using tandem::test::zoo;

// Megatron's fused softmax kernel for every shape (softmaxShapeRule off): Korthikanti et al.'s
// accounting, which these tests check, is the fused kernel's.
ModelGraph build(const ModelSource& source, std::int64_t b, std::int64_t s, std::int64_t t,
                 bool sp) {
    BuildOptions options{b, s, t, 2, sp};
    options.softmaxShapeRule = false;
    return tandem::test::buildOrDie(source, options);
}

int countKind(const std::vector<Operator>& ops, CollectiveKind kind) {
    int n = 0;
    for (const Operator& op : ops) n += op.opClass == OpClass::Collective && op.collective == kind;
    return n;
}

// Σ of the estimated durations of a layer's collectives, forward and backward.
bool isRegather(const Operator& op) {
    const std::string suffix = ".regather";
    return op.name.size() > suffix.size() &&
           op.name.compare(op.name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The collectives' seconds, without (or only) the weight-gradient gathers of sequence
// parallelism.
double collectiveSeconds(const LayerGraph& g, const estimate::OperatorEstimator& est,
                         bool regathers = false) {
    double total = 0;
    for (const auto* ops : {&g.forward(), &g.backward()})
        for (const Operator& op : *ops)
            if (op.opClass == OpClass::Collective && isRegather(op) == regathers)
                total += est.estimate(op).oneCoreSeconds;
    return total;
}

}  // namespace

class TestModelParallelModes : public QObject {
    Q_OBJECT

private slots:
    void blockActivationsFollowKorthikanti() {
        // Bytes per block at 2 bytes per element, GPT (GELU, dropout): Korthikanti et al.
        // Table 2 — tensor parallel sbh(10 + 24/t + 5as/(ht)); + sequence parallel
        // sbh/t·(34 + 5as/h); selective + tensor parallel sbh(10 + 24/t); selective + both
        // sbh·34/t.
        const auto gpt = zoo("megatron-gpt2-8.3b");
        const TransformerSpec& spec = specOf(*gpt);
        const std::int64_t b = 2, s = 512;
        for (std::int64_t t : {1, 2, 4, 8}) {
            const double sbh = double(s * b * spec.hidden), T = double(t);
            const double attention = 5.0 * double(spec.heads) * double(s) / double(spec.hidden);
            const ModelGraph plainModel = build(*gpt, b, s, t, false);
            const ModelGraph splitModel = build(*gpt, b, s, t, true);
            const LayerGraph& plain = *plainModel.layers()[1].graph;
            const LayerGraph& split = *splitModel.layers()[1].graph;
            QCOMPARE(double(plain.savedBytes()), sbh * (10 + 24 / T + attention / T));
            QCOMPARE(double(split.savedBytes()), sbh / T * (34 + attention));
            QCOMPARE(double(plain.selectiveSavedBytes()), sbh * (10 + 24 / T));
            QCOMPARE(double(split.selectiveSavedBytes()), sbh * 34 / T);
        }
        // LLaMA has no dropout: selective recomputation drops only the softmax output.
        const auto llama = zoo("llama2-7b");
        const TransformerSpec& l = specOf(*llama);
        const std::int64_t t = 4;
        const ModelGraph model = build(*llama, b, s, t, true);
        const LayerGraph& block = *model.layers()[1].graph;
        const double softmax = 2.0 * double(l.heads / t) * double(s) * double(s) * double(b);
        QCOMPARE(double(block.savedBytes() - block.selectiveSavedBytes()), softmax);
    }

    void selectiveRecomputeRerunsTheAttentionCore() {
        const ModelGraph model = build(*zoo("megatron-gpt2-8.3b"), 1, 256, 2, false);
        const LayerGraph& block = *model.layers()[1].graph;
        QStringList rerun;
        for (const Operator& op : block.forward())
            if (op.selectiveRecompute) rerun << QString::fromStdString(op.name);
        QCOMPARE(rerun, (QStringList{"attn.scores", "attn.softmax", "attn.dropout"}));
    }

    void sequenceParallelSplitsTheCollectives() {
        const auto gpt = zoo("gpt3-175b");
        const std::int64_t t = 8;
        const ModelGraph plain = build(*gpt, 1, 2048, t, false);
        const ModelGraph split = build(*gpt, 1, 2048, t, true);
        const LayerGraph& p = *plain.layers()[1].graph;
        const LayerGraph& q = *split.layers()[1].graph;
        // Megatron's f and g of attention and MLP: 2 all-reduces each way without SP; with SP an
        // all-gather and a reduce-scatter each, transposed in the backward pass.
        QCOMPARE(countKind(p.forward(), CollectiveKind::AllReduce), 2);
        QCOMPARE(countKind(p.backward(), CollectiveKind::AllReduce), 2);
        QCOMPARE(countKind(q.forward(), CollectiveKind::AllReduce), 0);
        QCOMPARE(countKind(q.forward(), CollectiveKind::AllGather), 2);
        QCOMPARE(countKind(q.forward(), CollectiveKind::ReduceScatter), 2);
        // The backward all-gathers of g, and the gathers of the QKV and fc1 inputs again for
        // their weight gradients (SP keeps only each rank's shard), each before its dW GEMM.
        QCOMPARE(countKind(q.backward(), CollectiveKind::AllGather), 4);
        QCOMPARE(countKind(q.backward(), CollectiveKind::ReduceScatter), 2);
        int regathers = 0;
        for (std::size_t i = 0; i < q.backward().size(); ++i) {
            if (!isRegather(q.backward()[i])) continue;
            ++regathers;
            const std::string gemm = q.backward()[i].name.substr(
                0, q.backward()[i].name.size() - std::string(".regather").size());
            bool feedsWeightGradient = false;
            for (const Operator& op : q.backward())
                if (op.name == gemm + ".dW")
                    for (int input : op.inputs) feedsWeightGradient |= std::size_t(input) == i;
            QVERIFY2(feedsWeightGradient, q.backward()[i].name.c_str());
        }
        QCOMPARE(regathers, 2);
        QCOMPARE(countKind(p.backward(), CollectiveKind::AllGather), 0);
        // The same GEMMs, and vector work on 1/t of the tokens outside the parallel regions.
        QCOMPARE(q.forwardGemmFlops(), p.forwardGemmFlops());
        QVERIFY(q.forwardFlops() < p.forwardFlops());
        // Stages exchange their shard of the sequence.
        QCOMPARE(split.edges().front().bytes * t, plain.edges().front().bytes);
        // Ring algorithms: reduce-scatter + all-gather move exactly an all-reduce's bytes in as
        // many steps, so the collectives cost the same on any link.
        hardware::ClusterConfig cluster;
        cluster.devicesPerNode = 8;
        cluster.intraNodeBandwidthBytesPerSecond = 300e9;
        cluster.hopLatencySeconds = 5e-6;
        cluster.collectiveEfficiency = 0.8;
        const estimate::OperatorEstimator est(hardware::AcceleratorConfig{}.ideal(), cluster);
        const double a = collectiveSeconds(p, est), c = collectiveSeconds(q, est);
        QVERIFY2(std::abs(a - c) <= 1e-12 * a, qPrintable(QString("%1 vs %2").arg(a).arg(c)));
        // Besides: the two gathers again, each half of one of the four all-reduces.
        const double r = collectiveSeconds(q, est, true);
        QVERIFY2(std::abs(r - 0.25 * a) <= 1e-9 * a,
                 qPrintable(QString("%1 vs %2").arg(r).arg(0.25 * a)));
        // One all-gather is half an all-reduce of the same tensor, latency included.
        Operator allReduce;
        allReduce.name = "ar";
        allReduce.opClass = OpClass::Collective;
        allReduce.collectiveBytes = std::int64_t(1) << 28;
        allReduce.groupSize = 8;
        Operator allGather = allReduce;
        allGather.collective = CollectiveKind::AllGather;
        QCOMPARE(est.estimate(allGather).oneCoreSeconds * 2,
                 est.estimate(allReduce).oneCoreSeconds);
    }

    void megatronHeadAndCheckpoints() {
        const auto gpt = zoo("gpt3-175b");
        const ModelGraph wide = build(*gpt, 2, 2048, 8, false);
        // Megatron checkpoints the transformer blocks only.
        QVERIFY(!wide.layers().front().checkpointed);
        QVERIFY(!wide.layers().back().checkpointed);
        for (std::size_t l = 1; l + 1 < wide.layers().size(); ++l)
            QVERIFY(wide.layers()[l].checkpointed);
        // The vocabulary-parallel loss all-reduces three fp32 values per token, forward only.
        const LayerGraph& head = *wide.layers().back().graph;
        int statistics = 0;
        for (const Operator& op : head.forward())
            if (op.opClass == OpClass::Collective && op.name.rfind("head.loss.", 0) == 0) {
                ++statistics;
                QCOMPARE(op.collectiveBytes, std::int64_t(2 * 2048 * 4));
                QCOMPARE(op.groupSize, std::int64_t(8));
            }
        QCOMPARE(statistics, 3);
        for (const Operator& op : head.backward())
            QVERIFY(op.opClass != OpClass::Collective || op.name.rfind("bwd.head.loss.", 0) != 0);
        // At t = 1 there is nothing to reduce.
        const ModelGraph singleModel = build(*gpt, 2, 2048, 1, false);
        const LayerGraph& single = *singleModel.layers().back().graph;
        QCOMPARE(countKind(single.forward(), CollectiveKind::AllReduce), 0);
    }

    void sequenceParallelAtWidthOneChangesNothing() {
        const auto gpt = zoo("gpt2-xl");
        QCOMPARE(build(*gpt, 2, 128, 1, true).layers()[1].graph->signature(),
                 build(*gpt, 2, 128, 1, false).layers()[1].graph->signature());
    }

    void unsupportedSequenceParallelIsRefused() {
        auto bert = zoo("bert-large")->build({1, 128, 2, 2, true});
        QVERIFY(!bert.ok());
        QVERIFY2(bert.message().find("decoder transformers") != std::string::npos,
                 bert.message().c_str());
        auto uneven = zoo("megatron-gpt2-8.3b")->build({1, 1020, 8, 2, true});  // 8 ∤ 1,020
        QVERIFY(!uneven.ok());
        QVERIFY2(uneven.message().find("does not divide") != std::string::npos,
                 uneven.message().c_str());
        // A graph model (operators as written) cannot be split; exported without SP it says so.
        auto exported = parseModelJson(
            graphToJson(build(*zoo("megatron-gpt2-8.3b"), 1, 64, 2, false)), "exported.json");
        QVERIFY(exported.ok());
        auto split = (*exported)->build({1, 64, 2, 2, true});
        QVERIFY(!split.ok());
        QVERIFY2(split.message().find("drop --sequence-parallel") != std::string::npos,
                 split.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestModelParallelModes)
#include "test_model_parallel_modes.moc"
