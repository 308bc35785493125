#pragma once
// The input of the device-placement solver (ARCHITECTURE.md §2.5), detached from the model
// and schedule types: for each tensor-parallel width t a LayerCostSet with every layer's forward
// and backward time, per-device parameter and activation bytes and the layer DAG's edge sizes,
// plus the cluster, the training configuration and the HBM capacity of one device. All values
// are SI (seconds, bytes, bytes/s) except for PHAZE instances, whose files use milliseconds and
// bytes per millisecond; the solver only does arithmetic, so it works in either unit system as
// long as one is used throughout. validate() checks everything the solver relies on.
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/energy/energy_rates.h"
#include "core/estimate/pass_work.h"
#include "core/hardware/cluster_config.h"
#include "core/hardware/training_config.h"

namespace tandem::core::placement {

struct LayerCost {
    std::string name;
    double forwardSeconds = 0;       // one microbatch, this layer's share of one device
    double backwardSeconds = 0;      // without recomputation
    double parameterBytes = 0;       // weights held by one device of the stage
    double activationBytes = 0;      // everything one microbatch keeps for the backward pass
    double stashBytesRecompute = 0;  // the layer's input: what one in-flight microbatch keeps
                                     // when the stage recomputes its forward pass
    bool tensorParallel = false;     // split over the t devices of its stage (else on 1 device)
    // Rerun by full recomputation (native cost model; model::Layer::checkpointed). A layer that
    // is not keeps its whole activationBytes per in-flight microbatch instead of its input.
    bool checkpointed = true;
    // What rerunning the forward pass adds to the backward pass (< 0: forwardSeconds). Less than
    // forwardSeconds when the host issues the rerun while the device still works on it.
    double recomputeSeconds = -1;
    // Selective recomputation: what one microbatch keeps (< 0: the layer has nothing to
    // recompute selectively and keeps activationBytes) and the forward seconds rerun in the
    // backward pass to recreate the rest.
    double activationBytesSelective = -1;
    double selectiveRecomputeSeconds = 0;
    // Of forwardSeconds / backwardSeconds: the tensor-parallel collectives on the layer's
    // critical path (for the breakdown; 0 when unknown).
    double forwardCommSeconds = 0;
    double backwardCommSeconds = 0;
    // Tensor-parallel communication hidden behind GEMMs (--tp-comm-overlap), not in the times.
    double forwardHiddenCommSeconds = 0;
    double backwardHiddenCommSeconds = 0;
    // What one microbatch's passes do on one device of the stage, for the energy model: the
    // forward (rerun whole by full recomputation), the backward, and the part of the forward
    // that selective recomputation reruns (0 when unknown).
    estimate::PassWork forwardWork{};
    estimate::PassWork backwardWork{};
    estimate::PassWork selectiveWork{};
    // Of parameterBytes: copies of weights another layer owns (tied embeddings). A stage that
    // holds every layer holds each weight once; any other stage holds the copy as well.
    double tiedParameterBytes = 0;
};

struct LayerEdgeCost {
    int from = 0;  // index into LayerCostSet::layers
    int to = 0;
    double bytes = 0;  // activation sent forward; its gradient, of the same size, goes back
};

// The layers of one tensor-parallel width. Layer i means the same model layer in every width;
// the edge structure (from, to) is the same in every width, the sizes may differ.
struct LayerCostSet {
    std::int64_t tensorParallel = 1;
    // Whole-model FLOPs of one microbatch's forward and backward pass without recomputation
    // (3 × the forward GEMM FLOPs, Megatron's model-FLOPs convention); 0 when unknown.
    double trainingFlopsPerMicrobatch = 0;
    std::vector<LayerCost> layers;
    std::vector<LayerEdgeCost> edges;
};

struct PlacementProblem {
    std::vector<LayerCostSet> widths;  // one per tensor-parallel width t, any order
    hardware::ClusterConfig cluster;
    hardware::TrainingConfig training;
    double hbmCapacityBytes = 32.0 * double(std::int64_t(1) << 30);
    std::int64_t bytesPerElement = 2;  // precision of weights and gradients (Adam accounting)
    // Bytes of one gradient as accumulated and reduced under ZeRO 0 and 1 (Megatron's DDP and
    // distributed optimizer: 4 for bf16 and fp8 training, whose gradient buffer is fp32 unless
    // --grad-reduce-in-bf16); 0: bytesPerElement. docs/cost-model.md, "Precision".
    std::int64_t gradientBytesPerElement = 0;
    // fp8 (Transformer Engine): an fp8 copy of every weight and of its transpose beside the
    // 2-byte one, 2 bytes per parameter (docs/cost-model.md, "Precision").
    bool fp8WeightCopies = false;
    double peakFlopsPerSecond = 0;  // one device's dense peak, for the MFU (0: not known)
    // The GEMMs' MAC rate over that peak (AcceleratorConfig::gemmRateOverPeak: the MFU stays
    // against the fp16/bf16 peak, as published fp8 MFU figures are).
    double gemmRateOverPeak = 1;
    // One device's achievable HBM bandwidth, for the optimizer step (native; 0: not priced).
    double memoryBandwidthBytesPerSecond = 0;
    // Share of a device's cores an overlapped collective occupies (AcceleratorConfig).
    double collectiveComputeShare = 0;
    // What work, traffic and time cost in energy (all 0: every plan's energy is 0 J).
    energy::EnergyRates energyRates;

    // Limits the solver enforces on sizes; larger inputs are rejected with a message.
    static constexpr std::int64_t kMaxDevices = std::int64_t(1) << 20;
    static constexpr std::int64_t kMaxLayers = 100000;

    // Everything the solver relies on: at least one width, unique widths ≥ 1, the same layers
    // (names) and edge structure in every width, finite non-negative sizes and times, edges in
    // range without self-loops or parallel edges, an acyclic layer graph, a sane cluster and
    // training configuration. Messages name the field, the value and the allowed range.
    Status validate() const;

    // Gradient bytes per parameter byte under ZeRO stage `zero`: gradientBytesPerElement over
    // bytesPerElement for ZeRO 0 and 1; 1 for ZeRO 2 and 3 (DeepSpeed and FSDP reduce in the
    // parameters' format by default).
    double gradientBytesFactor(std::int64_t zero) const;

    // N: microbatches in one global batch, ⌈globalBatch / microbatch⌉.
    std::int64_t microbatchesPerBatch() const;

    // The width with tensorParallel == t, or nullptr.
    const LayerCostSet* width(std::int64_t t) const;
};

}  // namespace tandem::core::placement
