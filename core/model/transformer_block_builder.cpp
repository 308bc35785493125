#include "core/model/transformer_block_builder.h"

#include <algorithm>
#include <vector>

#include "core/model/transformer_layer_ops.h"
#include "core/model/vector_op_costs.h"

namespace tandem::core::model {

namespace {

// FlashAttention (Dao et al. 2022; FlashAttention-2/3, cuDNN's fused attention under
// Transformer Engine): scores, mask, softmax, dropout and context in one kernel whose score
// tiles never leave the chip. A Fused op: the two GEMMs as one of reduction 2·head dim over
// the key range (half of it, plus the diagonal tiles' other half, for a causal decoder:
// FlashAttention skips the masked tiles), the online softmax as its epilogue over the same scores,
// and HBM traffic of Q, K, V, the output and the fp32 row statistics only. It keeps Q, K, V and the
// statistics for its backward (the output is attn.out's saved input); nothing s²-sized, so
// selective recomputation has nothing left to drop.
int flashAttentionCore(const TransformerSpec& spec, OperatorListBuilder& ops,
                       std::vector<int> inputs, std::int64_t batch, std::int64_t qkElements) {
    CheckedArithmetic& math = ops.math();
    const BuildDims& d = ops.dims();
    const std::int64_t headDim = spec.headDim();
    const std::int64_t tokens = math.mul({d.b, d.s});
    const std::int64_t localHeads = spec.heads / d.t;
    const std::int64_t localKvHeads = spec.kvHeadCount() / d.t;
    constexpr std::int64_t kTile = 128;  // the kernels' key-block size
    const std::int64_t keys = spec.encoder ? d.s : std::min(d.s, (d.s + 1) / 2 + kTile / 2);
    const std::int64_t vElements = math.mul({tokens, localKvHeads, headDim});
    const std::int64_t outElements = math.mul({tokens, localHeads, headDim});
    const std::int64_t statistics = math.mul({batch, d.s, 4});  // fp32 log-sum-exp per row
    const int core = ops.bmm("attn.core", std::move(inputs), batch, d.s, keys, 2 * headDim);
    Operator& op = ops.at(core);
    op.kind = "flash_attention";
    op.opClass = OpClass::Fused;
    op.backwardRule = BackwardRule::FusedAttention;
    op.elements = math.mul({batch, d.s, keys});
    op.cyclesPerElement = vector_op_costs::kScaleMaskSoftmax.forwardCyclesPerElement;
    op.backwardCyclesPerElement = vector_op_costs::kScaleMaskSoftmax.forwardCyclesPerElement +
                                  vector_op_costs::kScaleMaskSoftmax.backwardCyclesPerElement;
    if (spec.positions == PositionKind::Alibi) {       // the bias, added again when the backward
        op.cyclesPerElement += vector_op_costs::kAdd;  // recomputes the scores
        op.backwardCyclesPerElement += vector_op_costs::kAdd;
    }
    op.outputBytes = ops.bytes(outElements);
    op.streamedBytes =
        math.add({ops.bytes(math.add({qkElements, vElements, outElements})), statistics});
    op.savedBytes = math.add({ops.bytes(math.add({qkElements, vElements})), statistics});
    op.sharded = true;
    return core;
}

// Megatron's FusedScaleMaskSoftmax (megatron/core/fusions/fused_softmax.py and Megatron-
// DeepSpeed's copy, is_kernel_available): the fused kernel takes 2-byte scores with
// 16 < sk <= 4096, sq and sk multiples of 4 and b·a/t a multiple of 4 — causal, also of the rows
// one thread block takes (4 for sk > 128, else 8); padding-masked, sq a multiple of them.
bool fusedSoftmaxRuns(std::int64_t attnBatches, std::int64_t s, std::int64_t bytesPerElement,
                      bool causal) {
    if (bytesPerElement != 2 || s <= 16 || s > 4096 || s % 4 != 0 || attnBatches % 4 != 0)
        return false;
    const std::int64_t rowsPerBlock = s > 128 ? 4 : 8;
    return causal ? attnBatches % rowsPerBlock == 0 : s % rowsPerBlock == 0;
}

// The scale-mask-softmax over the scores: one fused kernel, or PyTorch's unfused path as
// Megatron's forward_torch_softmax runs it with the softmax in fp32 (Megatron's default with
// query-key layer scaling): cast to fp32, scale, masked_fill, softmax, cast back — five kernels
// each way, fp32 tensors between them, the fp32 softmax output kept for the backward pass.
// Streamed tensors count e-byte tensors, so an fp32 one is 4/e of them. Returns the ops' indices
// in order; the last is the probabilities' (e-byte) tensor.
std::vector<int> scaleMaskSoftmax(const TransformerSpec& spec, OperatorListBuilder& ops, int scores,
                                  std::int64_t batch, std::int64_t elements) {
    const BuildDims& d = ops.dims();
    const bool alibi = spec.positions == PositionKind::Alibi;
    if (!d.softmaxShapeRule || fusedSoftmaxRuns(batch, d.s, d.e, !spec.encoder)) {
        const int softmax = ops.vector("attn.softmax", "softmax",
                                       vector_op_costs::kScaleMaskSoftmax, {scores}, elements);
        // ALiBi's per-head linear bias is one more add per score before the softmax (its
        // backward passes the gradient through unchanged).
        if (alibi) ops.at(softmax).cyclesPerElement += vector_op_costs::kAdd;
        ops.at(softmax).savedBytes = ops.bytes(elements);  // its output
        return {softmax};
    }
    using namespace vector_op_costs;
    const bool casts = d.e == 2;                   // fp16/bf16 scores: to fp32 and back
    const std::int64_t w = d.e < 4 ? 4 / d.e : 1;  // e-byte tensors per fp32 (or wider) tensor
    std::vector<int> chain;
    int x = scores;
    const auto add = [&](const char* name, const char* kind, VectorOpCost cost) {
        x = ops.vector(name, kind, cost, {x}, elements);
        chain.push_back(x);
    };
    if (casts) add("attn.softmax.to_fp32", "cast", {1, 1, 1 + w, w + 1});
    add("attn.softmax.scale", "mul", {kMul, kMul, 2 * w, 2 * w});
    add("attn.softmax.mask", "masked_fill", {kAdd, kAdd, 2 * w, 2 * w});
    add("attn.softmax", "softmax", {kSoftmaxForward, kSoftmaxBackward, 2 * w, 3 * w});
    if (alibi) ops.at(x).cyclesPerElement += kAdd;
    ops.at(x).savedBytes = ops.math().mul({ops.bytes(elements), w});  // the fp32 output
    if (casts) add("attn.softmax.to_input", "cast", {1, 1, w + 1, 1 + w});
    return chain;
}

// Attention: qkv (column-parallel) → [rotary] → scores → scale+mask+softmax → [dropout] →
// context → out (row-parallel) → g, bias, dropout. Returns the last op before the residual.
int attention(const TransformerSpec& spec, TransformerLayerOps& layer, int input) {
    OperatorListBuilder& ops = layer.ops();
    CheckedArithmetic& math = ops.math();
    const BuildDims& d = ops.dims();
    const std::int64_t tokens = math.mul({d.b, d.s});
    const std::int64_t headDim = spec.headDim();
    const std::int64_t localHeads = spec.heads / d.t;
    const std::int64_t localKvHeads = spec.kvHeadCount() / d.t;
    const std::int64_t qkvWidth =
        math.mul({math.add({spec.heads, 2 * spec.kvHeadCount()}), headDim});

    int x = input;
    if (d.t > 1) x = ops.megatronF("attn.f", from(x), math.mul({tokens, spec.hidden}));
    const int qkv = layer.columnLinear("attn.qkv", from(x), tokens, qkvWidth, spec.hidden, true);
    // Q and K (after rotary, if any) are what the scores product keeps; V is kept by context.
    const std::int64_t qkElements =
        math.mul({tokens, math.add({localHeads, localKvHeads}), headDim});
    int qk = qkv;
    if (spec.positions == PositionKind::Rotary) {
        qk = ops.vector("attn.rotary", "rotary", vector_op_costs::kRotary, {qkv}, qkElements);
        ops.at(qk).sharded = true;
    }
    const std::int64_t batch = math.mul({d.b, localHeads});
    const std::int64_t attended = math.mul({spec.heads, headDim});
    if (d.flash) {
        std::vector<int> inputs{qk};
        if (qkv != qk) inputs.push_back(qkv);  // rotary Q and K, and V straight from qkv
        const int core = flashAttentionCore(spec, ops, std::move(inputs), batch, qkElements);
        const int out = layer.rowLinear("attn.out", core, tokens, spec.hidden, attended);
        return layer.rowParallelTail("attn", out, tokens);
    }
    // Selective recomputation drops the s²-sized tensors of the attention core (the softmax
    // output, the dropout mask and the dropped-out probabilities) and reruns the scores,
    // softmax and dropout in the backward pass from the Q and K that the scores keep.
    const int scores = ops.bmm("attn.scores", {qk}, batch, d.s, d.s, headDim);
    ops.at(scores).savedBytes = ops.bytes(qkElements);
    ops.at(scores).sharded = true;
    ops.at(scores).selectiveRecompute = true;

    const std::int64_t scoreElements = math.mul({batch, d.s, d.s});
    const std::vector<int> chain = scaleMaskSoftmax(spec, ops, scores, batch, scoreElements);
    for (int op : chain) {
        ops.at(op).discardedBytes = ops.at(op).savedBytes;
        ops.at(op).sharded = true;
        ops.at(op).selectiveRecompute = true;
    }
    const int softmax = chain.back();
    const int probs = layer.dropout("attn.dropout", softmax, scoreElements, true);
    if (probs != softmax) {
        ops.at(probs).discardedBytes = ops.at(probs).savedBytes;
        ops.at(probs).selectiveRecompute = true;
    }

    const int context = ops.bmm("attn.context", {probs, qkv}, batch, d.s, headDim, d.s);
    const std::int64_t vBytes = ops.bytes(math.mul({tokens, localKvHeads, headDim}));
    // Without dropout the probabilities are the fused softmax's output, which it already keeps
    // (the unfused path keeps its fp32 output instead, so the context keeps the probabilities).
    const bool kept = probs == softmax && chain.size() == 1;
    ops.at(context).savedBytes = kept ? vBytes : math.add({ops.bytes(scoreElements), vBytes});
    ops.at(context).discardedBytes = kept ? 0 : ops.bytes(scoreElements);
    ops.at(context).sharded = true;

    const int out = layer.rowLinear("attn.out", context, tokens, spec.hidden, attended);
    return layer.rowParallelTail("attn", out, tokens);
}

// MLP: fc1 (or gate and up) column-parallel → activation → fc2 row-parallel → g, bias, dropout.
int mlp(const TransformerSpec& spec, TransformerLayerOps& layer, int input) {
    OperatorListBuilder& ops = layer.ops();
    CheckedArithmetic& math = ops.math();
    const BuildDims& d = ops.dims();
    const std::int64_t tokens = math.mul({d.b, d.s});
    const std::int64_t localFfn = math.mul({tokens, spec.ffn / d.t});

    int x = input;
    if (d.t > 1) x = ops.megatronF("mlp.f", from(x), math.mul({tokens, spec.hidden}));
    int act = -1;
    if (spec.activation == Activation::SwiGlu) {
        const int gate =
            layer.columnLinear("mlp.gate", from(x), tokens, spec.ffn, spec.hidden, true);
        // up reads the same tensor as gate: it is kept once.
        const int up = layer.columnLinear("mlp.up", from(x), tokens, spec.ffn, spec.hidden, false);
        act = ops.vector("mlp.act", "silu_mul", vector_op_costs::kSiluMul, {gate, up}, localFfn);
        ops.at(act).savedBytes = math.mul({2, ops.bytes(localFfn)});
    } else {
        const int fc1 = layer.columnLinear("mlp.fc1", from(x), tokens, spec.ffn, spec.hidden, true);
        const bool gelu = spec.activation == Activation::Gelu;
        act = ops.vector("mlp.act", gelu ? "gelu" : "relu",
                         gelu ? vector_op_costs::kGelu : vector_op_costs::kRelu, {fc1}, localFfn);
        // GELU keeps its input; ReLU's backward needs only its output, which fc2 keeps anyway.
        ops.at(act).savedBytes = gelu ? ops.bytes(localFfn) : 0;
    }
    ops.at(act).sharded = true;
    const int fc2 = layer.rowLinear("mlp.fc2", act, tokens, spec.hidden, spec.ffn);
    return layer.rowParallelTail("mlp", fc2, tokens);
}

}  // namespace

Expected<std::shared_ptr<const LayerGraph>> buildTransformerBlock(const TransformerSpec& spec,
                                                                  const BuildDims& dims,
                                                                  CheckedArithmetic& math) {
    OperatorListBuilder ops(math, dims);
    TransformerLayerOps layer(spec, ops);
    const std::int64_t tokens = math.mul({dims.b, dims.s});
    // Norms and residual adds work on the device's sequence shard (all tokens without SP).
    const std::int64_t shard = dims.sequenceShard(tokens);
    const std::int64_t hiddenElements = math.mul({shard, spec.hidden});
    const auto residual = [&](const char* name, std::vector<int> inputs) {
        return ops.vector(name, "add", vector_op_costs::kResidualAdd, std::move(inputs),
                          hiddenElements);
    };

    if (spec.preNorm) {
        // x + attn(norm(x)), then h + mlp(norm(h)); the block input is the implicit second
        // operand of the first residual.
        const int norm1 = layer.norm("attn.norm", {}, shard);
        const int attnOut = attention(spec, layer, norm1);
        const int res1 = residual("attn.residual", {attnOut});
        const int norm2 = layer.norm("mlp.norm", {res1}, shard);
        const int mlpOut = mlp(spec, layer, norm2);
        residual("mlp.residual", {mlpOut, res1});
    } else {
        // norm(x + attn(x)), then norm(h + mlp(h)).
        const int attnOut = attention(spec, layer, -1);
        const int res1 = residual("attn.residual", {attnOut});
        const int norm1 = layer.norm("attn.norm", {res1}, shard);
        const int mlpOut = mlp(spec, layer, norm1);
        const int res2 = residual("mlp.residual", {mlpOut, norm1});
        layer.norm("mlp.norm", {res2}, shard);
    }
    if (math.overflowed()) return Error{"transformer block: sizes overflow 64-bit integers"};
    return LayerGraph::create("transformer", ops.take());
}

}  // namespace tandem::core::model
