#pragma once
// Where a model comes from: a transformer spec (the zoo, Hugging Face configs), a native graph
// file, later ONNX. A source builds the ModelGraph for given build options; everything after it
// in the pipeline sees only ModelGraph.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/model/model_graph.h"
#include "core/model/transformer_spec.h"

namespace tandem::core::model {

class ModelSource {
public:
    virtual ~ModelSource() = default;
    virtual const std::string& name() const = 0;
    virtual std::string description() const = 0;
    virtual std::int64_t defaultSequenceLength() const = 0;
    // Tensor-parallel widths this model can be split into (the search tries these).
    virtual std::vector<std::int64_t> tensorParallelWidths() const = 0;
    // Errors name the option and why (e.g. "25 heads are not divisible by t = 8").
    virtual Expected<ModelGraph> build(const BuildOptions& options) const = 0;
    // The fixed Megatron-style strategy this model is compared with, and its number of
    // transformer layers L (the unit the fixed strategy splits); none for generic graphs.
    virtual ParallelStrategy baselineStrategy() const { return {}; }
    virtual std::int64_t transformerLayers() const { return 0; }
    // The source that builds the graph, under any wrapper (importers::FileModelSource).
    virtual const ModelSource& underlying() const { return *this; }
};

using ModelSourcePtr = std::shared_ptr<const ModelSource>;

}  // namespace tandem::core::model
