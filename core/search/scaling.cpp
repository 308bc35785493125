#include "core/search/scaling.h"

#include <algorithm>

namespace tandem::core::search {

namespace {
constexpr std::int64_t kMaxDevices = 1000000;
constexpr std::int64_t kMaxBatch = std::int64_t(1) << 40;
}  // namespace

double ScalingResult::efficiency(const ScalingPoint& p) const {
    const auto base = std::find_if(points.begin(), points.end(),
                                   [&](const ScalingPoint& q) { return q.devices == baseDevices; });
    if (base == points.end() || !base->fits || !p.fits) return 0;
    return (p.throughputSamplesPerSecond / double(p.devices)) /
           (base->throughputSamplesPerSecond / double(base->devices));
}

std::vector<std::int64_t> defaultScalingSizes(std::int64_t baseDevices) {
    std::vector<std::int64_t> sizes;
    if (baseDevices < 1) return sizes;
    const std::int64_t low = std::max<std::int64_t>(1, baseDevices / 64);
    const std::int64_t high = std::min(kMaxDevices, baseDevices * 4);
    for (std::int64_t n = 1; n <= high; n *= 2)
        if (n >= low) sizes.push_back(n);
    if (std::find(sizes.begin(), sizes.end(), baseDevices) == sizes.end())
        sizes.push_back(baseDevices);
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

Expected<ScalingResult> analyseScaling(const placement::ModelPlacementRequest& request,
                                       ScalingMode mode, std::vector<std::int64_t> sizes,
                                       RunControl* control) {
    if (sizes.empty()) return Error{"scaling: no device counts given"};
    for (const std::int64_t n : sizes)
        if (n < 1 || n > kMaxDevices)
            return Error{"scaling: " + std::to_string(n) + " devices is out of range [1, " +
                         std::to_string(kMaxDevices) + "]"};
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    ScalingResult result;
    result.mode = mode;
    result.baseDevices = request.hardware.cluster.devices;
    result.baseGlobalBatch = request.training.globalBatch;
    double done = 0;
    for (const std::int64_t n : sizes) {
        ScalingPoint point;
        point.devices = n;
        point.globalBatch = request.training.globalBatch;
        if (mode == ScalingMode::Weak) {
            const double scaled = double(request.training.globalBatch) * double(n) /
                                  double(std::max<std::int64_t>(1, result.baseDevices));
            if (scaled > double(kMaxBatch))
                return Error{"scaling: the weak-scaling batch at " + std::to_string(n) +
                             " devices overflows"};
            // To the nearest whole number of microbatches, at least one (a batch splits into
            // whole microbatches: TrainingConfig's rule).
            const std::int64_t b = std::max<std::int64_t>(1, request.training.microbatch);
            point.globalBatch =
                std::max<std::int64_t>(1, std::int64_t(scaled / double(b) + 0.5)) * b;
        }
        if (control && control->cancelled()) {
            result.cancelled = true;
            result.points.push_back(std::move(point));
            continue;
        }
        placement::ModelPlacementRequest sized = request;
        sized.hardware.cluster.devices = n;
        sized.hardware.cluster.devicesPerNode = std::min(sized.hardware.cluster.devicesPerNode, n);
        sized.training.globalBatch = point.globalBatch;
        sized.training.microbatch = std::min(sized.training.microbatch, point.globalBatch);
        RunControl inner(RunControl::SilentChildOf{control});
        auto placed = placement::placeModel(sized, &inner);
        if (!placed) {
            if (control && control->cancelled()) {
                result.cancelled = true;
            } else {
                point.note = placed.message();
            }
        } else if (!placed->result.plan) {
            point.evaluated = true;
            point.note = placed->result.infeasibleReason;
        } else {
            const placement::Plan& plan = *placed->result.plan;
            point.evaluated = point.fits = true;
            point.throughputSamplesPerSecond = plan.throughputSamplesPerSecond;
            point.mfu = plan.mfu;
            point.timePerBatchSeconds = plan.timePerBatchSeconds;
            point.devicesUsed = plan.devicesUsed;
            point.tensorParallel = plan.tensorParallel;
            point.dataParallel = plan.dataParallel;
            point.stages = std::int64_t(plan.stages.size());
            if (plan.energy.known && plan.globalBatch > 0)
                point.joulesPerSample = plan.energy.totalJoules() / double(plan.globalBatch);
        }
        result.points.push_back(std::move(point));
        done += 1;
        if (control) control->report(done, double(sizes.size()), std::to_string(n) + " devices");
    }
    return result;
}

}  // namespace tandem::core::search
