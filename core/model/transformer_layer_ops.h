#pragma once
// The operators that recur across a transformer's embedding, blocks and head, built the way the
// spec asks for them: the norm (LayerNorm or RMSNorm, with or without bias), dropout (or none),
// and Megatron's column- and row-parallel linears with their bias conventions. Each records what
// it must keep for the backward pass, so that the per-block sum matches Korthikanti et al.'s
// activation-memory accounting.
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/operator_list_builder.h"
#include "core/model/transformer_spec.h"

namespace tandem::core::model {

class TransformerLayerOps {
public:
    TransformerLayerOps(const TransformerSpec& spec, OperatorListBuilder& ops)
        : spec_(spec), ops_(ops) {}

    // A replicated norm over `tokens`×hidden elements; saves its input.
    int norm(std::string name, std::vector<int> inputs, std::int64_t tokens);
    // Dropout over `elements` (saves a 1-byte mask); returns `input` unchanged when the model
    // trains without dropout.
    int dropout(std::string name, int input, std::int64_t elements, bool sharded);
    // Column-parallel linear: `outputs` split over t (weights and bias sharded). It saves its
    // input unless another operator already keeps the same tensor (savesInput = false).
    int columnLinear(std::string name, std::vector<int> inputs, std::int64_t tokens,
                     std::int64_t outputs, std::int64_t inputSize, bool savesInput);
    // Row-parallel linear: `inputs` split over t; the bias is not part of it (it is replicated
    // and added after the all-reduce, see rowParallelTail).
    int rowLinear(std::string name, int input, std::int64_t tokens, std::int64_t outputs,
                  std::int64_t inputSize);
    // After a row-parallel linear: g (t > 1), the replicated bias add (if biases), dropout.
    int rowParallelTail(const std::string& prefix, int linear, std::int64_t tokens);
    // A replicated linear (no tensor parallelism), e.g. OPT's projections or BERT's pooler.
    int replicatedLinear(std::string name, std::vector<int> inputs, std::int64_t tokens,
                         std::int64_t outputs, std::int64_t inputSize, bool bias, bool savesInput);

    OperatorListBuilder& ops() { return ops_; }

private:
    const TransformerSpec& spec_;
    OperatorListBuilder& ops_;
};

}  // namespace tandem::core::model
