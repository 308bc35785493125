#pragma once
// The operator graph of one transformer block for given build dimensions (all blocks of a model
// are identical, so one graph serves them all). Pre-LN (GPT-2/3, OPT ≥ 1.3b, Llama) or post-LN
// (BERT, OPT-350m); Megatron tensor parallelism with f/g operators when t > 1; rotary positions
// and grouped-query attention for Llama. The caller has checked that hidden, heads, kv heads
// and ffn are divisible by t; sizes that overflow are flagged in `math`.
#include <memory>

#include "core/common/expected.h"
#include "core/model/checked_arithmetic.h"
#include "core/model/layer_graph.h"
#include "core/model/operator_list_builder.h"
#include "core/model/transformer_spec.h"

namespace tandem::core::model {

Expected<std::shared_ptr<const LayerGraph>> buildTransformerBlock(const TransformerSpec& spec,
                                                                  const BuildDims& dims,
                                                                  CheckedArithmetic& math);

}  // namespace tandem::core::model
