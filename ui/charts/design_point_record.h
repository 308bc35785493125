#pragma once
// What the design-space chart keeps of one evaluated point: the numbers it plots, colours by and
// shows in its tooltip, packed small (≈120 bytes) because a full PHAZE search streams 704,640
// points and the chart cannot hold that many EvaluatedPoints (each with its plans and message).
// The plan is reduced to its shape (t, d, stages, V, ZeRO, sequence parallelism); the message to an
// id in a shared string table owned by the chart.
#include <QString>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/search/evaluated_point.h"
#include "core/search/search_objective.h"
#include "core/search/search_space.h"

namespace tandem::ui {

struct DesignPointRecord {
    std::int64_t index = 0;  // SearchPoint::index
    double areaSquareMillimetres = 0;
    double throughputSamplesPerSecond = 0;
    double objective = 0;
    double baselineThroughputSamplesPerSecond = 0;
    // The optional searched fields (clock, HBM bandwidth, …), in
    // core::search::optionalSearchedFields() order.
    std::array<double, core::search::kOptionalSearchedFieldCount> optionalFields{};
    std::int64_t globalBufferBytes = 0;
    std::int64_t hbmCapacityBytes = 0;
    std::int32_t tensorCores = 0;
    std::int32_t tensorCoreRows = 0;
    std::int32_t tensorCoreCols = 0;
    std::int32_t vectorCores = 0;
    std::int32_t vectorCoreLanes = 0;
    std::int32_t microbatchSize = 0;
    std::int32_t tensorParallel = 0;  // 0: no plan kept
    std::int32_t dataParallel = 0;
    std::int32_t stages = 0;
    std::int32_t messageId = -1;    // into the chart's message table; −1: none
    std::int32_t interleave = 1;    // the plan's V
    std::int32_t zero = 0;          // the plan's ZeRO stage
    bool sequenceParallel = false;  // the plan's
    std::int32_t devicesUsed = 0;   // the plan's devices in use (0: not known)
    float joulesPerIteration = 0;   // the plan's energy per iteration (0: not known)
    float averagePowerWatts = 0;    // per device in use
    // What the search ranked by: a single-model point plots its objective in the objective's
    // display unit unless that is the throughput.
    core::search::SearchObjective objectiveKind = core::search::SearchObjective::Throughput;
    core::hardware::Recompute recompute = core::hardware::Recompute::Off;
    core::search::PointStatus status = core::search::PointStatus::Infeasible;
    // A multi-model point (it carries per-model throughputs): throughputSamplesPerSecond is 0
    // and the chart plots the objective, the geometric mean of normalised throughputs.
    bool normalised = false;

    static DesignPointRecord from(
        const core::search::EvaluatedPoint& point,
        core::search::SearchObjective objective = core::search::SearchObjective::Throughput);

    bool feasible() const { return status == core::search::PointStatus::Feasible; }
    // Where the chart draws it: the throughput, a multi-model point's objective (× the
    // reference chip), or the objective in its display unit (samples/kJ, samples/device-h);
    // infeasible points sit on a row at zero.
    double plottedThroughput() const {
        if (!feasible()) return 0.0;
        if (normalised) return objective;
        if (objectiveKind == core::search::SearchObjective::Throughput)
            return throughputSamplesPerSecond;
        return objective * core::search::objectiveDisplayScale(objectiveKind);
    }
    // The best-point rule of SearchResults: highest objective, ties to the lowest index.
    bool betterThan(const DesignPointRecord& other) const;
    // Same chip (the searched accelerator fields; HBM is a per-point option).
    bool onChip(const core::hardware::AcceleratorConfig& chip) const;

    // Rich-text tooltip with the full configuration; `message` is the resolved messageId;
    // `models` each model's (name, throughput) of a multi-model point.
    QString tooltip(const QString& message,
                    const std::vector<std::pair<QString, double>>& models = {}) const;
};

}  // namespace tandem::ui
