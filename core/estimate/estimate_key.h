#pragma once
// The memoisation key of one estimate: the operator fields that affect its cost and the hardware
// fields that its class reads (the registry's ParameterSpec::costUse), nothing else. Fields a
// class ignores are zeroed, so a
// tensor-core GEMM on two chips that differ only in their vector cores or in the cluster shares
// one entry, and two operators that differ only in name, kind, memory sizes or graph edges
// share one too. A fixed-size struct with a field-wise hash keeps the hot path free of string
// building and allocation.
#include <array>
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
    std::int64_t streamedBytes = 0;               // TensorCore, Fused (FlashAttention)
    std::int64_t collectiveBytes = 0;             // Collective
    std::int64_t groupSize = 0;                   // Collective
    std::int64_t collectiveKind = 0;              // Collective: model::CollectiveKind

    // Hardware part: one slot per field of the accelerator and cluster registries that some
    // cost reads (ParameterSpec::costUse ≠ 0), in registry order (accelerator first), holding
    // the value when costUse names this operator's class and 0 otherwise. A new hardware
    // parameter joins the key by declaring which costs read it.
    static constexpr std::size_t kMaxHardwareFields = 32;
    std::array<double, kMaxHardwareFields> hardware{};

    bool operator==(const EstimateKey&) const = default;

    // The accelerator and cluster registries' fields some cost reads: at most
    // kMaxHardwareFields (a test holds it; fields past it would be left out of the key).
    static std::size_t hardwareFieldCount();

    static EstimateKey make(const model::Operator& op,
                            const hardware::AcceleratorConfig& accelerator,
                            const hardware::ClusterConfig& cluster);
};

struct EstimateKeyHash {
    std::size_t operator()(const EstimateKey& key) const noexcept;
};

}  // namespace tandem::core::estimate
