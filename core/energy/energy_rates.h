#pragma once
// The prices of the energy model (docs/cost-model.md, "Energy"), in joules and watts, from a
// chip's and a cluster's documented energy parameters (accelerator_config.h, cluster_config.h).
// A GEMM's MAC costs the core's MAC energy (times the fp8 fraction when GEMMs run in fp8) plus
// the operand streams of its output tile from the global buffer: one tile side of A and one of
// B per tile-sized reduction step, i.e. bytesPerElement · (1/rows + 1/cols) bytes per MAC for a
// tile of rows × cols MACs (the array times tensorCoreTileFolds on each side). An HBM byte also
// crosses the global buffer. Static power is the die area (dieAreaSquareMillimetres, or the
// area model's) times the static power density.
#include "core/hardware/accelerator_config.h"
#include "core/hardware/cluster_config.h"

namespace tandem::core::energy {

struct EnergyRates {
    double joulesPerGemmFlop = 0;       // half a MAC, operand streams included
    double joulesPerOtherFlop = 0;      // vector arithmetic: the core's energy per FLOP
    double joulesPerHbmByte = 0;        // HBM access plus the global buffer it passes through
    double joulesPerIntraNodeByte = 0;  // a byte sent inside a node
    double joulesPerInterNodeByte = 0;  // a byte sent between nodes
    double staticWattsPerDevice = 0;    // burnt by each device in use, whatever it does
    double dieAreaSquareMillimetres = 0;

    static EnergyRates of(const hardware::AcceleratorConfig& accelerator,
                          const hardware::ClusterConfig& cluster);
    bool operator==(const EnergyRates&) const = default;
};

}  // namespace tandem::core::energy
