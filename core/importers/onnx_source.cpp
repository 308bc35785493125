#include "core/importers/onnx_source.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "core/importers/onnx_import_state.h"
#include "core/importers/onnx_operator_mapper.h"
#include "core/importers/onnx_shape_inference.h"

namespace tandem::core::importers {

namespace {

bool mulOverflows(std::int64_t a, std::int64_t b) {
    return a != 0 && b > std::numeric_limits<std::int64_t>::max() / a;
}

}  // namespace

OnnxSource::OnnxSource(std::shared_ptr<const OnnxImportState> state) : state_(std::move(state)) {
    const OnnxPlan& plan = state_->plan;
    double weights = 0;  // in double: only for the text, and it must not overflow
    for (const OnnxPlannedNode& p : plan.nodes) weights += double(p.ownedParameterElements);
    std::string dims;
    if (plan.symbolicBatch) dims += "symbolic batch";
    if (plan.symbolicSequence)
        dims += std::string(dims.empty() ? "" : " and ") + "symbolic sequence";
    description_ = "ONNX model " + state_->sourceName + ": " + std::to_string(plan.nodes.size()) +
                   " operators in " + std::to_string(plan.layers.size()) + " layers (" +
                   std::to_string(plan.foldedNodes) + " constant nodes folded), " +
                   std::to_string(std::llround(weights)) + " weights" +
                   (dims.empty() ? std::string(", fixed shapes") : ", " + dims);
}

const std::string& OnnxSource::name() const {
    return state_->modelName;
}

std::int64_t OnnxSource::defaultSequenceLength() const {
    return defaultSequence_;
}

const std::vector<std::string>& OnnxSource::unknownOperators() const {
    return state_->plan.unknownOperators;
}

Expected<std::shared_ptr<const OnnxSource>> OnnxSource::create(
    std::shared_ptr<const OnnxImportState> state) {
    std::shared_ptr<OnnxSource> source(new OnnxSource(std::move(state)));
    const OnnxPlan& plan = source->state_->plan;
    source->defaultSequence_ = plan.symbolicSequence ? kDefaultSequenceLength : 1;
    model::BuildOptions options;
    options.microbatch = plan.symbolicBatch ? 1 : plan.fixedBatch;
    auto built = source->build(options);
    if (built || !plan.symbolicSequence) {
        if (!built) return built.error();
        return std::shared_ptr<const OnnxSource>(source);
    }
    // A model with fewer positions than the default (its position table, its causal mask)
    // fails there; its default becomes the longest power of two below that builds.
    for (std::int64_t s = kDefaultSequenceLength / 2; s >= 1; s /= 2) {
        options.sequenceLength = s;
        if (source->build(options)) {
            source->defaultSequence_ = s;
            source->defaultLowered_ = true;
            return std::shared_ptr<const OnnxSource>(source);
        }
    }
    return built.error();
}

Expected<model::ModelGraph> OnnxSource::build(const model::BuildOptions& options) const {
    const OnnxImportState& state = *state_;
    const OnnxPlan& plan = state.plan;
    const std::string where = state.sourceName + ": ";
    if (Status status = model::validateBuildOptions(options); !status)
        return Error{where + status.message()};
    if (Status status = model::refuseFlashAttention(options, "ONNX graphs"); !status)
        return Error{where + status.message()};
    if (Status status = model::refuseSequenceParallel(options, "ONNX graphs"); !status)
        return Error{where + status.message()};
    if (options.tensorParallel != 1)
        return Error{where + "tensor-parallel width " + std::to_string(options.tensorParallel) +
                     " is not supported: ONNX graphs are imported unsplit (t must be 1)"};
    model::BuildOptions resolved = options;
    if (!plan.symbolicBatch && options.microbatch != plan.fixedBatch)
        return Error{where + "microbatch " + std::to_string(options.microbatch) +
                     " is not possible: the file has no symbolic batch dimension and fixes the "
                     "batch at " +
                     std::to_string(plan.fixedBatch) +
                     (plan.fixedBatchWhere.empty() ? "" : " (" + plan.fixedBatchWhere + ")") +
                     "; use that microbatch or export the model with a symbolic batch dimension"};
    if (resolved.sequenceLength == 0) resolved.sequenceLength = defaultSequenceLength();
    if (!plan.symbolicSequence && resolved.sequenceLength != 1)
        return Error{where + "sequence length " + std::to_string(resolved.sequenceLength) +
                     " is not possible: the file has no symbolic sequence dimension (its shapes "
                     "fix the sequence); use the default"};

    auto shapes = inferOnnxShapes(state, resolved.microbatch, resolved.sequenceLength);
    if (!shapes && defaultLowered_ && resolved.sequenceLength > defaultSequence_)
        return Error{shapes.message() + "; the file builds at sequence length " +
                     std::to_string(defaultSequence_) + " (its default) but not at " +
                     std::to_string(kDefaultSequenceLength) +
                     ", so the model probably holds fewer positions than asked for"};
    if (!shapes) return shapes.error();

    // Operators, per layer, with their inputs remapped to positions within the layer.
    std::vector<std::vector<model::Operator>> operators(plan.layers.size());
    std::vector<int> position(plan.nodes.size(), -1);
    for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
        const OnnxPlannedNode& planned = plan.nodes[i];
        auto op = mapOnnxOperator(state, planned, *shapes, resolved.bytesPerElement);
        if (!op) return op.error();
        if (mulOverflows(planned.ownedParameterElements, resolved.bytesPerElement) ||
            mulOverflows(planned.tiedParameterElements, resolved.bytesPerElement))
            return Error{where + "the weights of operator '" + planned.name +
                         "' overflow 64-bit byte counts"};
        op->parameterBytes = planned.ownedParameterElements * resolved.bytesPerElement;
        op->tiedParameterBytes = planned.tiedParameterElements * resolved.bytesPerElement;
        std::set<int> inputs;
        for (int producer : planned.producers)
            if (producer >= 0 && plan.nodes[std::size_t(producer)].layer == planned.layer)
                inputs.insert(position[std::size_t(producer)]);
        op->inputs.assign(inputs.begin(), inputs.end());
        auto& list = operators[std::size_t(planned.layer)];
        position[i] = int(list.size());
        list.push_back(std::move(*op));
    }

