// Reader of the native model file (model_file.h). Internally a malformed value throws a
// ReadError carrying its JSON path; parseModelJson catches it (and nlohmann's own errors) at the
// boundary, so nothing escapes as an exception.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/common/json_document.h"
#include "core/model/graph_source.h"
#include "core/model/model_file.h"
#include "core/model/transformer_source.h"

namespace tandem::core::model {

namespace {

using json = nlohmann::json;

struct ReadError {
    std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& message) {
    throw ReadError{(path.empty() ? "" : path + ": ") + message};
}

std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}
std::string shown(const json& value) {
    return jsonExcerpt(value, 60);
}

void requireObject(const json& value, const std::string& path) {
    if (!value.is_object()) fail(path, "must be a JSON object, found " + shown(value));
}
void requireArray(const json& value, const std::string& path) {
    if (!value.is_array()) fail(path, "must be a JSON array, found " + shown(value));
}

void checkKeys(const json& object, const std::string& path,
               std::initializer_list<std::string_view> allowed) {
    for (const auto& item : object.items()) {
        if (std::find(allowed.begin(), allowed.end(), item.key()) != allowed.end()) continue;
        std::string list;
        for (std::string_view key : allowed) list += (list.empty() ? "" : ", ") + std::string(key);
        fail(join(path, item.key()), "unknown key (allowed here: " + list + ")");
    }
}

const json* find(const json& object, std::string_view key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

std::int64_t toInt(const json& value, const std::string& path, std::int64_t minimum) {
    if (value.is_number_unsigned() &&
        value.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        fail(path, shown(value) + " does not fit in 64 bits");
    if (!value.is_number_integer()) fail(path, "must be an integer, found " + shown(value));
    const auto number = value.get<std::int64_t>();
    if (number < minimum) {
        fail(path,
             std::to_string(number) + " is out of range; it must be >= " + std::to_string(minimum));
    }
    return number;
}

std::int64_t intField(const json& object, const std::string& path, std::string_view key,
                      std::optional<std::int64_t> fallback, std::int64_t minimum) {
    const json* value = find(object, key);
    if (!value) {
        if (!fallback)
            fail(join(path, key), "is required (an integer >= " + std::to_string(minimum) + ")");
        return *fallback;
    }
    return toInt(*value, join(path, key), minimum);
}

std::string stringField(const json& object, const std::string& path, std::string_view key,
                        std::optional<std::string> fallback) {
    const json* value = find(object, key);
    if (!value) {
        if (!fallback) fail(join(path, key), "is required (a string)");
        return *fallback;
    }
    if (!value->is_string()) fail(join(path, key), "must be a string, found " + shown(*value));
    return value->get<std::string>();
}

std::string nameField(const json& object, const std::string& path) {
    std::string name = stringField(object, path, "name", std::nullopt);
    if (name.empty()) fail(join(path, "name"), "must not be empty");
    return name;
}

bool boolField(const json& object, const std::string& path, std::string_view key, bool fallback) {
    const json* value = find(object, key);
    if (!value) return fallback;
    if (!value->is_boolean()) {
        fail(join(path, key), "must be true or false, found " + shown(*value));
    }
    return value->get<bool>();
}

template <class E>
E enumField(const json& object, const std::string& path, std::string_view key, E fallback,
            bool (*parse)(std::string_view, E&), std::string_view allowed) {
    const json* value = find(object, key);
    if (!value) return fallback;
    E result{};
    if (!value->is_string() || !parse(value->get<std::string>(), result)) {
        fail(join(path, key),
             shown(*value) + " is not allowed (allowed: " + std::string(allowed) + ")");
    }
    return result;
}

std::vector<std::int64_t> widthsField(const json& object, const std::string& path,
                                      std::vector<std::int64_t> fallback) {
    const json* value = find(object, "tensor_parallel_widths");
    if (!value) return fallback;
    const std::string at = join(path, "tensor_parallel_widths");
    requireArray(*value, at);
    std::vector<std::int64_t> widths;
    for (std::size_t i = 0; i < value->size(); ++i)
        widths.push_back(toInt((*value)[i], at + "[" + std::to_string(i) + "]", 1));
    return widths;
}

SizeExpression sizeField(const json& object, const std::string& path, std::string_view key,
                         std::int64_t fallback) {
    const json* value = find(object, key);
    if (!value) return SizeExpression::constant(fallback);
    const std::string at = join(path, key);
    if (value->is_string()) {
        auto expr = SizeExpression::parse(value->get<std::string>());
        if (!expr) fail(at, expr.message());
        return std::move(*expr);
    }
    if (!value->is_number()) {
        fail(at,
             "must be a non-negative integer or an expression string over b, s, t, e; "
             "found " +
                 shown(*value));
    }
    return SizeExpression::constant(toInt(*value, at, 0));
}

CyclesTemplate cyclesField(const json& object, const std::string& path, std::string_view key) {
    const json* value = find(object, key);
    CyclesTemplate cycles;
    if (!value) return cycles;
    if (value->is_string()) {
        cycles.expression = sizeField(object, path, key, 0);
        return cycles;
    }
    if (!value->is_number() || !std::isfinite(value->get<double>()) || value->get<double>() < 0 ||
        value->get<double>() > kMaxCyclesPerElement) {
        fail(join(path, key),
             "must be a number of cycles in [0, 1000000] (or an expression string), found " +
                 shown(*value));
    }
    cycles.number = value->get<double>();
    return cycles;
}

BackwardRule defaultRule(OpClass c) {
    switch (c) {
        case OpClass::TensorCore:
        case OpClass::Fused:
            return BackwardRule::WeightGemm;
        case OpClass::VectorCore:
            return BackwardRule::Elementwise;
        case OpClass::Collective:
            return BackwardRule::NoneAfterAllReduce;
        case OpClass::Nop:
            return BackwardRule::None;
    }
    return BackwardRule::None;
}

OperatorTemplate readOperator(const json& value, const std::string& path,
                              std::vector<std::string>& inputNames) {
    requireObject(value, path);
    checkKeys(value, path,
              {"name",
               "kind",
               "class",
               "batch",
               "m",
               "n",
               "k",
               "elements",
               "cycles_per_element",
               "backward_cycles_per_element",
               "streamed_tensors",
               "backward_streamed_tensors",
               "collective_bytes",
               "parameter_bytes",
               "tied_parameter_bytes",
               "output_bytes",
               "saved_bytes",
               "sharded",
               "backward",
               "inputs"});
    OperatorTemplate op;
    op.path = path;
    op.name = nameField(value, path);
    op.opClass = enumField<OpClass>(value, path, "class", OpClass::Nop, &parseOpClass,
                                    "tensor_core, vector_core, fused, collective, nop");
    if (!find(value, "class")) fail(join(path, "class"), "is required");
    op.kind = stringField(value, path, "kind", std::string(toString(op.opClass)));
    op.backwardRule = enumField<BackwardRule>(
        value, path, "backward", defaultRule(op.opClass), &parseBackwardRule,
        "none, weight_gemm, activation_gemm, elementwise, all_reduce_in_backward, "
        "none_after_all_reduce");
    op.sharded = boolField(value, path, "sharded", false);
    for (std::size_t f = 0; f < kOperatorSizeCount; ++f)
        op.sizes[f] = sizeField(value, path, kOperatorSizeKeys[f], kOperatorSizeDefaults[f]);
    op.cyclesPerElement = cyclesField(value, path, "cycles_per_element");
    op.backwardCyclesPerElement = cyclesField(value, path, "backward_cycles_per_element");
    if (const json* inputs = find(value, "inputs")) {
        requireArray(*inputs, join(path, "inputs"));
        for (std::size_t i = 0; i < inputs->size(); ++i) {
            const json& input = (*inputs)[i];
            const std::string at = join(path, "inputs") + "[" + std::to_string(i) + "]";
            if (!input.is_string()) fail(at, "must be an operator name, found " + shown(input));
            inputNames.push_back(input.get<std::string>());
        }
    }
    return op;
}

LayerTemplate readLayer(const json& value, const std::string& path,
                        const std::vector<LayerTemplate>& earlier) {
    requireObject(value, path);
    checkKeys(value, path, {"name", "kind", "tensor_parallel", "operators", "same_as"});
    LayerTemplate layer;
    layer.path = path;
    layer.name = nameField(value, path);
    layer.tensorParallel = boolField(value, path, "tensor_parallel", false);
    if (find(value, "same_as")) {
        const std::string other = stringField(value, path, "same_as", std::nullopt);
        const auto it = std::find_if(earlier.begin(), earlier.end(),
                                     [&](const LayerTemplate& l) { return l.name == other; });
        if (it == earlier.end()) {
            fail(join(path, "same_as"), "'" + other + "' is not the name of an earlier layer");
        }
        if (find(value, "operators")) fail(path, "has both \"same_as\" and \"operators\"");
        layer.sameAs = it->sameAs >= 0 ? it->sameAs : int(it - earlier.begin());
        layer.kind = stringField(value, path, "kind", it->kind);
        if (layer.kind != it->kind) {
            fail(join(path, "kind"), "'" + layer.kind + "' differs from the kind '" + it->kind +
                                         "' of layer '" + other + "' it repeats");
        }
        return layer;
    }
    layer.kind = stringField(value, path, "kind", std::string("layer"));
    const json* ops = find(value, "operators");
    if (!ops) fail(join(path, "operators"), "is required (or \"same_as\": an earlier layer)");
    requireArray(*ops, join(path, "operators"));
    if (ops->empty()) fail(join(path, "operators"), "is empty; a layer needs operators");
    std::vector<std::vector<std::string>> inputNames(ops->size());
    std::map<std::string, int> indexOf;
    for (std::size_t i = 0; i < ops->size(); ++i) {
        const std::string at = join(path, "operators") + "[" + std::to_string(i) + "]";
        layer.operators.push_back(readOperator((*ops)[i], at, inputNames[i]));
        if (!indexOf.emplace(layer.operators.back().name, int(i)).second) {
            fail(join(at, "name"), "'" + layer.operators.back().name + "' is used twice");
        }
    }
    std::vector<Operator> shape(ops->size());  // names and inputs only, for the cycle check
    for (std::size_t i = 0; i < ops->size(); ++i) {
        OperatorTemplate& op = layer.operators[i];
        for (std::size_t j = 0; j < inputNames[i].size(); ++j) {
            const auto it = indexOf.find(inputNames[i][j]);
            if (it == indexOf.end()) {
                fail(join(op.path, "inputs") + "[" + std::to_string(j) + "]",
                     "unknown operator '" + inputNames[i][j] + "' in layer '" + layer.name + "'");
            }
            op.inputs.push_back(it->second);
        }
        shape[i].name = op.name;
        shape[i].inputs = op.inputs;
    }
    if (std::string problem = validateOperatorDag(shape); !problem.empty()) fail(path, problem);
    sortTopologically(layer.operators);
    return layer;
}

int layerIndex(const json& edge, const std::string& path, std::string_view key,
               const std::vector<LayerTemplate>& layers) {
    const std::string name = stringField(edge, path, key, std::nullopt);
    for (std::size_t i = 0; i < layers.size(); ++i)
        if (layers[i].name == name) return int(i);
    fail(join(path, key), "unknown layer '" + name + "'");
}

GraphTemplate readGraph(const json& root) {
    checkKeys(root, "",
              {"format", "version", "name", "description", "layers", "edges", "default_sequence",
               "tensor_parallel_widths", "built_for"});
    GraphTemplate graph;
    graph.name = nameField(root, "");
    graph.description = stringField(root, "", "description", std::string());
    graph.defaultSequence = intField(root, "", "default_sequence", 1, 1);
    graph.tensorParallelWidths = widthsField(root, "", {1});
    if (graph.tensorParallelWidths.empty()) fail("tensor_parallel_widths", "must not be empty");
    if (const json* fixed = find(root, "built_for")) {
        requireObject(*fixed, "built_for");
        checkKeys(*fixed, "built_for",
                  {"microbatch", "sequence", "tensor_parallel", "bytes_per_element"});
        BuildOptions options;
        options.microbatch = intField(*fixed, "built_for", "microbatch", std::nullopt, 1);
        options.sequenceLength = intField(*fixed, "built_for", "sequence", std::nullopt, 1);
        options.tensorParallel = intField(*fixed, "built_for", "tensor_parallel", std::nullopt, 1);
        options.bytesPerElement =
            intField(*fixed, "built_for", "bytes_per_element", std::nullopt, 1);
        graph.builtFor = options;
    }
    const json& layers = root.at("layers");
    requireArray(layers, "layers");
    if (layers.empty()) fail("layers", "is empty; a model needs at least one layer");
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const std::string path = "layers[" + std::to_string(i) + "]";
        graph.layers.push_back(readLayer(layers[i], path, graph.layers));
        for (std::size_t j = 0; j + 1 < graph.layers.size(); ++j)
            if (graph.layers[j].name == graph.layers.back().name)
                fail(join(path, "name"), "'" + graph.layers[j].name + "' is used twice");
    }
    if (const json* edges = find(root, "edges")) {
        requireArray(*edges, "edges");
        for (std::size_t i = 0; i < edges->size(); ++i) {
            const std::string path = "edges[" + std::to_string(i) + "]";
            const json& edge = (*edges)[i];
            requireObject(edge, path);
            checkKeys(edge, path, {"from", "to", "bytes"});
            EdgeTemplate e;
            e.path = path;
            e.from = layerIndex(edge, path, "from", graph.layers);
            e.to = layerIndex(edge, path, "to", graph.layers);
            e.bytes = sizeField(edge, path, "bytes", 0);
            graph.edges.push_back(std::move(e));
        }
    }
    return graph;
}

TransformerSpec readTransformer(const json& root) {
    checkKeys(root, "", {"format", "version", "name", "description", "transformer"});
    const std::string p = "transformer";
    const json& t = root.at(p);
    requireObject(t, p);
    checkKeys(t, p,
              {"family",
               "layers",
               "hidden",
               "heads",
               "kv_heads",
               "ffn",
               "vocab",
               "max_sequence",
               "type_vocab",
               "projection_dim",
               "position_offset",
               "norm",
               "pre_norm",
               "activation",
               "positions",
               "tied_embeddings",
               "biases",
               "dropout",
               "encoder",
               "tensor_parallel_widths",
               "baseline_strategy"});
    TransformerSpec spec;
    spec.name = nameField(root, "");
    spec.description = stringField(root, "", "description", std::string());
    spec.family = stringField(t, p, "family", std::nullopt);
    spec.layers = intField(t, p, "layers", std::nullopt, 1);
    spec.hidden = intField(t, p, "hidden", std::nullopt, 1);
    spec.heads = intField(t, p, "heads", std::nullopt, 1);
    spec.kvHeads = intField(t, p, "kv_heads", 0, 0);
    spec.ffn = intField(t, p, "ffn", std::nullopt, 1);
    spec.vocab = intField(t, p, "vocab", std::nullopt, 1);
    spec.maxSequence = intField(t, p, "max_sequence", std::nullopt, 1);
    spec.typeVocab = intField(t, p, "type_vocab", 0, 0);
    spec.projectionDim = intField(t, p, "projection_dim", 0, 0);
    spec.positionOffset = intField(t, p, "position_offset", 0, 0);
    spec.norm =
        enumField<NormKind>(t, p, "norm", spec.norm, &parseNormKind, "layer_norm, rms_norm");
    spec.preNorm = boolField(t, p, "pre_norm", spec.preNorm);
    spec.activation = enumField<Activation>(t, p, "activation", spec.activation, &parseActivation,
                                            "gelu, relu, swiglu");
    spec.positions = enumField<PositionKind>(t, p, "positions", spec.positions, &parsePositionKind,
                                             "learned, rotary");
    spec.tiedEmbeddings = boolField(t, p, "tied_embeddings", spec.tiedEmbeddings);
    spec.biases = boolField(t, p, "biases", spec.biases);
    spec.dropout = boolField(t, p, "dropout", spec.dropout);
    spec.encoder = boolField(t, p, "encoder", spec.encoder);
    spec.tensorParallelWidths = widthsField(t, p, {});
    if (const json* b = find(t, "baseline_strategy")) {
        const std::string at = join(p, "baseline_strategy");
        requireObject(*b, at);
        checkKeys(*b, at, {"pipeline", "data", "tensor"});
        spec.baseline.pipeline = intField(*b, at, "pipeline", std::nullopt, 1);
        spec.baseline.data = intField(*b, at, "data", std::nullopt, 1);
        spec.baseline.tensor = intField(*b, at, "tensor", std::nullopt, 1);
    }
    return spec;
}

}  // namespace

Expected<ModelSourcePtr> parseModelJson(std::string_view text, const std::string& sourceName) {
    auto parsed =
        parseJsonDocument(text, sourceName, "a JSON object with \"format\": \"tandem-model\"");
    if (!parsed) return Error{parsed.error()};
    try {
        const json& root = *parsed;
        requireObject(root, "(top level)");
        const json* format = find(root, "format");
        if (!format)
            fail("format",
                 "is missing; a model file starts with \"format\": "
                 "\"tandem-model\"");
        if (*format != "tandem-model") {
            fail("format", shown(*format) +
                               " is not a Tandem model file (expected "
                               "\"tandem-model\")");
        }
        const std::int64_t version = intField(root, "", "version", std::nullopt, 1);
        if (version != 1)
            fail("version", std::to_string(version) + " is not supported (allowed: 1)");
        const bool transformer = find(root, "transformer") != nullptr;
        if (transformer == (find(root, "layers") != nullptr)) {
            fail("(top level)",
                 "needs exactly one of \"transformer\" (a parametric "
                 "transformer) or \"layers\" (an operator graph)");
        }
        if (transformer) {
            auto source = TransformerSource::create(readTransformer(root));
            if (!source) return Error{sourceName + ": " + source.message()};
            return ModelSourcePtr(std::move(*source));
        }
        auto source = GraphSource::create(readGraph(root));
        if (!source) return Error{sourceName + ": " + source.message()};
        return ModelSourcePtr(std::move(*source));
    } catch (const ReadError& e) {
        return Error{sourceName + ": " + e.message};
    } catch (const std::exception& e) {
        return Error{sourceName + ": " + e.what()};
    }
}

}  // namespace tandem::core::model
