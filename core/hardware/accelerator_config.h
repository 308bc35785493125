#pragma once
// One accelerator chip in PHAZE's template: numTensorCores systolic arrays of
// tensorCoreRows × tensorCoreCols MACs, numVectorCores vector units of vectorCoreLanes lanes, one
// shared on-chip global buffer, off-chip HBM. Defaults are the TPUv4-like reference chip.
// Ranges, units and descriptions of every field live in the parameter registry
// (parameter_registry.h); validate through it.
#include <cstdint>

namespace tandem::core::hardware {

struct AcceleratorConfig {
    std::int64_t numTensorCores = 8;
    std::int64_t tensorCoreRows = 128;
    std::int64_t tensorCoreCols = 128;
    std::int64_t numVectorCores = 2;
    std::int64_t vectorCoreLanes = 128;
    std::int64_t globalBufferBytes = std::int64_t(128) << 20;
    std::int64_t hbmCapacityBytes = std::int64_t(32) << 30;
    double hbmBandwidthBytesPerSecond = 1.2e12;
    double clockHz = 1.05e9;
    std::int64_t bytesPerElement = 2;

    // Dense tensor-core peak over all cores, FLOP/s (2 FLOP per MAC per cycle).
    double peakFlopsPerSecond() const {
        return 2.0 * double(numTensorCores) * double(tensorCoreRows) * double(tensorCoreCols) *
               clockHz;
    }
    bool operator==(const AcceleratorConfig&) const = default;
};

}  // namespace tandem::core::hardware
