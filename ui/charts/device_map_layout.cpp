#include "ui/charts/device_map_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tandem::ui {

namespace {
constexpr double kTargetAspect = 1.5;  // width / height of a typical plot area
}  // namespace

DeviceMapLayout DeviceMapLayout::build(const core::placement::Plan& plan) {
    DeviceMapLayout l;
    const auto n = std::int64_t(plan.devices.size());
    l.stages = int(plan.stages.size());
    std::int64_t widest = 1;
    for (const auto& s : plan.stages) widest = std::max(widest, s.devices);
    l.block = int(widest) + 1;
    const std::int64_t d = l.stages > 0 ? std::max<std::int64_t>(plan.dataParallel, 1) : 0;
    // Replicas per band: close to the target aspect, without a half-empty last band.
    double best = 1e300;
    for (std::int64_t per = 1; per <= d; ++per) {
        const std::int64_t lines = (d + per - 1) / per;
        const double w = double(per * l.block - 1), h = double(lines * (l.stages + 1) - 1);
        const double waste = double(lines * per - d) / double(lines * per);
        const double miss = std::abs(std::log(w / h / kTargetAspect)) + 2 * waste;
        if (miss < best) best = miss, l.perLine = int(per), l.lines = int(lines);
    }
    const int stageRows = l.lines > 0 ? l.lines * (l.stages + 1) - 1 : 0;
    std::int64_t idle = 0;
    for (const auto& a : plan.devices)
        if (a.idle() || a.stage >= l.stages || a.replica >= d || a.tensorRank >= l.block - 1)
            ++idle;
    l.cols =
        l.lines > 0
            ? l.perLine * l.block - 1
            : int(std::ceil(std::sqrt(double(std::max<std::int64_t>(idle, 1)) * kTargetAspect)));
    const int idleRows = int((idle + l.cols - 1) / l.cols);
    const int idleStart = stageRows > 0 ? stageRows + (idleRows > 0 ? 1 : 0) : 0;
    l.rows = std::max(1, idleStart + idleRows);
    l.grid.assign(std::size_t(l.cols) * std::size_t(l.rows), -1);
    l.rowStage.assign(std::size_t(l.rows), -1);
    for (int r = 0; r < stageRows; ++r)
        if (r % (l.stages + 1) < l.stages) l.rowStage[std::size_t(r)] = r % (l.stages + 1);
    for (int r = idleStart; r < l.rows; ++r) l.rowStage[std::size_t(r)] = -2;
    l.cellOf.assign(std::size_t(n), -1);
    std::int64_t nextIdle = 0;
    for (std::int64_t id = 0; id < n; ++id) {
        const auto& a = plan.devices[std::size_t(id)];
        std::int64_t cell = 0;
        if (a.idle() || a.stage >= l.stages || a.replica >= d || a.tensorRank >= l.block - 1) {
            cell = std::int64_t(idleStart) * l.cols + nextIdle++;
        } else {
            const std::int64_t row = (a.replica / l.perLine) * (l.stages + 1) + a.stage;
            const std::int64_t col = (a.replica % l.perLine) * l.block + a.tensorRank;
            cell = row * l.cols + col;
        }
        l.cellOf[std::size_t(id)] = int(cell);
        l.grid[std::size_t(cell)] = int(id);
    }
    return l;
}

}  // namespace tandem::ui
