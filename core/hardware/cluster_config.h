#pragma once
// The cluster the model is placed on: `devices` accelerators in nodes of `devicesPerNode`, a
// fast link inside a node and a slower one between nodes. Defaults are PHAZE's: 1,024 devices on
// one flat 4 GiB/s link.
#include <cstdint>

namespace tandem::core::hardware {

struct ClusterConfig {
    std::int64_t devices = 1024;
    std::int64_t devicesPerNode = 4;
    double intraNodeBandwidthBytesPerSecond = 4.0 * double(std::int64_t(1) << 30);
    double interNodeBandwidthBytesPerSecond = 4.0 * double(std::int64_t(1) << 30);
    double hopLatencySeconds = 0.0;  // per ring step / point-to-point message

    // Bandwidth a group of `groupSize` consecutive devices communicates at: intra-node when the
    // group fits in one node.
    double groupBandwidthBytesPerSecond(std::int64_t groupSize) const {
        return groupSize <= devicesPerNode ? intraNodeBandwidthBytesPerSecond
                                           : interNodeBandwidthBytesPerSecond;
    }
    bool operator==(const ClusterConfig&) const = default;
};

}  // namespace tandem::core::hardware
