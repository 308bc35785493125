// The attention softmax without FlashAttention (docs/cost-model.md, "Attention softmax"): the
// builder emits Megatron's fused scale-mask-softmax kernel exactly for the shapes Megatron's
// FusedScaleMaskSoftmax.is_kernel_available accepts, and PyTorch's unfused fp32 path (cast,
// scale, masked_fill, softmax, cast back) for the others. The oracle restates Megatron's test
// literally, with the thread-block rows computed as its CUDA helper get_batch_per_block does
// (warp size, batches per warp, 128 threads per block), over a grid of microbatches, sequence
// lengths, tensor-parallel widths and element sizes of a decoder and an encoder.
// phaze-compat's graphs (softmaxShapeRule off) keep the fused kernel for every shape.
#include <QtTest>

#include <string>

#include "tests/core/model/model_test_support.h"  // the zoo, transformer specs, operators

using namespace tandem::core;
using namespace tandem::core::model;

namespace {

using tandem::test::specOf;
using tandem::test::zoo;
constexpr auto find = tandem::test::findOperator;

// get_batch_per_block(sq, sk, b, np) of Megatron's scaled_masked_softmax.h, step by step.
std::int64_t batchPerBlock(std::int64_t sk) {
    int log2Elements = 0;
    while ((std::int64_t(1) << log2Elements) < sk) ++log2Elements;
    const std::int64_t nextPowerOfTwo = std::int64_t(1) << log2Elements;
    const std::int64_t warpSize = nextPowerOfTwo < 32 ? nextPowerOfTwo : 32;
    const std::int64_t batchesPerWarp = nextPowerOfTwo <= 128 ? 2 : 1;
    const std::int64_t threadsPerBlock = 128;
    const std::int64_t warpsPerBlock = threadsPerBlock / warpSize;
    return warpsPerBlock * batchesPerWarp;
}

// is_kernel_available(mask, b, np, sq, sk) with the fusion on and self-attention (sq = sk).
bool megatronFuses(std::int64_t b, std::int64_t np, std::int64_t s, std::int64_t e, bool causal) {
    const std::int64_t attnBatches = b * np, sq = s, sk = s;
    const bool inputInFloat16 = e == 2;
    if (inputInFloat16 && 16 < sk && sk <= 4096 && sq % 4 == 0 && sk % 4 == 0 &&
        attnBatches % 4 == 0) {
        const std::int64_t perBlock = batchPerBlock(sk);
        if (causal) return attnBatches % perBlock == 0;
        return sq % perBlock == 0;
    }
    return false;
}

}  // namespace

class TestAttentionSoftmax : public QObject {
    Q_OBJECT

private slots:
    void fusedExactlyWhereMegatronFuses() {
        int fused = 0, unfused = 0;
        for (const char* name : {"megatron-gpt2-8.3b", "llama3-8b", "bert-large"}) {
            const auto source = zoo(name);
            const TransformerSpec& spec = specOf(*source);
            for (std::int64_t s : {16, 20, 24, 64, 100, 128, 132, 256, 512, 1024, 4096, 4100})
                for (std::int64_t t : {1, 2, 4, 8, 16})
                    for (std::int64_t b : {1, 2, 3})
                        for (std::int64_t e : {2, 4}) {
                            BuildOptions options{b, s, t, e, false};
                            auto graph = source->build(options);
                            if (!graph.ok()) continue;  // t or s the model cannot take
                            const LayerGraph& layer = *graph->layers()[1].graph;
                            const bool expected =
                                megatronFuses(b, spec.heads / t, s, e, !spec.encoder);
                            const QString where = QString("%1 s %2 t %3 b %4 e %5")
                                                      .arg(name)
                                                      .arg(s)
                                                      .arg(t)
                                                      .arg(b)
                                                      .arg(e);
                            const Operator* softmax = find(layer.forward(), "attn.softmax");
                            QVERIFY2(softmax, qPrintable(where));
                            const bool unfusedBuilt = find(layer.forward(), "attn.softmax.mask");
                            QVERIFY2(unfusedBuilt == !expected, qPrintable(where));
                            QVERIFY2(bool(find(layer.forward(), "attn.softmax.to_fp32")) ==
                                         (!expected && e == 2),
                                     qPrintable(where));
                            // The fused kernel keeps its e-byte output, PyTorch's softmax its
                            // fp32 one.
                            const std::int64_t scores = b * (spec.heads / t) * s * s;
                            QCOMPARE(softmax->savedBytes,
                                     expected ? scores * e : scores * std::max<std::int64_t>(e, 4));
                            (expected ? fused : unfused) += 1;
                            // phaze-compat's graph: the fused kernel whatever the shape.
                            options.softmaxShapeRule = false;
                            auto phaze = source->build(options);
                            QVERIFY(phaze.ok());
                            const LayerGraph& plain = *phaze->layers()[1].graph;
                            QVERIFY2(!find(plain.forward(), "attn.softmax.mask"),
                                     qPrintable(where));
                            QCOMPARE(find(plain.forward(), "attn.softmax")->savedBytes, scores * e);
                        }
        }
        qInfo("%d fused and %d unfused shapes checked", fused, unfused);
        QVERIFY(fused > 50 && unfused > 50);
    }

    // Three score matrices per device (24 heads, t = 8, microbatch 1; the single-node runs' t = 8,
    // microbatch 1 have two) take the unfused path: four more kernels each way, and their HBM
    // traffic in fp32.
    void unfusedPathCostsKernelsAndTraffic() {
        const auto source = zoo("megatron-gpt2-8.3b");
        QCOMPARE(specOf(*source).heads, std::int64_t(24));
        const std::int64_t t = 8, s = 1024;  // b·a/t = 3
        BuildOptions options{1, s, t, 2, false};
        const ModelGraph unfused = tandem::test::buildOrDie(*source, options);
        options.softmaxShapeRule = false;
        const ModelGraph fused = tandem::test::buildOrDie(*source, options);
        const LayerGraph& a = *unfused.layers()[1].graph;
        const LayerGraph& b = *fused.layers()[1].graph;
        QCOMPARE(a.forward().size(), b.forward().size() + 4);
        QCOMPARE(a.backward().size(), b.backward().size() + 4);
        const std::int64_t scores = 3 * s * s;
        std::int64_t streamed = 0;
        for (const char* name : {"attn.softmax.to_fp32", "attn.softmax.scale", "attn.softmax.mask",
                                 "attn.softmax", "attn.softmax.to_input"}) {
            const Operator* op = find(a.forward(), name);
            QVERIFY2(op && op->elements == scores, name);
            streamed += op->streamedTensors;
        }
        // 2 + 4, 4 + 4, 4 + 4, 4 + 4, 4 + 2 bytes per score: 36 bytes, 18 two-byte tensors,
        // against the fused kernel's 2 + 2.
        QCOMPARE(streamed, std::int64_t(18));
        QCOMPARE(find(b.forward(), "attn.softmax")->streamedTensors, std::int64_t(2));
    }
};

QTEST_APPLESS_MAIN(TestAttentionSoftmax)
#include "test_attention_softmax.moc"
