#pragma once
// Hyper-parameters of a transformer, enough to build GPT-2/GPT-3, BERT, OPT and Llama graphs
// (as published in each model's paper and Hugging Face model card). Field names follow the JSON
// keys of the native model format's "transformer" form.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"

namespace tandem::core::model {

enum class NormKind { LayerNorm, RmsNorm };

// A fixed (Megatron-style) parallel strategy: p pipeline stages of ⌈L/p⌉ transformer layers, each
// stage on t devices, d data-parallel replicas. The baselines of the PHAZE paper are these.
struct ParallelStrategy {
    std::int64_t pipeline = 0;  // p; 0 means "none given"
    std::int64_t data = 0;      // d
    std::int64_t tensor = 0;    // t
    bool given() const { return pipeline > 0 && data > 0 && tensor > 0; }
    bool operator==(const ParallelStrategy&) const = default;
};
enum class Activation { Gelu, Relu, SwiGlu };
// Alibi (Press et al. 2022; BLOOM): no position table, a per-head linear bias added to the
// attention scores.
enum class PositionKind { Learned, Rotary, Alibi };

struct TransformerSpec {
    std::string name;    // zoo name, e.g. "gpt3-175b"
    std::string family;  // "gpt2", "gpt3", "bert", "opt", "llama"
    std::string description;
    std::int64_t layers = 0;
    std::int64_t hidden = 0;
    std::int64_t heads = 0;
    std::int64_t kvHeads = 0;  // grouped-query attention; 0 means = heads
    std::int64_t ffn = 0;      // intermediate size
    std::int64_t vocab = 0;
    std::int64_t maxSequence = 0;     // also the default sequence length
    std::int64_t typeVocab = 0;       // BERT token types (0: none)
    std::int64_t projectionDim = 0;   // OPT-350m word_embed_proj_dim (0: none)
    std::int64_t positionOffset = 0;  // extra rows of the learned position table (OPT: 2)
    NormKind norm = NormKind::LayerNorm;
    bool preNorm = true;  // false: post-LN (BERT, OPT-350m)
    Activation activation = Activation::Gelu;
    PositionKind positions = PositionKind::Learned;
    bool tiedEmbeddings = true;  // output head shares the token embedding
    bool biases = true;          // linears and norms carry biases (Llama: none)
    bool dropout = true;         // training-time dropout ops (Llama: none)
    bool encoder = false;        // bidirectional encoder with BERT's MLM + NSP heads
    bool embeddingNorm = false;  // a LayerNorm after the embeddings (BLOOM; BERT's encoders too)
    std::vector<std::int64_t> tensorParallelWidths;  // widths to search; empty: all divisors ≤ 8
    ParallelStrategy baseline;  // the fixed strategy placements are compared with
    bool operator==(const TransformerSpec&) const = default;

    std::int64_t kvHeadCount() const { return kvHeads == 0 ? heads : kvHeads; }
    std::int64_t headDim() const { return heads > 0 ? hidden / heads : 0; }
    std::int64_t embeddingDim() const { return projectionDim > 0 ? projectionDim : hidden; }
};

// Names as they appear in the model file: "layer_norm"/"rms_norm", "gelu"/"relu"/"swiglu",
// "learned"/"rotary"/"alibi".
std::string_view toString(NormKind v);
std::string_view toString(Activation v);
std::string_view toString(PositionKind v);
bool parseNormKind(std::string_view text, NormKind& out);
bool parseActivation(std::string_view text, Activation& out);
bool parsePositionKind(std::string_view text, PositionKind& out);

// Checks the hyper-parameters on their own (positive sizes, hidden divisible by heads, heads by
// kv heads, tensor-parallel widths >= 1, a name and a family); errors name the field and value.
Status validateTransformerSpec(const TransformerSpec& spec);

}  // namespace tandem::core::model
