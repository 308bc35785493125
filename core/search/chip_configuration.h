#pragma once
// One accelerator of a search space that passed the area window: the full AcceleratorConfig
// (searched fields set, the others from the space's base; HBM capacity is a per-point option and
// holds the base value here) and its area, kept in µm² as the area model returns it so that
// PHAZE's 0.01 mm² buckets (10,000 µm²) are computed without a decimal rounding step.
#include "core/hardware/accelerator_config.h"

namespace tandem::core::search {

struct ChipConfiguration {
    hardware::AcceleratorConfig accelerator;
    double areaSquareMicrometres = 0;
    double areaSquareMillimetres = 0;  // areaSquareMicrometres / 1e6, correctly rounded
    bool operator==(const ChipConfiguration&) const = default;
};

}  // namespace tandem::core::search
