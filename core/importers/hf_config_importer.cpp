// Hugging Face config.json importer (hf_config_importer.h). A malformed field throws a
// ConfigError internally; the public functions catch it (and nlohmann's own exceptions) at the
// boundary, so nothing escapes as an exception.
#include "core/importers/hf_config_importer.h"

#include <array>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/common/json_document.h"
#include "core/common/text_file.h"
#include "core/model/transformer_source.h"

namespace tandem::core::importers {

namespace {

using json = nlohmann::json;
using model::Activation;
using model::NormKind;
using model::PositionKind;
using model::TransformerSpec;

constexpr std::array<std::string_view, 6> kModelTypes{"gpt2",  "bert",    "opt",
                                                      "llama", "mistral", "bloom"};

struct ConfigError {
    std::string message;
};

// Containers are described, not dumped: a pathological document must not drive a deep dump.
std::string shown(const json& value) {
    if (value.is_object()) return "an object";
    if (value.is_array()) return "an array";
    return jsonExcerpt(value, 60);
}

// Reads typed fields of one config object; every message names the field and the model_type.
class FieldReader {
public:
    FieldReader(const json& config, std::string modelType)
        : config_(config), modelType_(std::move(modelType)) {}

    [[noreturn]] void fail(std::string_view field, const std::string& problem) const {
        throw ConfigError{"field '" + std::string(field) + "' " + problem};
    }

    const json* find(std::string_view field) const {
        const auto it = config_.find(field);
        return it == config_.end() ? nullptr : &*it;
    }
    // Absent or null: HF writes optional values as null.
    bool absent(std::string_view field) const {
        const json* value = find(field);
        return !value || value->is_null();
    }

