#pragma once
// One point of a search (ARCHITECTURE.md §2.9): a chip of the space × a microbatch size × a
// recompute setting × an HBM capacity. It carries the complete accelerator (HBM capacity set to
// the point's) and the chip's area, so an evaluator needs nothing but the point. `index` is the
// point's position in SearchGrid's enumeration and orders every result list.
#include <cstdint>

#include "core/hardware/accelerator_config.h"
#include "core/hardware/training_config.h"

namespace tandem::core::search {

struct SearchPoint {
    std::int64_t index = 0;                   // 0 … SearchGrid::pointCount() − 1
    std::int64_t chipIndex = 0;               // position in SearchGrid::chips()
    hardware::AcceleratorConfig accelerator;  // hbmCapacityBytes is this point's
    double areaSquareMillimetres = 0;
    std::int64_t microbatchSize = 1;
    hardware::Recompute recompute = hardware::Recompute::Off;

    std::int64_t hbmCapacityBytes() const { return accelerator.hbmCapacityBytes; }
    bool operator==(const SearchPoint&) const = default;
};

}  // namespace tandem::core::search
