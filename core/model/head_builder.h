#pragma once
// The output layer of a transformer. Decoders: the final norm (pre-LN models only), OPT-350m's
// projection back to the embedding size, Megatron's f, the vocabulary-parallel logits GEMM
// (m = b·s, k = embedding size, n = ⌈V/t⌉; its weights are tied to the token embedding unless the
// spec says otherwise) and the softmax cross-entropy over the local logits. BERT: the masked-LM
// head (dense + GELU + LayerNorm + tied decoder with its own bias) and the pooler with the
// next-sentence classifier, so that the parameter count matches the published one.
#include <memory>

#include "core/common/expected.h"
#include "core/model/checked_arithmetic.h"
#include "core/model/layer_graph.h"
#include "core/model/operator_list_builder.h"
#include "core/model/transformer_spec.h"

namespace tandem::core::model {

Expected<std::shared_ptr<const LayerGraph>> buildHead(const TransformerSpec& spec,
                                                      const BuildDims& dims,
                                                      CheckedArithmetic& math);

}  // namespace tandem::core::model
