#include "core/model/head_builder.h"

#include <string>

#include "core/model/transformer_layer_ops.h"
#include "core/model/vector_op_costs.h"

namespace tandem::core::model {

namespace {

// Logits over the local ⌈V/t⌉ vocabulary rows and the loss over them.
void logitsAndLoss(const TransformerSpec& spec, OperatorListBuilder& ops, int input,
                   std::int64_t inputSize, const char* logitsName, const char* lossName,
                   bool ownBias) {
    CheckedArithmetic& math = ops.math();
    const BuildDims& d = ops.dims();
    const std::int64_t tokens = math.mul({d.b, d.s});
    const std::int64_t localVocab = math.ceilDiv(spec.vocab, d.t);
    int x = input;
    if (d.t > 1) x = ops.megatronF("head.f", from(x), math.mul({tokens, inputSize}));
    const int logits = ops.linear(logitsName, from(x), tokens, localVocab, inputSize);
    const std::int64_t weightBytes = ops.bytes(math.mul({localVocab, inputSize}));
    if (spec.tiedEmbeddings) {
        ops.at(logits).tiedParameterBytes = weightBytes;
        if (ownBias) ops.at(logits).parameterBytes = ops.bytes(localVocab);
    } else {
        ops.at(logits).parameterBytes =
            math.add({weightBytes, ownBias ? ops.bytes(localVocab) : 0});
    }
    ops.at(logits).sharded = true;
    ops.at(logits).savedBytes = ops.bytes(math.mul({tokens, inputSize}));

    const std::int64_t logitElements = math.mul({tokens, localVocab});
    const int loss = ops.vector(lossName, "cross_entropy", vector_op_costs::kSoftmaxCrossEntropy,
                                {logits}, logitElements);
    ops.at(loss).savedBytes = ops.bytes(logitElements);  // the softmax, for the gradient
    ops.at(loss).outputBytes = ops.bytes(tokens);        // one loss value per token
    ops.at(loss).sharded = true;
    // Megatron's vocabulary-parallel cross entropy all-reduces three fp32 values per token over
    // the t ranks: the row maxima, the target logits and the sums of exponentials.
    if (d.t > 1) {
        const std::int64_t statistics = math.mul({tokens, 4});
        int last = loss;
        for (const char* what : {".max", ".target", ".sum"})
            last = ops.forwardAllReduce(std::string(lossName) + what, {last}, statistics);
    }
}

void bertHeads(const TransformerSpec& spec, TransformerLayerOps& layer) {
    OperatorListBuilder& ops = layer.ops();
    CheckedArithmetic& math = ops.math();
    const BuildDims& d = ops.dims();
    const std::int64_t tokens = math.mul({d.b, d.s});
    const std::int64_t h = spec.hidden;
    const bool bias = spec.biases;

    // Masked LM: transform (replicated, as in Megatron-BERT), then the tied decoder.
    const int dense = layer.replicatedLinear("head.mlm.dense", {}, tokens, h, h, bias, true);
    const std::int64_t elements = math.mul({tokens, h});
    const int gelu = ops.vector("head.mlm.act", "gelu", vector_op_costs::kGelu, {dense}, elements);
    ops.at(gelu).savedBytes = ops.bytes(elements);
    const int norm = layer.norm("head.mlm.norm", {gelu}, tokens);
    logitsAndLoss(spec, ops, norm, h, "head.mlm.decoder", "head.mlm.loss", bias);

    // Pooler over the first token of each sequence, then next-sentence prediction (2 classes).
    const int pooler = layer.replicatedLinear("head.pooler.dense", {}, d.b, h, h, bias, true);
    const std::int64_t pooled = math.mul({d.b, h});
    const int tanh =
        ops.vector("head.pooler.act", "tanh", vector_op_costs::kTanh, {pooler}, pooled);
    ops.at(tanh).savedBytes = ops.bytes(pooled);  // its output, also the classifier's input
    const int nsp = layer.replicatedLinear("head.nsp.classifier", {tanh}, d.b, 2, h, bias, false);
    const int nspLoss =
        ops.vector("head.nsp.loss", "cross_entropy", vector_op_costs::kSoftmaxCrossEntropy, {nsp},
                   math.mul({d.b, 2}));
    ops.at(nspLoss).savedBytes = ops.bytes(math.mul({d.b, 2}));
    ops.at(nspLoss).outputBytes = ops.bytes(d.b);
}

}  // namespace

Expected<std::shared_ptr<const LayerGraph>> buildHead(const TransformerSpec& spec,
                                                      const BuildDims& dims,
                                                      CheckedArithmetic& math) {
    OperatorListBuilder ops(math, dims);
    TransformerLayerOps layer(spec, ops);
    const std::int64_t tokens = math.mul({dims.b, dims.s});
    if (spec.encoder) {
        bertHeads(spec, layer);
    } else {
        int x = -1;
        if (spec.preNorm) x = layer.norm("head.norm", {}, dims.sequenceShard(tokens));
        if (spec.projectionDim > 0) {
            x = layer.replicatedLinear("head.project_out", from(x), tokens, spec.projectionDim,
                                       spec.hidden, false, true);
        }
        logitsAndLoss(spec, ops, x, spec.embeddingDim(), "head.logits", "head.loss", false);
    }
    if (math.overflowed()) return Error{"head: sizes overflow 64-bit integers"};
    return LayerGraph::create("head", ops.take());
}

}  // namespace tandem::core::model
