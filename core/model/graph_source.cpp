#include "core/model/graph_source.h"

#include <cmath>
#include <utility>

namespace tandem::core::model {

namespace {

Expected<std::int64_t> evaluateSize(const SizeExpression& expr, const SizeVariables& vars,
                                    const std::string& path) {
    auto value = expr.evaluate(vars);
    if (!value) return Error{path + " = \"" + expr.text() + "\": " + value.message()};
    if (*value < 0) {
        return Error{path + " = \"" + expr.text() + "\" evaluates to " + std::to_string(*value) +
                     "; sizes must be >= 0"};
    }
    return *value;
}

Expected<double> evaluateCycles(const CyclesTemplate& cycles, const SizeVariables& vars,
                                const std::string& path) {
    if (!cycles.expression) return cycles.number;
    auto value = evaluateSize(*cycles.expression, vars, path);
    if (!value) return value.error();
    if (double(*value) > kMaxCyclesPerElement) {
        return Error{path + " = \"" + cycles.expression->text() + "\" evaluates to " +
                     std::to_string(*value) + "; cycles per element must be at most 1000000"};
    }
    return double(*value);
}

Expected<Operator> buildOperator(const OperatorTemplate& tmpl, const SizeVariables& vars) {
    Operator op;
    op.name = tmpl.name;
    op.kind = tmpl.kind;
    op.opClass = tmpl.opClass;
    op.backwardRule = tmpl.backwardRule;
    op.sharded = tmpl.sharded;
    op.collective = tmpl.collective;
    op.selectiveRecompute = tmpl.selectiveRecompute;
    op.inputs = tmpl.inputs;
    std::int64_t* const targets[kOperatorSizeCount] = {&op.gemm.batch,
                                                       &op.gemm.m,
                                                       &op.gemm.n,
                                                       &op.gemm.k,
                                                       &op.elements,
                                                       &op.streamedTensors,
                                                       &op.backwardStreamedTensors,
                                                       &op.collectiveBytes,
                                                       &op.parameterBytes,
                                                       &op.tiedParameterBytes,
                                                       &op.outputBytes,
                                                       &op.savedBytes,
                                                       &op.discardedBytes,
                                                       &op.streamedBytes};
    for (std::size_t f = 0; f < kOperatorSizeCount; ++f) {
        auto value =
            evaluateSize(tmpl.sizes[f], vars, tmpl.path + "." + std::string(kOperatorSizeKeys[f]));
        if (!value) return value.error();
        *targets[f] = *value;
    }
    auto cycles = evaluateCycles(tmpl.cyclesPerElement, vars, tmpl.path + ".cycles_per_element");
    if (!cycles) return cycles.error();
    op.cyclesPerElement = *cycles;
    auto backwardCycles = evaluateCycles(tmpl.backwardCyclesPerElement, vars,
                                         tmpl.path + ".backward_cycles_per_element");
    if (!backwardCycles) return backwardCycles.error();
    op.backwardCyclesPerElement = *backwardCycles;
    // Collectives span the tensor-parallel group; at t = 1 they remain and cost nothing.
    if (op.opClass == OpClass::Collective || op.backwardRule == BackwardRule::AllReduceInBackward)
        op.groupSize = vars.t;
    return op;
}

std::string describe(const BuildOptions& o) {
    return "microbatch " + std::to_string(o.microbatch) + ", sequence length " +
           std::to_string(o.sequenceLength) + ", t = " + std::to_string(o.tensorParallel) + ", " +
           std::to_string(o.bytesPerElement) + " bytes per element" +
           (o.sequenceParallel ? ", sequence parallel" : "");
}

}  // namespace

Expected<std::shared_ptr<const GraphSource>> GraphSource::create(GraphTemplate graph) {
    if (graph.tensorParallelWidths.empty()) {
        return Error{"model '" + graph.name + "': tensor_parallel_widths is empty"};
    }
    BuildOptions trial;
    trial.tensorParallel = graph.tensorParallelWidths.front();
    if (graph.builtFor) trial = *graph.builtFor;
    auto source = std::shared_ptr<const GraphSource>(new GraphSource(std::move(graph)));
    if (auto built = source->build(trial); !built) return built.error();
    return source;
}

std::vector<std::int64_t> GraphSource::tensorParallelWidths() const {
    return graph_.tensorParallelWidths;
}

Expected<ModelGraph> GraphSource::build(const BuildOptions& options) const {
    const std::string where = "model '" + graph_.name + "'";
    if (Status status = validateBuildOptions(options); !status) {
        return Error{where + ": " + status.message()};
    }
    // A graph exported from a sequence-parallel build already holds the split.
    const bool exportedSplit = graph_.builtFor && graph_.builtFor->sequenceParallel;
    if (Status status = refuseFlashAttention(options, "graph models (operators as written)");
        !status)
        return Error{where + ": " + status.message()};
    if (Status status = refuseSequenceParallel(options, "graph models (operators as written)");
        !status && !exportedSplit)
        return Error{where + ": " + status.message()};
    BuildOptions resolved = options;
    if (resolved.sequenceLength == 0) resolved.sequenceLength = graph_.defaultSequence;
    if (graph_.builtFor) {
        const BuildOptions& fixed = *graph_.builtFor;
        if (resolved.microbatch != fixed.microbatch ||
            resolved.sequenceLength != fixed.sequenceLength ||
            resolved.tensorParallel != fixed.tensorParallel ||
            resolved.bytesPerElement != fixed.bytesPerElement ||
            resolved.sequenceParallel != fixed.sequenceParallel) {
            return Error{where + " was exported for " + describe(fixed) +
                         " only (its sizes are numbers, not expressions); asked for " +
                         describe(resolved)};
        }
    }
    const SizeVariables vars{resolved.microbatch, resolved.sequenceLength, resolved.tensorParallel,
                             resolved.bytesPerElement};
    std::vector<Layer> layers;
    layers.reserve(graph_.layers.size());
    for (const LayerTemplate& tmpl : graph_.layers) {
        Layer layer{tmpl.name, nullptr, tmpl.tensorParallel && resolved.tensorParallel > 1};
        if (tmpl.sameAs >= 0) {
            layer.graph = layers[std::size_t(tmpl.sameAs)].graph;
        } else {
            std::vector<Operator> ops;
            ops.reserve(tmpl.operators.size());
            for (const OperatorTemplate& opTemplate : tmpl.operators) {
                auto op = buildOperator(opTemplate, vars);
                if (!op) return Error{where + ": " + op.message()};
                ops.push_back(std::move(*op));
            }
            auto graph = LayerGraph::create(tmpl.kind, std::move(ops));
            if (!graph) return Error{where + ": " + tmpl.path + ": " + graph.message()};
            layer.graph = std::move(*graph);
        }
        layers.push_back(std::move(layer));
    }
    std::vector<LayerEdge> edges;
    edges.reserve(graph_.edges.size());
    for (const EdgeTemplate& tmpl : graph_.edges) {
        auto bytes = evaluateSize(tmpl.bytes, vars, tmpl.path + ".bytes");
        if (!bytes) return Error{where + ": " + bytes.message()};
        edges.push_back(LayerEdge{tmpl.from, tmpl.to, *bytes});
    }
    return ModelGraph::create(graph_.name, resolved, std::move(layers), std::move(edges));
}

}  // namespace tandem::core::model
