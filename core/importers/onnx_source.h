#pragma once
// A ModelSource for an imported ONNX graph. The graph's structure (operators, layers, weights)
// is fixed at import; each build binds the symbolic dimensions of the graph inputs — batch-like
// names to the microbatch, sequence-like names to the sequence length (see
// OnnxImportState/onnx_graph_planner.cpp for the names) — re-runs ONNX shape inference, and
// sizes every operator from the inferred shapes, so one file serves every microbatch and
// sequence length. Rules a build enforces, each an error naming the file:
//  - tensor parallelism: ONNX graphs are not split; only t = 1 builds.
//  - a file without a symbolic batch dimension fixes its batch: the microbatch must equal
//    dimension 0 of its first input.
//  - a file without a symbolic sequence dimension has no sequence length to vary: its default
//    is 1 and only that (or 0, "the default") is accepted. With one, the default sequence
//    length is kDefaultSequenceLength unless the caller gives one — or, when the file does not
//    build at that length (a model whose position table or causal mask holds fewer positions),
//    the longest power of two below it that builds; builds beyond it then say so.
// Weights are the floating-point initializers with more than one element; scalars are
// constants. A weight used by several layers (tied embeddings) is owned by the first and held
// as a tied copy by the others.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/model/model_source.h"

namespace tandem::core::importers {

struct OnnxImportState;

class OnnxSource final : public model::ModelSource {
public:
    static constexpr std::int64_t kDefaultSequenceLength = 512;

    // Builds once with the default options so that errors surface at import.
    static Expected<std::shared_ptr<const OnnxSource>> create(
        std::shared_ptr<const OnnxImportState> state);

    const std::string& name() const override;
    std::string description() const override { return description_; }
    std::int64_t defaultSequenceLength() const override;
    std::vector<std::int64_t> tensorParallelWidths() const override { return {1}; }
    Expected<model::ModelGraph> build(const model::BuildOptions& options) const override;

    // Operators whose type Tandem does not know, e.g. "com.example.FancyAct x2 (first: '/act')".
    const std::vector<std::string>& unknownOperators() const;

private:
    explicit OnnxSource(std::shared_ptr<const OnnxImportState> state);
    std::shared_ptr<const OnnxImportState> state_;
    std::string description_;
    std::int64_t defaultSequence_ = 1;
    bool defaultLowered_ = false;  // the file does not build at kDefaultSequenceLength
};

}  // namespace tandem::core::importers
