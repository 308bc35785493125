#pragma once
// A ModelSource for the graph form of a native model file: any layer DAG of operators whose
// sizes are expressions over b, s, t and e. Building evaluates every expression (exact integer
// division, overflow-checked), sets the group size of collectives and of Megatron-f Nops to t,
// marks a layer tensor-parallel only when t > 1, and validates the result like any ModelGraph.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/common/expected.h"
#include "core/model/graph_template.h"
#include "core/model/model_source.h"

namespace tandem::core::model {

class GraphSource final : public ModelSource {
public:
    // Builds once with the default options (microbatch 1, default sequence, the first
    // tensor-parallel width, 2 bytes per element, or the built_for options) so that errors in
    // the file surface when it is loaded.
    static Expected<std::shared_ptr<const GraphSource>> create(GraphTemplate graph);

    const std::string& name() const override { return graph_.name; }
    std::string description() const override { return graph_.description; }
    std::int64_t defaultSequenceLength() const override { return graph_.defaultSequence; }
    std::vector<std::int64_t> tensorParallelWidths() const override;
    Expected<ModelGraph> build(const BuildOptions& options) const override;

private:
    explicit GraphSource(GraphTemplate graph) : graph_(std::move(graph)) {}
    GraphTemplate graph_;
};

}  // namespace tandem::core::model
