#include "core/model/transformer_source.h"

#include <utility>

#include "core/model/checked_arithmetic.h"
#include "core/model/embedding_builder.h"
#include "core/model/head_builder.h"
#include "core/model/transformer_block_builder.h"

namespace tandem::core::model {

Expected<std::shared_ptr<const TransformerSource>> TransformerSource::create(TransformerSpec spec) {
    if (Status status = validateTransformerSpec(spec); !status) return Error{status.message()};
    return std::shared_ptr<const TransformerSource>(new TransformerSource(std::move(spec)));
}

std::string TransformerSource::divisibilityProblem(std::int64_t t) const {
    const std::pair<const char*, std::int64_t> dims[] = {
        {"heads", spec_.heads},
        {"kv heads", spec_.kvHeadCount()},
        {"hidden size", spec_.hidden},
        {"ffn size", spec_.ffn},
    };
    for (const auto& [what, value] : dims) {
        if (value % t != 0) {
            return std::to_string(value) + " " + what +
                   " are not divisible by t = " + std::to_string(t);
        }
    }
    return {};
}

std::vector<std::int64_t> TransformerSource::tensorParallelWidths() const {
    if (!spec_.tensorParallelWidths.empty()) return spec_.tensorParallelWidths;
    std::vector<std::int64_t> widths;
    for (std::int64_t t = 1; t <= 8; ++t)
        if (divisibilityProblem(t).empty()) widths.push_back(t);
    return widths;
}

Expected<ModelGraph> TransformerSource::build(const BuildOptions& options) const {
    const std::string where = "model '" + spec_.name + "'";
    if (Status status = validateBuildOptions(options); !status) {
        return Error{where + ": " + status.message()};
    }
    BuildOptions resolved = options;
    if (resolved.sequenceLength == 0) resolved.sequenceLength = spec_.maxSequence;
    if (resolved.sequenceLength > spec_.maxSequence) {
        return Error{where + ": sequence length " + std::to_string(resolved.sequenceLength) +
                     " exceeds the model's maximum of " + std::to_string(spec_.maxSequence)};
    }
    if (std::string problem = divisibilityProblem(resolved.tensorParallel); !problem.empty()) {
        return Error{where + ": " + problem +
                     " (tensor parallelism splits heads, kv heads, hidden and ffn over t)"};
    }
    const bool sp = resolved.sequenceParallel && resolved.tensorParallel > 1;
    if (sp) {
        if (spec_.encoder || spec_.projectionDim > 0)
            return Error{where +
                         ": sequence parallelism is modelled for decoder transformers "
                         "without embedding projections (GPT, LLaMA, OPT ≥ 1.3B); drop "
                         "--sequence-parallel for this model"};
        if (resolved.sequenceLength % resolved.tensorParallel != 0)
            return Error{
                where + ": sequence parallelism splits the " +
                std::to_string(resolved.sequenceLength) +
                " tokens of a sequence over t = " + std::to_string(resolved.tensorParallel) +
                " devices, which does not divide them; choose a sequence length that t "
                "divides"};
    }
    const BuildDims dims{resolved.microbatch,
                         resolved.sequenceLength,
                         resolved.tensorParallel,
                         resolved.bytesPerElement,
                         sp,
                         resolved.flashAttention,
                         resolved.softmaxShapeRule};
    CheckedArithmetic math;
    auto embedding = buildEmbedding(spec_, dims, math);
    auto block = buildTransformerBlock(spec_, dims, math);
    auto head = buildHead(spec_, dims, math);
    // What one device sends to the next stage: its shard of the tokens under SP.
    const std::int64_t edgeBytes =
        math.mul({dims.b, dims.sequenceShard(dims.s), spec_.hidden, dims.e});
    if (math.overflowed()) {
        return Error{where + ": tensor sizes overflow 64-bit integers at microbatch " +
                     std::to_string(dims.b) + ", sequence length " + std::to_string(dims.s) +
                     ", t = " + std::to_string(dims.t) + ", " + std::to_string(dims.e) +
                     " bytes per element; use smaller values"};
    }
    for (const auto* part : {&embedding, &block, &head})
        if (!part->ok()) return Error{where + ": " + part->message()};

    const bool split = dims.t > 1;
    std::vector<Layer> layers;
    layers.reserve(std::size_t(spec_.layers) + 2);
    layers.push_back(Layer{"embedding", *embedding, split, false});
    for (std::int64_t i = 0; i < spec_.layers; ++i)
        layers.push_back(Layer{"layer." + std::to_string(i), *block, split});
    layers.push_back(Layer{"head", *head, split, false});
    std::vector<LayerEdge> edges;
    edges.reserve(layers.size() - 1);
    for (int i = 0; i + 1 < int(layers.size()); ++i)
        edges.push_back(LayerEdge{i, i + 1, edgeBytes});
    return ModelGraph::create(spec_.name, resolved, std::move(layers), std::move(edges));
}

}  // namespace tandem::core::model
