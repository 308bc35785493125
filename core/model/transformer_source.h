#pragma once
// A ModelSource for a parametric transformer (TransformerSpec): builds PHAZE's chain
// embedding → layer.0 … layer.{L−1} → head for any microbatch, sequence length (up to the spec's
// maximum) and tensor-parallel width t that divides hidden, heads, kv heads and ffn. Edges carry
// the b·s·h activation; all blocks share one LayerGraph.
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/model/model_source.h"
#include "core/model/transformer_spec.h"

namespace tandem::core::model {

class TransformerSource final : public ModelSource {
public:
    // Validates the spec (validateTransformerSpec).
    static Expected<std::shared_ptr<const TransformerSource>> create(TransformerSpec spec);

    const TransformerSpec& spec() const { return spec_; }

    const std::string& name() const override { return spec_.name; }
    std::string description() const override { return spec_.description; }
    std::int64_t defaultSequenceLength() const override { return spec_.maxSequence; }
    // The spec's list, or every t in 1..8 that divides the model's dimensions.
    std::vector<std::int64_t> tensorParallelWidths() const override;
    ParallelStrategy baselineStrategy() const override { return spec_.baseline; }
    std::int64_t transformerLayers() const override { return spec_.layers; }
    Expected<ModelGraph> build(const BuildOptions& options) const override;

    // Empty when `t` splits the model evenly, else why not (e.g. "25 heads are not divisible
    // by t = 2").
    std::string divisibilityProblem(std::int64_t t) const;

private:
    explicit TransformerSource(TransformerSpec spec) : spec_(std::move(spec)) {}
    TransformerSpec spec_;
};

}  // namespace tandem::core::model
