#pragma once
// Hugging Face `config.json` → TransformerSpec → TransformerSource, without weights. Supported
// `model_type`s: gpt2, bert, opt, llama and mistral (grouped-query attention through
// `num_key_value_heads`); the field names per family are those of the published config.json files
// on the models' Hugging Face model cards (examples in tests/data/importers/hf/).
// The default sequence length is the config's n_positions / max_position_embeddings (callers
// override it with BuildOptions::sequenceLength). Fields that would change the architecture in
// a way the transformer builder cannot express (cross-attention, non-absolute BERT positions,
// biased Llama projections, a head size that is not hidden/heads, …) are errors rather than
// being ignored; Mistral's sliding window limits the sequence length (where windowed attention
// equals full attention) and says so in a warning. Every error names the file, the field, the
// value found and what is allowed; an unknown model_type lists the supported ones.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/importers/loaded_model.h"
#include "core/model/transformer_spec.h"

namespace tandem::core::importers {

struct HfConfigImport {
    model::TransformerSpec spec;
    std::vector<std::string> warnings;
};

// "gpt2, bert, opt, llama, mistral"
std::string supportedHfModelTypes();

// `sourceName` prefixes messages; `modelName` becomes the spec's name.
Expected<HfConfigImport> parseHfConfig(std::string_view text, const std::string& sourceName,
                                       const std::string& modelName);

// Reads the file and builds the source. The model is named after the file ("gpt2-xl.json" →
// "gpt2-xl"), or after its folder when the file is called config.json.
Expected<LoadedModel> importHfConfig(const std::filesystem::path& path);

// How a JSON model file is told apart: a native Tandem file has a "format" key, a Hugging Face
// config a "model_type" key. Invalid JSON, a non-object or neither key is an error.
enum class JsonModelFormat { TandemModel, HuggingFaceConfig };
Expected<JsonModelFormat> detectJsonModelFormat(std::string_view text,
                                                const std::string& sourceName);

}  // namespace tandem::core::importers