    std::int64_t integer(std::string_view field, std::int64_t minimum,
                         std::optional<std::int64_t> fallback = std::nullopt) const {
        if (absent(field)) {
            if (fallback) return *fallback;
            fail(field, "is missing; model_type '" + modelType_ +
                            "' requires it (an integer >= " + std::to_string(minimum) + ")");
        }
        const json& value = *find(field);
        if (value.is_number_unsigned() &&
            value.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            fail(field, "= " + shown(value) + " does not fit in 64 bits");
        if (!value.is_number_integer())
            fail(field,
                 "must be an integer >= " + std::to_string(minimum) + ", found " + shown(value));
        const auto number = value.get<std::int64_t>();
        if (number < minimum)
            fail(field, "= " + std::to_string(number) +
                            " is out of range; it must be >= " + std::to_string(minimum));
        return number;
    }

    bool boolean(std::string_view field, bool fallback) const {
        if (absent(field)) return fallback;
        const json& value = *find(field);
        if (!value.is_boolean()) fail(field, "must be true or false, found " + shown(value));
        return value.get<bool>();
    }

    std::string text(std::string_view field, std::string_view fallback) const {
        if (absent(field)) return std::string(fallback);
        const json& value = *find(field);
        if (!value.is_string()) fail(field, "must be a string, found " + shown(value));
        return value.get<std::string>();
    }

    double positiveNumber(std::string_view field) const {
        if (absent(field)) return 1;
        const json& value = *find(field);
        if (!value.is_number() || !(value.get<double>() > 0))
            fail(field, "must be a number > 0, found " + shown(value));
        return value.get<double>();
    }

    // A string field that must be one of `allowed`; returns its index.
    template <std::size_t N>
    std::size_t choice(std::string_view field, std::string_view fallback,
                       const std::array<std::string_view, N>& allowed) const {
        const std::string value = text(field, fallback);
        for (std::size_t i = 0; i < N; ++i)
            if (allowed[i] == value) return i;
        std::string list;
        for (std::string_view name : allowed)
            list += (list.empty() ? "" : ", ") + std::string(name);
        fail(field, "= \"" + value + "\" is not supported for model_type '" + modelType_ +
                        "' (supported: " + list + ")");
    }

    // A flag whose non-default value the builder cannot express.
    void requireDefault(std::string_view field, bool expected, const std::string& why) const {
        if (boolean(field, expected) != expected)
            fail(field,
                 "= " + std::string(expected ? "false" : "true") + " is not supported: " + why);
    }

private:
    const json& config_;
    std::string modelType_;
};

// The builder's own validation names its spec fields; these name the config's.
void checkHeads(const FieldReader& r, std::string_view hiddenField, std::int64_t hidden,
                std::string_view headsField, std::int64_t heads) {
    if (hidden % heads != 0)
        r.fail(headsField, "= " + std::to_string(heads) + " does not divide " +
                               std::string(hiddenField) + " = " + std::to_string(hidden));
}

Activation gptActivation(const FieldReader& r, std::string_view field, std::string_view fallback) {
    // GELU in any of its HF spellings is costed as the tanh approximation (vector_op_costs.h).
    constexpr std::array<std::string_view, 6> names{"gelu_new",          "gelu",       "gelu_fast",
                                                    "gelu_pytorch_tanh", "quick_gelu", "relu"};
    return r.choice(field, fallback, names) == names.size() - 1 ? Activation::Relu
                                                                : Activation::Gelu;
}

void readGpt2(const FieldReader& r, TransformerSpec& spec) {
    spec.layers = r.integer("n_layer", 1);
    spec.hidden = r.integer("n_embd", 1);
    spec.heads = r.integer("n_head", 1);
    spec.vocab = r.integer("vocab_size", 1);
    spec.maxSequence = r.integer("n_positions", 1);
    if (spec.hidden > std::numeric_limits<std::int64_t>::max() / 4)
        r.fail("n_embd", "= " + std::to_string(spec.hidden) + " is too large");
    spec.ffn = r.integer("n_inner", 1, spec.hidden * 4);
    spec.activation = gptActivation(r, "activation_function", "gelu_new");
    spec.tiedEmbeddings = r.boolean("tie_word_embeddings", true);
    r.requireDefault("add_cross_attention", false, "cross-attention blocks are not modelled");
    checkHeads(r, "n_embd", spec.hidden, "n_head", spec.heads);
}

void readBert(const FieldReader& r, TransformerSpec& spec) {
    spec.layers = r.integer("num_hidden_layers", 1);
    spec.hidden = r.integer("hidden_size", 1);
    spec.heads = r.integer("num_attention_heads", 1);
    spec.ffn = r.integer("intermediate_size", 1);
    spec.vocab = r.integer("vocab_size", 1);
    spec.maxSequence = r.integer("max_position_embeddings", 1);
    spec.typeVocab = r.integer("type_vocab_size", 0, 2);
    spec.activation = gptActivation(r, "hidden_act", "gelu");
    spec.tiedEmbeddings = r.boolean("tie_word_embeddings", true);
    constexpr std::array<std::string_view, 1> positions{"absolute"};
    r.choice("position_embedding_type", "absolute", positions);
    spec.preNorm = false;
    spec.encoder = true;
    checkHeads(r, "hidden_size", spec.hidden, "num_attention_heads", spec.heads);
}

void readOpt(const FieldReader& r, TransformerSpec& spec) {
    spec.layers = r.integer("num_hidden_layers", 1);
    spec.hidden = r.integer("hidden_size", 1);
    spec.heads = r.integer("num_attention_heads", 1);
    spec.ffn = r.integer("ffn_dim", 1);
    spec.vocab = r.integer("vocab_size", 1);
    spec.maxSequence = r.integer("max_position_embeddings", 1);
    const std::int64_t projection = r.integer("word_embed_proj_dim", 1, spec.hidden);
    spec.projectionDim = projection == spec.hidden ? 0 : projection;
    spec.preNorm = r.boolean("do_layer_norm_before", true);
    spec.activation = gptActivation(r, "activation_function", "relu");
    spec.biases = r.boolean("enable_bias", true);
    spec.tiedEmbeddings = r.boolean("tie_word_embeddings", true);
    spec.positionOffset = 2;  // OPT's learned position table has two extra rows
    r.requireDefault("_remove_final_layer_norm", false,
                     "the builder always keeps the final LayerNorm of a pre-LN model");
    checkHeads(r, "hidden_size", spec.hidden, "num_attention_heads", spec.heads);
}

void readLlama(const FieldReader& r, TransformerSpec& spec, bool mistral,
               std::vector<std::string>& warnings) {
    spec.layers = r.integer("num_hidden_layers", 1);
    spec.hidden = r.integer("hidden_size", 1);
    spec.heads = r.integer("num_attention_heads", 1);
    spec.kvHeads = r.integer("num_key_value_heads", 1, spec.heads);
    spec.ffn = r.integer("intermediate_size", 1);
    spec.vocab = r.integer("vocab_size", 1);
    spec.maxSequence = r.integer("max_position_embeddings", 1);
    spec.tiedEmbeddings = r.boolean("tie_word_embeddings", false);
    r.positiveNumber("rms_norm_eps");
    checkHeads(r, "hidden_size", spec.hidden, "num_attention_heads", spec.heads);
    checkHeads(r, "num_attention_heads", spec.heads, "num_key_value_heads", spec.kvHeads);
    constexpr std::array<std::string_view, 2> acts{"silu", "swish"};
    r.choice("hidden_act", "silu", acts);
    r.requireDefault("attention_bias", false, "the Llama builder has bias-free projections");
    r.requireDefault("mlp_bias", false, "the Llama builder has bias-free projections");
    if (!r.absent("head_dim")) {
        const std::int64_t headDim = r.integer("head_dim", 1);
        if (spec.heads > 0 && headDim * spec.heads != spec.hidden)
            r.fail("head_dim", "= " + std::to_string(headDim) +
                                   " is not supported: the builder needs head_dim = hidden_size / "
                                   "num_attention_heads = " +
                                   std::to_string(spec.hidden / spec.heads));
    }
    if (mistral && !r.absent("sliding_window")) {
        const std::int64_t window = r.integer("sliding_window", 1);
        if (window < spec.maxSequence) {
            warnings.push_back("sliding_window = " + std::to_string(window) +
                               " is not modelled: sequences are limited to " +
                               std::to_string(window) +
                               " tokens, where windowed attention equals full attention "
                               "(max_position_embeddings = " +
                               std::to_string(spec.maxSequence) + ")");
            spec.maxSequence = window;
        }
    }
    spec.norm = NormKind::RmsNorm;
    spec.activation = Activation::SwiGlu;
    spec.positions = PositionKind::Rotary;
    spec.biases = false;
    spec.dropout = false;
}

// BLOOM (BigScience 2022): ALiBi positions, so no position table and no maximum length in the
// config; the sequence defaults to the 2,048 tokens BLOOM was trained on. BloomConfig takes
// each size under two names (bigscience/bloom's own config.json says n_embed, n_layer and
// num_attention_heads).
void readBloom(const FieldReader& r, TransformerSpec& spec) {
    const auto either = [&r](std::string_view name, std::string_view alias) {
        return r.absent(name) ? alias : name;
    };
    spec.layers = r.integer(either("n_layer", "num_hidden_layers"), 1);
    const std::string_view hiddenField = either("hidden_size", "n_embed");
    spec.hidden = r.integer(hiddenField, 1);
    const std::string_view headsField = either("n_head", "num_attention_heads");
    spec.heads = r.integer(headsField, 1);
    spec.vocab = r.integer("vocab_size", 1);
    spec.maxSequence = r.integer("seq_length", 1, 2048);
    if (spec.hidden > std::numeric_limits<std::int64_t>::max() / 4)
        r.fail(hiddenField, "= " + std::to_string(spec.hidden) + " is too large");
    spec.ffn = 4 * spec.hidden;
    spec.tiedEmbeddings = r.boolean("tie_word_embeddings", true);
    r.requireDefault("apply_residual_connection_post_layernorm", false,
                     "the builder adds the residual before the LayerNorm, as BLOOM does");
    checkHeads(r, hiddenField, spec.hidden, headsField, spec.heads);
    spec.positions = PositionKind::Alibi;
    spec.embeddingNorm = true;
    spec.dropout = false;  // BLOOM trained with hidden and attention dropout 0.0
}

// Powers of two up to 8 (PHAZE's widths) that the builder can split this spec into.
std::vector<std::int64_t> splittableWidths(const TransformerSpec& spec) {
    std::vector<std::int64_t> widths;
    for (std::int64_t t : {1, 2, 4, 8})
        if (spec.heads % t == 0 && spec.kvHeadCount() % t == 0 && spec.hidden % t == 0 &&
            spec.ffn % t == 0)
            widths.push_back(t);
    return widths;
}

std::string modelNameFor(const std::filesystem::path& path) {
    std::string stem = path.stem().string();
    if (stem == "config") {
        const std::string folder = path.parent_path().filename().string();
        if (!folder.empty() && folder != "." && folder != "..") return folder;
    }
    return stem.empty() ? "hf-model" : stem;
}

Expected<json> parseJsonObject(std::string_view text, const std::string& sourceName) {
    auto parsed = parseJsonDocument(text, sourceName, "a JSON object");
    if (!parsed) return Error{parsed.error()};
    json document = std::move(*parsed);
    if (!document.is_object())
        return Error{sourceName + ": must be a JSON object, found " + shown(document)};
    return document;
}

}  // namespace

std::string supportedHfModelTypes() {
    std::string list;
    for (std::string_view name : kModelTypes)
        list += (list.empty() ? "" : ", ") + std::string(name);
    return list;
}

Expected<HfConfigImport> parseHfConfig(std::string_view text, const std::string& sourceName,
                                       const std::string& modelName) {
    auto document = parseJsonObject(text, sourceName);
    if (!document) return document.error();
    const json& config = *document;
    const auto typeIt = config.find("model_type");
    if (typeIt == config.end() || !typeIt->is_string()) {
        return Error{sourceName + ": field 'model_type' " +
                     (typeIt == config.end() ? std::string("is missing")
                                             : "must be a string, found " + shown(*typeIt)) +
                     " (supported model types: " + supportedHfModelTypes() + ")"};
    }
    const std::string modelType = typeIt->get<std::string>();
    HfConfigImport result;
    TransformerSpec& spec = result.spec;
    spec.name = modelName;
    spec.family = modelType;
    try {
        const FieldReader reader(config, modelType);
        if (modelType == "gpt2")
            readGpt2(reader, spec);
        else if (modelType == "bert")
            readBert(reader, spec);
        else if (modelType == "opt")
            readOpt(reader, spec);
        else if (modelType == "bloom")
            readBloom(reader, spec);
        else if (modelType == "llama" || modelType == "mistral")
            readLlama(reader, spec, modelType == "mistral", result.warnings);
        else
            return Error{sourceName + ": model_type '" + modelType +
                         "' is not supported (supported model types: " + supportedHfModelTypes() +
                         ")"};
    } catch (const ConfigError& e) {
        return Error{sourceName + ": " + e.message};
    } catch (const json::exception& e) {
        return Error{sourceName + ": " + e.what()};
    }
    if (Status status = model::validateTransformerSpec(spec); !status)
        return Error{sourceName + ": " + status.message()};
    spec.tensorParallelWidths = splittableWidths(spec);
    spec.description = "Hugging Face " + modelType + " config (" + sourceName +
                       "): " + std::to_string(spec.layers) + " layers, hidden " +
                       std::to_string(spec.hidden) + ", " + std::to_string(spec.heads) + " heads" +
                       (spec.kvHeadCount() != spec.heads
                            ? " (" + std::to_string(spec.kvHeadCount()) + " key/value heads)"
                            : std::string()) +
                       ", FFN " + std::to_string(spec.ffn) + ", vocabulary " +
                       std::to_string(spec.vocab) + ", sequence " +
                       std::to_string(spec.maxSequence);
    for (std::string& warning : result.warnings) warning = sourceName + ": " + warning;
    return result;
}

Expected<LoadedModel> importHfConfig(const std::filesystem::path& path) {
    const std::string sourceName = path.string();
    auto text = readTextFile(path);
    if (!text) return Error{"model file: " + text.message()};
    auto parsed = parseHfConfig(*text, sourceName, modelNameFor(path));
    if (!parsed) return parsed.error();
    auto source = model::TransformerSource::create(parsed->spec);
    if (!source) return Error{sourceName + ": " + source.message()};
    return LoadedModel{*source, "huggingface-config", std::move(parsed->warnings)};
}

Expected<JsonModelFormat> detectJsonModelFormat(std::string_view text,
                                                const std::string& sourceName) {
    auto document = parseJsonObject(text, sourceName);
    if (!document) return document.error();
    if (document->contains("format")) return JsonModelFormat::TandemModel;
    if (document->contains("model_type")) return JsonModelFormat::HuggingFaceConfig;
    return Error{sourceName +
                 ": neither a Tandem model file (no \"format\": \"tandem-model\" key) nor a "
                 "Hugging Face config.json (no \"model_type\" key; supported model types: " +
                 supportedHfModelTypes() + ")"};
}

}  // namespace tandem::core::importers
