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
    // Fixed cost of one collective beyond its steps: the collective kernel's start and the
    // handshake before its first step (NCCL's base latency). 0 is PHAZE's ideal link.
    double collectiveLatencySeconds = 0.0;
    // Achievable fraction of a link's bandwidth for collectives and point-to-point transfers
    // (NCCL's bus bandwidth over the link rate); 1 is PHAZE's ideal link.
    double collectiveEfficiency = 1.0;
    // Share of the data-parallel gradient all-reduce hidden behind the backward pass (0: it
    // runs after the backward pass, as in Megatron-LM 2021 and PHAZE).
    double dataParallelOverlap = 0.0;
    // Energy of a byte a device sends to another (docs/cost-model.md, "Energy"): SerDes at
    // both ends of a node's links; between nodes also the NICs and the switches.
    double intraNodeLinkEnergyPicojoulesPerByte = 40.0;
    double interNodeLinkEnergyPicojoulesPerByte = 80.0;

    // Bandwidth per device of a collective over `groupSize` consecutive devices: the intra-node
    // link when the group fits in one node. A group across nodes holds whole nodes (consecutive
    // layout), and NCCL runs one ring per NIC: the devicesPerNode members of the group in a node
    // drive the node's devicesPerNode NICs, so each device moves devicesPerNode × interNode,
    // at most the intra-node link every ring also crosses.
    double groupBandwidthBytesPerSecond(std::int64_t groupSize) const {
        if (groupSize <= devicesPerNode) return intraNodeBandwidthBytesPerSecond;
        const double nics = double(devicesPerNode) * interNodeBandwidthBytesPerSecond;
        return nics < intraNodeBandwidthBytesPerSecond ? nics : intraNodeBandwidthBytesPerSecond;
    }
    // What collectives and transfers of such a group achieve: the link's bandwidth times
    // collectiveEfficiency.
    double effectiveGroupBandwidth(std::int64_t groupSize) const {
        return groupBandwidthBytesPerSecond(groupSize) * collectiveEfficiency;
    }
    // What the data-parallel gradient all-reduce achieves per device: d replicas of a width-t
    // pipeline, whose shards sit t devices apart (tensor-parallel ranks innermost). Inside one
    // node (d·t ≤ devicesPerNode): the intra-node link. Across nodes a ring runs per NIC
    // (NCCL's channels): the k = min(d, max(1, devicesPerNode / t)) members of one ring in a
    // node share k of the node's NICs (the t rings split them), so the ring moves
    // k × interNode per device, at most the intra-node link the rings also cross. Times
    // collectiveEfficiency.
    double dataParallelBandwidth(std::int64_t d, std::int64_t t) const {
        if (d * t <= devicesPerNode) return intraNodeBandwidthBytesPerSecond * collectiveEfficiency;
        std::int64_t k = t < devicesPerNode ? devicesPerNode / t : 1;
        if (k > d) k = d;
        const double nics = double(k) * interNodeBandwidthBytesPerSecond;
        const double rate =
            nics < intraNodeBandwidthBytesPerSecond ? nics : intraNodeBandwidthBytesPerSecond;
        return rate * collectiveEfficiency;
    }
    // PHAZE's ideal cluster: efficiency 1, no overlap.
    ClusterConfig ideal() const {
        ClusterConfig c = *this;
        c.collectiveLatencySeconds = 0.0;
        c.collectiveEfficiency = 1.0;
        c.dataParallelOverlap = 0.0;
        return c;
    }
    bool operator==(const ClusterConfig&) const = default;
};

}  // namespace tandem::core::hardware
