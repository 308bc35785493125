#include "core/model/transformer_layer_ops.h"

#include <utility>

namespace tandem::core::model {

int TransformerLayerOps::norm(std::string name, std::vector<int> inputs, std::int64_t tokens) {
    CheckedArithmetic& math = ops_.math();
    const bool layerNorm = spec_.norm == NormKind::LayerNorm;
    const std::int64_t elements = math.mul({tokens, spec_.hidden});
    const int i = ops_.vector(std::move(name), layerNorm ? "layer_norm" : "rms_norm",
                              layerNorm ? vector_op_costs::kLayerNorm : vector_op_costs::kRmsNorm,
                              std::move(inputs), elements);
    // Gain always; LayerNorm also a bias when the model has biases (RMSNorm never has one).
    const std::int64_t parameters = layerNorm && spec_.biases ? 2 * spec_.hidden : spec_.hidden;
    ops_.at(i).parameterBytes = ops_.bytes(parameters);
    ops_.at(i).savedBytes = ops_.bytes(elements);
    return i;
}

int TransformerLayerOps::dropout(std::string name, int input, std::int64_t elements, bool sharded) {
    if (!spec_.dropout) return input;
    const int i =
        ops_.vector(std::move(name), "dropout", vector_op_costs::kDropout, from(input), elements);
    ops_.at(i).savedBytes = elements;  // the mask, one byte per element
    ops_.at(i).sharded = sharded;
    return i;
}

int TransformerLayerOps::columnLinear(std::string name, std::vector<int> inputs,
                                      std::int64_t tokens, std::int64_t outputs,
                                      std::int64_t inputSize, bool savesInput) {
    CheckedArithmetic& math = ops_.math();
    const std::int64_t shard = outputs / ops_.dims().t;  // callers checked divisibility
    const int i = ops_.linear(std::move(name), std::move(inputs), tokens, shard, inputSize);
    const std::int64_t parameters =
        math.add({math.mul({inputSize, shard}), spec_.biases ? shard : 0});
    ops_.at(i).parameterBytes = ops_.bytes(parameters);
    ops_.at(i).sharded = true;
    // With sequence parallelism Megatron keeps only the device's sequence shard of the
    // gathered input and gathers it again in the backward pass, overlapped with the dX GEMM.
    if (savesInput)
        ops_.at(i).savedBytes =
            ops_.bytes(math.mul({ops_.dims().sequenceShard(tokens), inputSize}));
    return i;
}

int TransformerLayerOps::rowLinear(std::string name, int input, std::int64_t tokens,
                                   std::int64_t outputs, std::int64_t inputSize) {
    CheckedArithmetic& math = ops_.math();
    const std::int64_t shard = inputSize / ops_.dims().t;  // callers checked divisibility
    const int i = ops_.linear(std::move(name), from(input), tokens, outputs, shard);
    ops_.at(i).parameterBytes = ops_.bytes(math.mul({shard, outputs}));
    ops_.at(i).sharded = true;
    ops_.at(i).savedBytes = ops_.bytes(math.mul({tokens, shard}));
    return i;
}

int TransformerLayerOps::rowParallelTail(const std::string& prefix, int linear,
                                         std::int64_t tokens) {
    const std::int64_t elements = ops_.math().mul({tokens, spec_.hidden});
    const std::int64_t local = ops_.math().mul({ops_.dims().sequenceShard(tokens), spec_.hidden});
    int x = linear;
    if (ops_.dims().t > 1) x = ops_.megatronG(prefix + ".g", from(x), elements);
    if (spec_.biases) {
        x = ops_.vector(prefix + ".out_bias", "bias_add", vector_op_costs::kBiasAdd, from(x),
                        local);
        ops_.at(x).parameterBytes = ops_.bytes(spec_.hidden);
    }
    return dropout(prefix + ".dropout_out", x, local, false);
}

int TransformerLayerOps::replicatedLinear(std::string name, std::vector<int> inputs,
                                          std::int64_t tokens, std::int64_t outputs,
                                          std::int64_t inputSize, bool bias, bool savesInput) {
    CheckedArithmetic& math = ops_.math();
    const int i = ops_.linear(std::move(name), std::move(inputs), tokens, outputs, inputSize);
    ops_.at(i).parameterBytes =
        ops_.bytes(math.add({math.mul({inputSize, outputs}), bias ? outputs : 0}));
    if (savesInput) ops_.at(i).savedBytes = ops_.bytes(math.mul({tokens, inputSize}));
    return i;
}

}  // namespace tandem::core::model
