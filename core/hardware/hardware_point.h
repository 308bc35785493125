#pragma once
// A named accelerator + cluster: what a hardware preset or a hardware JSON file holds.
#include <string>

#include "core/hardware/accelerator_config.h"
#include "core/hardware/cluster_config.h"

namespace tandem::core::hardware {

struct HardwarePoint {
    std::string name;         // "tpuv4-like"
    std::string description;  // one line for lists and tooltips
    AcceleratorConfig accelerator;
    ClusterConfig cluster;
    bool operator==(const HardwarePoint&) const = default;
};

}  // namespace tandem::core::hardware
