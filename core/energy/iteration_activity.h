#pragma once
// What one training iteration does on the whole cluster, as the energy model prices it
// (energy_estimate.h): arithmetic with recomputation, HBM traffic, bytes over the links, and the
// device-seconds the static power is paid for. Built from a plan (core/placement/plan_activity.h).
#include <cstdint>

namespace tandem::core::energy {

struct IterationActivity {
    double flops = 0;               // all arithmetic executed, recomputation included, FLOP
    double gemmFlops = 0;           // of which on the tensor cores
    double hbmBytes = 0;            // HBM reads and writes (the optimizer step included)
    double intraNodeLinkBytes = 0;  // sent to a device of the same node
    double interNodeLinkBytes = 0;  // sent to a device of another node
    std::int64_t devices = 0;       // devices in use
    double seconds = 0;             // the iteration's time: each device in use is on that long
    bool operator==(const IterationActivity&) const = default;
};

}  // namespace tandem::core::energy
