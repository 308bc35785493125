#include "core/placement/plan.h"

namespace tandem::core::placement {

void assignDevices(Plan& plan, std::int64_t deviceCount) {
    plan.devices.assign(std::size_t(deviceCount), DeviceAssignment{});
    std::int64_t offset = 0;  // devices of the earlier stages of one pipeline
    for (std::size_t k = 0; k < plan.stages.size(); ++k) {
        const std::int64_t a = plan.stages[k].devices;
        for (std::int64_t r = 0; r < plan.dataParallel; ++r)
            for (std::int64_t q = 0; q < a; ++q) {
                const std::int64_t id = plan.dataParallel * offset + r * a + q;
                if (id < deviceCount)
                    plan.devices[std::size_t(id)] = DeviceAssignment{int(r), int(k), int(q)};
            }
        offset += a;
    }
}

}  // namespace tandem::core::placement
