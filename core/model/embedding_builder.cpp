#include "core/model/embedding_builder.h"

#include <vector>

#include "core/model/transformer_layer_ops.h"
#include "core/model/vector_op_costs.h"

namespace tandem::core::model {

Expected<std::shared_ptr<const LayerGraph>> buildEmbedding(const TransformerSpec& spec,
                                                           const BuildDims& dims,
                                                           CheckedArithmetic& math) {
    OperatorListBuilder ops(math, dims);
    TransformerLayerOps layer(spec, ops);
    const std::int64_t tokens = math.mul({dims.b, dims.s});
    const std::int64_t embedDim = spec.embeddingDim();
    // After the reduce-scatter (sequence parallelism) a device holds its shard of the tokens.
    const std::int64_t hiddenElements = math.mul({dims.sequenceShard(tokens), spec.hidden});
    const std::int64_t localVocab = math.ceilDiv(spec.vocab, dims.t);

    int x = ops.vector("embed.tokens", "embedding", vector_op_costs::kEmbeddingLookup, {},
                       math.mul({tokens, embedDim}));
    ops.at(x).parameterBytes = ops.bytes(math.mul({localVocab, embedDim}));
    ops.at(x).sharded = true;
    if (dims.t > 1) x = ops.megatronG("embed.g", {x}, math.mul({tokens, embedDim}));
    if (spec.projectionDim > 0) {
        x = layer.replicatedLinear("embed.project_in", {x}, tokens, spec.hidden, embedDim, false,
                                   true);
    }

    std::vector<int> summands{x};
    if (spec.positions == PositionKind::Learned) {
        const int positions = ops.vector("embed.positions", "embedding",
                                         vector_op_costs::kEmbeddingLookup, {}, hiddenElements);
        const std::int64_t rows = math.add({spec.maxSequence, spec.positionOffset});
        ops.at(positions).parameterBytes = ops.bytes(math.mul({rows, spec.hidden}));
        summands.push_back(positions);
    }
    if (spec.typeVocab > 0) {
        const int types = ops.vector("embed.token_types", "embedding",
                                     vector_op_costs::kEmbeddingLookup, {}, hiddenElements);
        ops.at(types).parameterBytes = ops.bytes(math.mul({spec.typeVocab, spec.hidden}));
        summands.push_back(types);
    }
    if (summands.size() > 1) {
        const auto count = std::int64_t(summands.size());
        x = ops.vector("embed.sum", "add", vector_op_costs::sumOf(count), summands, hiddenElements);
    }
    // BERT's and BLOOM's embedding LayerNorm, on the device's sequence shard under SP.
    if (spec.encoder || spec.embeddingNorm)
        x = layer.norm("embed.norm", {x}, dims.sequenceShard(tokens));
    layer.dropout("embed.dropout", x, hiddenElements, false);
    if (math.overflowed()) return Error{"embedding: sizes overflow 64-bit integers"};
    return LayerGraph::create("embedding", ops.take());
}

}  // namespace tandem::core::model
