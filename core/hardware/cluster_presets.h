#pragma once
// Named clusters for the set-up's "Cluster" list: the links a model is placed over, apart from
// the chip (the CLI takes the same numbers as --devices-per-node, --intra-node-bandwidth-…
// flags, or from a hardware file such as the a100-like preset). Two are built in, each with its
// source:
//   phaze-flat — PHAZE's cost model: 1,024 devices on one flat 4 GiB/s link, ideal collectives
//                (ClusterConfig's defaults; for parity with PHAZE's published numbers);
//   dgx-a100   — NVIDIA DGX A100 nodes as in Selene (Megatron-LM's runs): 1,024 GPUs in nodes
//                of 8, NVLink 3 at 300 GB/s per direction inside a node, 8 × 200 Gb/s HDR
//                InfiniBand per node = 25 GB/s per GPU between nodes, 5 µs per hop, collectives
//                at 80 % of the link rate (NCCL's bus bandwidth on DGX A100); the a100-like
//                preset's cluster.
// On a flat 4 GiB/s link communication dominates and chip edits barely move the result; on
// dgx-a100 the chip matters, which is why the app opens on it.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/hardware/cluster_config.h"

namespace tandem::core::hardware {

struct ClusterPreset {
    std::string_view name;         // "dgx-a100"
    std::string_view label;        // "DGX A100 nodes (NVLink + InfiniBand)"
    std::string_view description;  // one line with the numbers and their source
    ClusterConfig cluster;
};

std::span<const ClusterPreset> clusterPresets();
const ClusterPreset* findClusterPreset(std::string_view name);
// The preset whose cluster equals `cluster` in every field, if any.
const ClusterPreset* matchClusterPreset(const ClusterConfig& cluster);

}  // namespace tandem::core::hardware
