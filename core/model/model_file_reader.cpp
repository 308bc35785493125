// Reader of the native model file (model_file.h). Internally a malformed value throws a
// ReadError carrying its JSON path; parseModelJson catches it (and nlohmann's own errors) at the
// boundary, so nothing escapes as an exception.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/common/json_document.h"
#include "core/model/graph_source.h"
#include "core/model/model_file.h"
#include "core/model/model_file_fields.h"
#include "core/model/transformer_source.h"

namespace tandem::core::model {

namespace {

using namespace file_fields;

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
               "discarded_bytes",
               "streamed_bytes",
               "selective_recompute",
               "collective",
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
        "none_after_all_reduce, transposed_collective");
    op.sharded = boolField(value, path, "sharded", false);
    op.collective =
        enumField<CollectiveKind>(value, path, "collective", CollectiveKind::AllReduce,
                                  &parseCollectiveKind, "all_reduce, all_gather, reduce_scatter");
    op.selectiveRecompute = boolField(value, path, "selective_recompute", false);
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

// Layer names to their index, so that names are looked up in constant time (a model may list
// 100,000 layers).
using LayerIndex = std::unordered_map<std::string, int>;

LayerTemplate readLayer(const json& value, const std::string& path,
                        const std::vector<LayerTemplate>& earlier, const LayerIndex& index) {
    requireObject(value, path);
    checkKeys(value, path, {"name", "kind", "tensor_parallel", "operators", "same_as"});
    LayerTemplate layer;
    layer.path = path;
    layer.name = nameField(value, path);
    layer.tensorParallel = boolField(value, path, "tensor_parallel", false);
    if (find(value, "same_as")) {
        const std::string other = stringField(value, path, "same_as", std::nullopt);
        const auto found = index.find(other);
        const auto it = found == index.end() ? earlier.end() : earlier.begin() + found->second;
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
               const LayerIndex& index) {
    const std::string name = stringField(edge, path, key, std::nullopt);
    if (const auto it = index.find(name); it != index.end()) return it->second;
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
    if (const json* fixed = find(root, "built_for")) {
        requireObject(*fixed, "built_for");
        checkKeys(*fixed, "built_for",
                  {"microbatch", "sequence", "tensor_parallel", "bytes_per_element",
                   "sequence_parallel"});
        BuildOptions options;
        options.microbatch = intField(*fixed, "built_for", "microbatch", std::nullopt, 1);
        options.sequenceLength = intField(*fixed, "built_for", "sequence", std::nullopt, 1);
        options.tensorParallel = intField(*fixed, "built_for", "tensor_parallel", std::nullopt, 1);
        options.bytesPerElement =
            intField(*fixed, "built_for", "bytes_per_element", std::nullopt, 1);
        options.sequenceParallel = boolField(*fixed, "built_for", "sequence_parallel", false);
        graph.builtFor = options;
    }
    const json& layers = root.at("layers");
    requireArray(layers, "layers");
    if (layers.empty()) fail("layers", "is empty; a model needs at least one layer");
    LayerIndex index;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const std::string path = "layers[" + std::to_string(i) + "]";
        graph.layers.push_back(readLayer(layers[i], path, graph.layers, index));
        if (!index.emplace(graph.layers.back().name, int(i)).second)
            fail(join(path, "name"), "'" + graph.layers.back().name + "' is used twice");
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
            e.from = layerIndex(edge, path, "from", index);
            e.to = layerIndex(edge, path, "to", index);
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
               "embedding_norm",
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
                                             "learned, rotary, alibi");
    spec.tiedEmbeddings = boolField(t, p, "tied_embeddings", spec.tiedEmbeddings);
    spec.biases = boolField(t, p, "biases", spec.biases);
    spec.dropout = boolField(t, p, "dropout", spec.dropout);
    spec.encoder = boolField(t, p, "encoder", spec.encoder);
    spec.embeddingNorm = boolField(t, p, "embedding_norm", spec.embeddingNorm);
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
