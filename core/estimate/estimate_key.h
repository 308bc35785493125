#pragma once
// The memoisation key of one estimate: the operator fields that affect its cost and the hardware
// fields that its class depends on, nothing else. Fields a class ignores are zeroed, so a
// tensor-core GEMM on two chips that differ only in their vector cores or in the cluster shares
// one entry, and two operators that differ only in name, kind, memory sizes or graph edges
// share one too. A fixed-size struct with a field-wise hash keeps the hot path free of string
// building and allocation.
#include <cstddef>
#include <cstdint>

#include "core/hardware/accelerator_config.h"
#include "core/hardware/cluster_config.h"
#include "core/model/operator.h"

namespace tandem::core::estimate {

struct EstimateKey {
    // Operator part.
    std::int64_t opClass = 0;
    std::int64_t batch = 0, m = 0, n = 0, k = 0;  // TensorCore, Fused
    std::int64_t elements = 0;                    // VectorCore, Fused
    double cyclesPerElement = 0;                  // VectorCore, Fused
    std::int64_t streamedTensors = 0;             // VectorCore
    std::int64_t collectiveBytes = 0;             // Collective
    std::int64_t groupSize = 0;                   // Collective
    std::int64_t collectiveKind = 0;              // Collective: model::CollectiveKind

    // Hardware part.
    std::int64_t numTensorCores = 0, tensorCoreRows = 0, tensorCoreCols = 0;  // TensorCore, Fused
    std::int64_t globalBufferBytes = 0;                                       // TensorCore, Fused
    std::int64_t numVectorCores = 0, vectorCoreLanes = 0;                     // VectorCore, Fused
    std::int64_t bytesPerElement = 0;         // TensorCore, VectorCore, Fused
    double hbmBandwidthBytesPerSecond = 0;    // TensorCore, VectorCore, Fused
    double clockHz = 0;                       // TensorCore, VectorCore, Fused
    double linkBandwidthBytesPerSecond = 0;   // Collective: the group's effective bandwidth
    double hopLatencySeconds = 0;             // Collective
    double collectiveLatencySeconds = 0;      // Collective
    std::int64_t devicesPerNode = 0;          // Collective (tree across nodes)
    double tensorCoreEfficiency = 0;          // TensorCore, Fused
    double tensorCoreDrainCyclesPerRow = 0;   // TensorCore, Fused
    std::int64_t tensorCoreTileFolds = 0;     // TensorCore, Fused
    double tensorCoreTileOverheadCycles = 0;  // TensorCore, Fused
    double hbmEfficiency = 0;                 // TensorCore, VectorCore, Fused
    double operatorOverheadSeconds = 0;       // all classes but Nop

    bool operator==(const EstimateKey&) const = default;

    static EstimateKey make(const model::Operator& op,
                            const hardware::AcceleratorConfig& accelerator,
                            const hardware::ClusterConfig& cluster);
};

struct EstimateKeyHash {
    std::size_t operator()(const EstimateKey& key) const noexcept;
};

}  // namespace tandem::core::estimate
