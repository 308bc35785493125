#include "core/model/model_graph.h"

#include <algorithm>

#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace tandem::core::model {

Status refuseSequenceParallel(const BuildOptions& options, std::string_view what) {
    if (!options.sequenceParallel || options.tensorParallel <= 1) return Status::success();
    return Error{"sequence parallelism is not available for " + std::string(what) +
                 ": Tandem splits the sequence only in transformers it builds from their shape "
                 "(a Tandem transformer model, a Hugging Face config.json or the model zoo); "
                 "drop --sequence-parallel"};
}

Status refuseFlashAttention(const BuildOptions& options, std::string_view what) {
    if (!options.flashAttention) return Status::success();
    return Error{"FlashAttention is not available for " + std::string(what) +
                 ": Tandem fuses the attention core only in transformers it builds from their "
                 "shape (a Tandem transformer model, a Hugging Face config.json or the model "
                 "zoo); drop --flash-attention"};
}

Status validateBuildOptions(const BuildOptions& options) {
    if (options.microbatch < 1) {
        return Error{"microbatch size " + std::to_string(options.microbatch) +
                     " is not allowed: it must be >= 1"};
    }
    if (options.sequenceLength < 0) {
        return Error{"sequence length " + std::to_string(options.sequenceLength) +
                     " is not allowed: it must be >= 1, or 0 for the model's default"};
    }
    if (options.tensorParallel < 1) {
        return Error{"tensor-parallel width t = " + std::to_string(options.tensorParallel) +
                     " is not allowed: it must be >= 1"};
    }
    if (options.bytesPerElement < 1 || options.bytesPerElement > 16) {
        return Error{"bytes per element " + std::to_string(options.bytesPerElement) +
                     " is not allowed: it must be in 1..16"};
    }
    return Status::success();
}

Expected<ModelGraph> ModelGraph::create(std::string name, BuildOptions options,
                                        std::vector<Layer> layers, std::vector<LayerEdge> edges) {
    const std::string where = "model '" + name + "'";
    if (layers.empty()) return Error{where + " has no layers"};
    std::unordered_map<std::string, int> indexOfName;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const Layer& layer = layers[i];
        if (layer.name.empty()) {
            return Error{where + ": layer at index " + std::to_string(i) + " has no name"};
        }
        if (!indexOfName.emplace(layer.name, int(i)).second) {
            return Error{where + ": layer name '" + layer.name + "' is used twice"};
        }
        if (!layer.graph) return Error{where + ": layer '" + layer.name + "' has no graph"};
    }
    const int n = int(layers.size());
    std::set<std::pair<int, int>> seen;
    std::vector<std::vector<int>> successors(layers.size());
    std::vector<int> pending(layers.size(), 0);
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const LayerEdge& edge = edges[e];
        const std::string at = where + ": edge " + std::to_string(e) + " (" +
                               std::to_string(edge.from) + " -> " + std::to_string(edge.to) + ")";
        if (edge.from < 0 || edge.from >= n || edge.to < 0 || edge.to >= n) {
            return Error{at + " refers to a layer outside 0.." + std::to_string(n - 1)};
        }
        if (edge.from == edge.to) return Error{at + " is a self-loop"};
        if (edge.bytes < 0) {
            return Error{at + ": bytes = " + std::to_string(edge.bytes) + " must be >= 0"};
        }
        if (!seen.emplace(edge.from, edge.to).second) return Error{at + " is listed twice"};
        successors[std::size_t(edge.from)].push_back(edge.to);
        ++pending[std::size_t(edge.to)];
    }
    std::vector<int> ready;
    for (int i = 0; i < n; ++i)
        if (pending[std::size_t(i)] == 0) ready.push_back(i);
    int done = 0;
    while (!ready.empty()) {
        const int u = ready.back();
        ready.pop_back();
        ++done;
        for (int v : successors[std::size_t(u)])
            if (--pending[std::size_t(v)] == 0) ready.push_back(v);
    }
    if (done != n) {
        std::string stuck;
        for (int i = 0; i < n; ++i)
            if (pending[std::size_t(i)] > 0)
                stuck += (stuck.empty() ? "'" : ", '") + layers[std::size_t(i)].name + "'";
        return Error{where +
                     ": the layer edges form a cycle (layers involved or after it: " + stuck + ")"};
    }

    ModelGraph model;
    // Structurally equal graphs are merged so that every consumer sees one instance per unique
    // layer, even when the source built them separately (e.g. a graph file listing each block).
    std::map<std::string, int> uniqueOfSignature;
    for (Layer& layer : layers) {
        const std::string& signature = layer.graph->signature();
        auto [it, inserted] = uniqueOfSignature.emplace(signature, int(model.unique_.size()));
        if (inserted) model.unique_.push_back(layer.graph);
        layer.graph = model.unique_[std::size_t(it->second)];
        model.uniqueIndex_.push_back(it->second);
        if (__builtin_add_overflow(model.parameterBytes_, layer.graph->parameterBytes(),
                                   &model.parameterBytes_)) {
            return Error{where + ": the total parameter bytes overflow 64-bit integers"};
        }
    }
    // A model without work would train at infinite speed: every result would be meaningless.
    const bool works = std::any_of(model.unique_.begin(), model.unique_.end(), [](const auto& g) {
        return std::any_of(g->forward().begin(), g->forward().end(),
                           [](const Operator& op) { return op.takesTime(); });
    });
    if (!works) {
        return Error{where + " does no work at microbatch " + std::to_string(options.microbatch) +
                     ", sequence length " + std::to_string(options.sequenceLength) +
                     ": no operator multiplies matrices or processes elements (a model needs a "
                     "tensor_core, fused or vector_core operator with sizes above zero)"};
    }
    model.name_ = std::move(name);
    model.options_ = options;
    model.layers_ = std::move(layers);
    model.edges_ = std::move(edges);
    return model;
}

bool ModelGraph::isChain() const {
    if (edges_.size() + 1 != layers_.size()) return false;
    std::vector<bool> has(layers_.size(), false);
    for (const LayerEdge& e : edges_) {
        if (e.to != e.from + 1) return false;
        has[std::size_t(e.from)] = true;
    }
    for (std::size_t i = 0; i + 1 < layers_.size(); ++i)
        if (!has[i]) return false;
    return true;
}

std::int64_t ModelGraph::parameterBytes() const {
    return parameterBytes_;
}

double ModelGraph::parameterCount() const {
    double bytes = 0;
    for (const Layer& layer : layers_) {
        const double width = layer.tensorParallel ? double(options_.tensorParallel) : 1.0;
        for (const Operator& op : layer.graph->forward())
            bytes += double(op.parameterBytes) * (op.sharded ? width : 1.0);
    }
    return bytes / double(options_.bytesPerElement);
}

double ModelGraph::forwardFlops() const {
    double sum = 0;
    for (const Layer& layer : layers_) sum += layer.graph->forwardFlops();
    return sum;
}
double ModelGraph::backwardFlops() const {
    double sum = 0;
    for (const Layer& layer : layers_) sum += layer.graph->backwardFlops();
    return sum;
}
double ModelGraph::forwardGemmFlops() const {
    double sum = 0;
    for (const Layer& layer : layers_) sum += layer.graph->forwardGemmFlops();
    return sum;
}
double ModelGraph::backwardGemmFlops() const {
    double sum = 0;
    for (const Layer& layer : layers_) sum += layer.graph->backwardGemmFlops();
    return sum;
}

}  // namespace tandem::core::model
