#pragma once
// The embedding layer of a transformer: the vocabulary-parallel token lookup (each of the t
// devices holds ⌈V/t⌉ rows and an all-reduce sums the partial lookups, as in Megatron), OPT-350m's
// projection up to the hidden size, learned position and BERT token-type embeddings, BERT's
// embedding LayerNorm, and dropout.
#include <memory>

#include "core/common/expected.h"
#include "core/model/checked_arithmetic.h"
#include "core/model/layer_graph.h"
#include "core/model/operator_list_builder.h"
#include "core/model/transformer_spec.h"

namespace tandem::core::model {

Expected<std::shared_ptr<const LayerGraph>> buildEmbedding(const TransformerSpec& spec,
                                                           const BuildDims& dims,
                                                           CheckedArithmetic& math);

}  // namespace tandem::core::model
