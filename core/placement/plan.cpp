#include "core/placement/plan.h"

#include "core/common/units.h"

namespace tandem::core::placement {

std::int64_t replicasInLastRound(const Plan& plan) {
    if (plan.globalBatch < 1 || plan.microbatchSize < 1) return plan.dataParallel;
    const std::int64_t n = (plan.globalBatch + plan.microbatchSize - 1) / plan.microbatchSize;
    const std::int64_t last = n - (plan.microbatchesPerPipeline - 1) * plan.dataParallel;
    return last >= 1 && last <= plan.dataParallel ? last : plan.dataParallel;
}

double stageLoadSum(const std::vector<StagePlan>& stages) {
    double total = 0.0;
    for (auto it = stages.rbegin(); it != stages.rend(); ++it) total = it->loadSeconds + total;
    return total;
}

std::string lastRoundText(const Plan& plan) {
    const std::int64_t last = replicasInLastRound(plan);
    if (last == plan.dataParallel) return {};
    return "the last round on " + std::to_string(last) + " of " +
           std::to_string(plan.dataParallel) +
           " replicas: " + formatCount(double(plan.globalBatch)) + " samples";
}

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
