#include "core/hardware/chip_description.h"

#include "core/common/units.h"

namespace tandem::core::hardware {

std::string describeChip(const AcceleratorConfig& a) {
    return std::to_string(a.numTensorCores) + " TC " + std::to_string(a.tensorCoreRows) + "×" +
           std::to_string(a.tensorCoreCols) + " · " + std::to_string(a.numVectorCores) + " VC ×" +
           std::to_string(a.vectorCoreLanes) + " · GLB " + formatBytes(double(a.globalBufferBytes));
}

}  // namespace tandem::core::hardware
