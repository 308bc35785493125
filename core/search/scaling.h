#pragma once
// How a set-up scales with the cluster (issue 27 item 15): the model placed again (placeModel(),
// the placement re-chosen) at each device count, as strong scaling — the same global batch on
// more devices — or weak scaling — the global batch grown with the devices from the set-up's
// (B · N / N₀, so each device keeps its share, rounded to whole microbatches). Each size reports
// the best plan's throughput, MFU, time per batch, devices in use and energy per sample; the
// scaling efficiency is the throughput per device against the set-up's size. Sizes where nothing
// fits say why. Evaluations run one after another on the calling thread; `control` is polled
// between them and reports progress in sizes.
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/placement/model_placement.h"

namespace tandem::core::search {

enum class ScalingMode { Strong, Weak };

struct ScalingPoint {
    std::int64_t devices = 0;
    std::int64_t globalBatch = 0;
    bool evaluated = false;  // false: cancelled before it ran, or refused (note)
    bool fits = false;
    double throughputSamplesPerSecond = 0;
    double mfu = 0;
    double timePerBatchSeconds = 0;
    std::int64_t devicesUsed = 0;
    double joulesPerSample = 0;
    std::int64_t tensorParallel = 0, dataParallel = 0, stages = 0;
    std::string note;  // why nothing fits, or why not evaluated
};

struct ScalingResult {
    ScalingMode mode = ScalingMode::Strong;
    std::int64_t baseDevices = 0;      // the set-up's cluster size, N₀
    std::int64_t baseGlobalBatch = 0;  // the set-up's global batch, B
    std::vector<ScalingPoint> points;  // by devices, ascending
    bool cancelled = false;
    // Throughput per device at `p` over that at the base size (1 = linear scaling); 0 when
    // either does not fit.
    double efficiency(const ScalingPoint& p) const;
};

// Powers of two from N₀/64 (at least 1) to 4·N₀, N₀ itself included when it is not a power of
// two; each at most 1,000,000.
std::vector<std::int64_t> defaultScalingSizes(std::int64_t baseDevices);

// Errors: no sizes, a size < 1 or > 1,000,000, a weak-scaling batch that overflows.
Expected<ScalingResult> analyseScaling(const placement::ModelPlacementRequest& request,
                                       ScalingMode mode, std::vector<std::int64_t> sizes,
                                       RunControl* control = nullptr);

}  // namespace tandem::core::search
