#pragma once
// A model for one (microbatch, sequence length, tensor-parallel width t): the DAG of layers with
// the tensor sizes on its edges. Everything is per device, i.e. one tensor-parallel shard, for
// one microbatch. Layers that are identical share one LayerGraph.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/model/layer_graph.h"

namespace tandem::core::model {

struct Layer {
    std::string name;  // "embedding", "layer.0", …, "head"
    std::shared_ptr<const LayerGraph> graph;
    bool tensorParallel = false;  // split over the t devices of a stage
    // Full recomputation reruns this layer's forward pass in the backward pass and keeps only
    // its input per in-flight microbatch. Megatron-LM checkpoints the transformer blocks only:
    // the embedding and the head keep their activations and are not rerun.
    bool checkpointed = true;
};

struct LayerEdge {
    int from = 0;
    int to = 0;
    std::int64_t bytes = 0;  // activation sent forward (and its gradient sent back)
    bool operator==(const LayerEdge&) const = default;
};

struct BuildOptions {
    std::int64_t microbatch = 1;
    std::int64_t sequenceLength = 0;  // 0: the model's default
    std::int64_t tensorParallel = 1;
    std::int64_t bytesPerElement = 2;
    // Megatron's sequence parallelism (only transformers built from their shape support it;
    // with t = 1 it changes nothing).
    bool sequenceParallel = false;
    // FlashAttention (Dao et al. 2022): each attention core is one fused kernel that keeps its
    // score tiles on chip (only transformers built from their shape support it).
    bool flashAttention = false;
    // Transformer Engine's overlap of tensor-parallel collectives with their GEMMs: the graph is
    // the same, its layers are priced with it (estimate/tp_comm_overlap.h).
    bool tpCommOverlap = false;
    // Megatron's fused scale-mask-softmax kernel takes only some shapes; the others run
    // PyTorch's unfused softmax (docs/cost-model.md, "Attention softmax"). false: the fused
    // kernel for every shape, as PHAZE's graphs have it (phaze-compat).
    bool softmaxShapeRule = true;
};

// The refusal every source that cannot split the sequence gives when asked to (t > 1 and
// sequenceParallel); success otherwise.
Status refuseSequenceParallel(const BuildOptions& options, std::string_view what);
// The same for FlashAttention: success unless it is asked for.
Status refuseFlashAttention(const BuildOptions& options, std::string_view what);

// Checks what every model source needs: microbatch >= 1, sequenceLength >= 0 (0: default),
// tensorParallel >= 1, bytesPerElement in 1..16. Sources add their own limits.
Status validateBuildOptions(const BuildOptions& options);

class ModelGraph {
public:
    // Validates: at least one layer, unique non-empty names, every layer has a graph, edges in
    // range with bytes >= 0, no self-loops or parallel edges, acyclic. Layers whose graphs have
    // equal signatures end up sharing one LayerGraph instance.
    static Expected<ModelGraph> create(std::string name, BuildOptions options,
                                       std::vector<Layer> layers, std::vector<LayerEdge> edges);

    const std::string& name() const { return name_; }
    const BuildOptions& options() const { return options_; }  // sequenceLength resolved
    const std::vector<Layer>& layers() const { return layers_; }
    const std::vector<LayerEdge>& edges() const { return edges_; }

    // Distinct LayerGraphs in first-use order, and for each layer the index into that list.
    const std::vector<std::shared_ptr<const LayerGraph>>& uniqueGraphs() const { return unique_; }
    const std::vector<int>& uniqueIndexOfLayer() const { return uniqueIndex_; }

    bool isChain() const;                 // edges are exactly i → i+1
    std::int64_t parameterBytes() const;  // per device, tied weights counted once
    double parameterCount() const;        // whole model, in parameters: sharded operators
                                          // of tensor-parallel layers count t times,
                                          // replicated ones once
    double forwardFlops() const;
    double backwardFlops() const;
    double forwardGemmFlops() const;
    double backwardGemmFlops() const;

private:
    std::string name_;
    BuildOptions options_;
    std::vector<Layer> layers_;
    std::vector<LayerEdge> edges_;
    std::vector<std::shared_ptr<const LayerGraph>> unique_;
    std::vector<int> uniqueIndex_;
    std::int64_t parameterBytes_ = 0;
};

}  // namespace tandem::core::model
