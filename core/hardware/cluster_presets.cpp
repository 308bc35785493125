#include "core/hardware/cluster_presets.h"

#include <algorithm>
#include <array>

namespace tandem::core::hardware {
namespace {

ClusterConfig dgxA100() {
    ClusterConfig c;
    c.devices = 1024;
    c.devicesPerNode = 8;
    c.intraNodeBandwidthBytesPerSecond = 300e9;  // NVLink 3: 600 GB/s total, 300 per direction
    c.interNodeBandwidthBytesPerSecond = 25e9;   // 8 × 200 Gb/s HDR per node of 8 GPUs
    c.hopLatencySeconds = 5e-6;
    c.collectiveLatencySeconds = 8e-6;  // NCCL's base latency of a collective
    c.collectiveEfficiency = 0.8;
    c.dataParallelOverlap = 0.0;
    return c;
}

const std::array<ClusterPreset, 2>& all() {
    static const std::array<ClusterPreset, 2> presets = {{
        {"dgx-a100", "DGX A100 nodes (NVLink + InfiniBand)",
         "1,024 devices in nodes of 8: NVLink 300 GB/s inside a node, InfiniBand 25 GB/s per "
         "device between nodes, 5 µs per hop and 8 µs per collective, collectives at 80 % of the "
         "link (NVIDIA DGX A100 / "
         "Selene, as in Megatron-LM's runs)",
         dgxA100()},
        {"phaze-flat", "PHAZE flat link (4 GiB/s)",
         "1,024 devices on one flat 4 GiB/s link with ideal collectives: PHAZE's cost model, for "
         "parity with its published numbers",
         ClusterConfig{}},
    }};
    return presets;
}

}  // namespace

std::span<const ClusterPreset> clusterPresets() {
    return all();
}

const ClusterPreset* findClusterPreset(std::string_view name) {
    const auto& presets = all();
    const auto it = std::find_if(presets.begin(), presets.end(),
                                 [&](const ClusterPreset& p) { return p.name == name; });
    return it == presets.end() ? nullptr : &*it;
}

const ClusterPreset* matchClusterPreset(const ClusterConfig& cluster) {
    const auto& presets = all();
    const auto it = std::find_if(presets.begin(), presets.end(),
                                 [&](const ClusterPreset& p) { return p.cluster == cluster; });
    return it == presets.end() ? nullptr : &*it;
}

}  // namespace tandem::core::hardware