    std::vector<model::Layer> layers;
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        auto graph = model::LayerGraph::create(plan.layers[l].kind, std::move(operators[l]));
        if (!graph) return Error{where + "layer '" + plan.layers[l].name + "': " + graph.message()};
        layers.push_back(model::Layer{plan.layers[l].name, *graph, false});
    }

    // Each tensor crossing layers adds its bytes to that edge once per consuming layer.
    std::map<std::pair<int, int>, std::int64_t> edgeBytes;
    std::set<std::tuple<int, int, std::string>> counted;
    const onnx::GraphProto& graph = state.model.graph();
    for (const OnnxPlannedNode& planned : plan.nodes) {
        const onnx::NodeProto& node = graph.node(planned.node);
        for (std::size_t i = 0; i < planned.producers.size(); ++i) {
            const int producer = planned.producers[i];
            if (producer < 0) continue;
            const int from = plan.nodes[std::size_t(producer)].layer;
            if (from == planned.layer) continue;
            const std::string& tensor = node.input(int(i));
            if (!counted.emplace(from, planned.layer, tensor).second) continue;
            const auto shape = shapes->find(tensor);
            if (shape == shapes->end())
                return Error{where + "the shape of tensor '" + tensor + "' (sent from layer '" +
                             plan.layers[std::size_t(from)].name + "' to layer '" +
                             plan.layers[std::size_t(planned.layer)].name +
                             "') could not be inferred"};
            const std::int64_t size =
                onnxElementBytes(shape->second.dataType, resolved.bytesPerElement);
            if (mulOverflows(shape->second.elements, size))
                return Error{where + "tensor '" + tensor + "' overflows 64-bit byte counts"};
            std::int64_t& sum = edgeBytes[{from, planned.layer}];
            if (sum > std::numeric_limits<std::int64_t>::max() - shape->second.elements * size)
                return Error{where + "the tensors from layer '" +
                             plan.layers[std::size_t(from)].name + "' overflow 64-bit byte counts"};
            sum += shape->second.elements * size;
        }
    }
    std::vector<model::LayerEdge> edges;
    for (const auto& [key, bytes] : edgeBytes) edges.push_back({key.first, key.second, bytes});
    auto built =
        model::ModelGraph::create(state.modelName, resolved, std::move(layers), std::move(edges));
    if (!built) return Error{where + built.message()};
    return built;
}

}  // namespace tandem::core::importers
