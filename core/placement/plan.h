#pragma once
// A placement plan (ARCHITECTURE.md §2.5): the tensor-parallel width t, the data-parallel
// degree d and the pipeline stages, each with its layers, devices, forward/backward load and
// memory breakdown, plus time per batch, throughput, pipeline bubble and the per-device map.
// Device layout (documented in native_cost_model.h): tensor-parallel ranks innermost, then
// data-parallel replicas, then pipeline stages, so stage k of replica r, rank q runs on device
// d·offset_k + r·devices_k + q, where offset_k is the devices of the stages before k in one
// pipeline; devices past d·devicesPerPipeline stay idle. Plain values, safe to copy across threads.
#include <cstdint>
#include <string>
#include <vector>

#include "core/energy/energy_estimate.h"
#include "core/hardware/training_config.h"
#include "core/placement/cost_model_kind.h"

namespace tandem::core::placement {

struct MemoryBreakdown {
    double weightsBytes = 0;
    double gradientsBytes = 0;
    double optimizerBytes = 0;    // optimizer state beyond weights and gradients
    double activationsBytes = 0;  // one microbatch's full activations (held during its backward)
    double stashBytes = 0;        // what the other in-flight microbatches keep
    // What each further microbatch in flight adds to stashBytes: a schedule that holds n
    // microbatches where this plan holds inFlightMicrobatches needs
    // totalBytes + (n − inFlightMicrobatches) · stashBytesPerMicrobatch (pipeline_memory.h).
    // Negative: not recorded (results files written before it was).
    double stashBytesPerMicrobatch = 0;
    double totalBytes = 0;
    double capacityBytes = 0;
    double freeBytes = 0;  // capacity − total (negative when it does not fit)
};

// Seconds of one iteration on the critical path — the slowest stage's m microbatches, the
// pipeline's fill and drain, then the synchronisation — split by what the time is spent on; the
// parts sum to timePerBatchSeconds (up to rounding).
struct TimeBreakdown {
    double computeSeconds = 0;             // forward and backward work, without collectives
    double recomputeSeconds = 0;           // the forward pass again (recomputation)
    double tensorParallelCommSeconds = 0;  // tensor-parallel collectives
    double pipelineP2pSeconds = 0;         // activations and gradients between stages
    double pipelineBubbleSeconds = 0;      // fill and drain: (ΣL − Lmax)/V natively
    double dataParallelSyncSeconds = 0;    // the exposed gradient all-reduce (or PHAZE's resync)
    double optimizerSeconds = 0;           // the optimizer step (memory-bound)
    // Communication that overlap hid behind compute (--tp-comm-overlap, --overlap-grad-reduce,
    // --overlap-param-gather): shown beside the parts, not part of the total.
    double tensorParallelCommHiddenSeconds = 0;
    double dataParallelHiddenSeconds = 0;
    double pipelineP2pHiddenSeconds = 0;  // --overlap-p2p-comm (interleaved 1F1B)
    double total() const {
        return computeSeconds + recomputeSeconds + tensorParallelCommSeconds + pipelineP2pSeconds +
               pipelineBubbleSeconds + dataParallelSyncSeconds + optimizerSeconds;
    }
};

// What a stage recomputes in its backward pass.
enum class StageRecompute { None, Selective, Full };

struct StagePlan {
    std::vector<int> layers;           // indices into LayerCostSet::layers, topological order
    int position = 0;                  // stages from this one to the end inclusive (last = 1)
    std::int64_t devices = 0;          // devices of this stage in one pipeline replica
    double forwardSeconds = 0;         // one microbatch, with the incoming transfer
    double backwardSeconds = 0;        // one microbatch, with transfer and any recompute
    double loadSeconds = 0;            // forward + backward: the stage's share of one step
    double transferSeconds = 0;        // one microbatch's exposed point-to-point transfers
    double transferHiddenSeconds = 0;  // and those its compute hid (--overlap-p2p-comm)
    bool recompute = false;            // this stage recomputes its forward pass (full)
    bool selectiveRecompute = false;   // it reruns only the attention core (selective)
    std::int64_t inFlightMicrobatches = 0;
    double parameterBytes = 0;  // per device: what the gradient all-reduce moves
    MemoryBreakdown memory;
};

struct DeviceAssignment {
    int replica = -1;     // data-parallel replica, −1 when idle
    int stage = -1;       // pipeline stage (0 = first), −1 when idle
    int tensorRank = -1;  // rank inside the stage's tensor-parallel group, −1 when idle
    bool idle() const { return stage < 0; }
};

struct Plan {
    CostModelKind costModel = CostModelKind::Native;
    std::int64_t tensorParallel = 1;           // t
    std::int64_t dataParallel = 1;             // d
    std::int64_t microbatchSize = 1;           // samples per microbatch
    std::int64_t globalBatch = 0;              // B, samples per iteration (0: not recorded)
    std::int64_t microbatchesPerPipeline = 1;  // m = ⌈N / d⌉, N = ⌈B / microbatch⌉
    std::int64_t devicesPerPipeline = 0;       // Σ stage devices
    std::int64_t devicesUsed = 0;              // d · devicesPerPipeline
    hardware::Recompute recompute = hardware::Recompute::Off;  // the setting solved for
    bool sequenceParallel = false;                             // the model was built with SP
    std::int64_t interleave = 1;     // V: model chunks per device (interleaved 1F1B)
    std::int64_t zero = 0;           // ZeRO stage over the d replicas (0: none)
    std::vector<StagePlan> stages;   // pipeline order
    double maxStageLoadSeconds = 0;  // Lmax
    double pipelineSeconds = 0;      // m·Lmax + (ΣL − Lmax)/V; PHAZE: Lmax·(m + (S − 1)/V)
    double syncSeconds = 0;          // exposed data-parallel gradient all-reduce (or resync)
    double optimizerSeconds = 0;     // the optimizer step after it (native)
    double timePerBatchSeconds = 0;  // pipelineSeconds + syncSeconds + optimizerSeconds
    double throughputSamplesPerSecond = 0;  // globalBatch / timePerBatch (∞ if time is 0)
    double bubbleFraction = 0;              // the slowest stage's idle share of pipelineSeconds
    TimeBreakdown breakdown;                // where timePerBatchSeconds goes
    double modelFlopsPerIteration = 0;      // Megatron's model FLOPs (no recomputation); 0: unknown
    double mfu = 0;  // modelFlops / (timePerBatch · devicesUsed · peak); 0 when unknown
    double gemmRateOverPeak = 1;  // the GEMMs' rate over that peak (2 for fp8 on H100)
    // What the iteration does and what it costs in energy (core/energy; plan_activity.h).
    energy::IterationActivity activity;
    energy::EnergyEstimate energy;
    std::vector<DeviceAssignment> devices;  // one entry per device of the cluster
};

// The replicas that run a microbatch in the last of the m rounds: d when the N microbatches
// fill every round, N − (m − 1)·d when they do not (the others idle in it, so the plan trains
// exactly B samples); d when the global batch is not recorded.
std::int64_t replicasInLastRound(const Plan& plan);
// "the last round on 1 of 15 replicas: 4,096 samples" when the last round is not full, else "":
// what a text beside "274 microbatches per pipeline" adds so that m · d · b is not taken for
// the batch.
std::string lastRoundText(const Plan& plan);

// ΣL: the stages' loads summed from the last stage to the first, as the placement DP sums them
// (PartitionDp::Point::total), so that a plan's pipeline time repeats the solver's doubles.
double stageLoadSum(const std::vector<StagePlan>& stages);

// Fills plan.devices for a cluster of `deviceCount` devices from t, d and the stage devices.
void assignDevices(Plan& plan, std::int64_t deviceCount);

}  // namespace tandem::core::placement
