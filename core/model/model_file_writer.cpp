// Writers of the native model file (model_file.h). Keys are written in a fixed, readable order
// (ordered_json) and every field is explicit, so a written file documents itself.
#include <nlohmann/json.hpp>

#include "core/common/json_document.h"
#include "core/model/model_file.h"

namespace tandem::core::model {

namespace {

using ojson = nlohmann::ordered_json;

ojson header(const std::string& name, const std::string& description) {
    ojson root;
    root["format"] = "tandem-model";
    root["version"] = 1;
    root["name"] = name;
    root["description"] = description;
    return root;
}

ojson operatorJson(const Operator& op, const std::vector<Operator>& all) {
    ojson j;
    j["name"] = op.name;
    j["kind"] = op.kind;
    j["class"] = std::string(toString(op.opClass));
    j["batch"] = op.gemm.batch;
    j["m"] = op.gemm.m;
    j["n"] = op.gemm.n;
    j["k"] = op.gemm.k;
    j["elements"] = op.elements;
    j["cycles_per_element"] = op.cyclesPerElement;
    j["backward_cycles_per_element"] = op.backwardCyclesPerElement;
    j["streamed_tensors"] = op.streamedTensors;
    j["backward_streamed_tensors"] = op.backwardStreamedTensors;
    j["collective_bytes"] = op.collectiveBytes;
    j["parameter_bytes"] = op.parameterBytes;
    j["tied_parameter_bytes"] = op.tiedParameterBytes;
    j["output_bytes"] = op.outputBytes;
    j["saved_bytes"] = op.savedBytes;
    j["discarded_bytes"] = op.discardedBytes;
    j["streamed_bytes"] = op.streamedBytes;
    j["selective_recompute"] = op.selectiveRecompute;
    j["collective"] = std::string(toString(op.collective));
    j["sharded"] = op.sharded;
    j["backward"] = std::string(toString(op.backwardRule));
    ojson inputs = ojson::array();
    for (int input : op.inputs) inputs.push_back(all[std::size_t(input)].name);
    j["inputs"] = std::move(inputs);
    return j;
}

}  // namespace

std::string transformerToJson(const TransformerSpec& spec) {
    ojson root = header(spec.name, spec.description);
    ojson t;
    t["family"] = spec.family;
    t["layers"] = spec.layers;
    t["hidden"] = spec.hidden;
    t["heads"] = spec.heads;
    t["kv_heads"] = spec.kvHeads;
    t["ffn"] = spec.ffn;
    t["vocab"] = spec.vocab;
    t["max_sequence"] = spec.maxSequence;
    t["type_vocab"] = spec.typeVocab;
    t["projection_dim"] = spec.projectionDim;
    t["position_offset"] = spec.positionOffset;
    t["norm"] = std::string(toString(spec.norm));
    t["pre_norm"] = spec.preNorm;
    t["activation"] = std::string(toString(spec.activation));
    t["positions"] = std::string(toString(spec.positions));
    t["tied_embeddings"] = spec.tiedEmbeddings;
    t["biases"] = spec.biases;
    t["dropout"] = spec.dropout;
    t["encoder"] = spec.encoder;
    if (spec.embeddingNorm) t["embedding_norm"] = true;  // older readers know no such key
    t["tensor_parallel_widths"] = spec.tensorParallelWidths;
    if (spec.baseline.given()) {
        t["baseline_strategy"] = {{"pipeline", spec.baseline.pipeline},
                                  {"data", spec.baseline.data},
                                  {"tensor", spec.baseline.tensor}};
    }
    root["transformer"] = std::move(t);
    return jsonText(root, 2) + "\n";
}

std::string graphToJson(const ModelGraph& graph) {
    const BuildOptions& o = graph.options();
    ojson root =
        header(graph.name(), "Operator graph of " + graph.name() + " exported at microbatch " +
                                 std::to_string(o.microbatch) + ", sequence length " +
                                 std::to_string(o.sequenceLength) +
                                 ", t = " + std::to_string(o.tensorParallel) + ", " +
                                 std::to_string(o.bytesPerElement) + " bytes per element");
    root["default_sequence"] = o.sequenceLength;
    root["tensor_parallel_widths"] = ojson::array({o.tensorParallel});
    root["built_for"] = ojson{{"microbatch", o.microbatch},
                              {"sequence", o.sequenceLength},
                              {"tensor_parallel", o.tensorParallel},
                              {"bytes_per_element", o.bytesPerElement},
                              {"sequence_parallel", o.sequenceParallel}};
    ojson layers = ojson::array();
    // Layers sharing a graph are written once; later ones refer to the first by name.
    std::vector<int> firstLayerOfUnique(graph.uniqueGraphs().size(), -1);
    for (std::size_t i = 0; i < graph.layers().size(); ++i) {
        const Layer& layer = graph.layers()[i];
        const int unique = graph.uniqueIndexOfLayer()[i];
        ojson j;
        j["name"] = layer.name;
        j["kind"] = layer.graph->kind();
        j["tensor_parallel"] = layer.tensorParallel;
        int& first = firstLayerOfUnique[std::size_t(unique)];
        if (first >= 0) {
            j["same_as"] = graph.layers()[std::size_t(first)].name;
        } else {
            first = int(i);
            ojson ops = ojson::array();
            for (const Operator& op : layer.graph->forward())
                ops.push_back(operatorJson(op, layer.graph->forward()));
            j["operators"] = std::move(ops);
        }
        layers.push_back(std::move(j));
    }
    root["layers"] = std::move(layers);
    ojson edges = ojson::array();
    for (const LayerEdge& e : graph.edges()) {
        edges.push_back(ojson{{"from", graph.layers()[std::size_t(e.from)].name},
                              {"to", graph.layers()[std::size_t(e.to)].name},
                              {"bytes", e.bytes}});
    }
    root["edges"] = std::move(edges);
    return jsonText(root, 2) + "\n";
}

}  // namespace tandem::core::model
