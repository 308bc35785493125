#include "core/search/stored_point_check.h"

#include <cmath>

#include "core/hardware/parameter_spec.h"

namespace tandem::core::search {
namespace {

using hardware::formatNumber;

std::string shapeText(const PlanShape& s) {
    return "t " + std::to_string(s.tensorParallel) + ", d " + std::to_string(s.dataParallel) +
           ", " + std::to_string(s.stages) + " stages, V " + std::to_string(s.interleave) +
           ", ZeRO " + std::to_string(s.zero) +
           (s.sequenceParallel ? ", sequence parallel, " : ", ") +
           formatNumber(s.timePerBatchSeconds) + " s per batch";
}

std::string valuePair(const char* what, double stored, double derived) {
    return std::string(what) + " " + formatNumber(stored) + " stored, " + formatNumber(derived) +
           " re-derived";
}

}  // namespace

std::string storedPointInconsistency(const EvaluatedPoint& p, std::int64_t globalBatch,
                                     std::int64_t clusterDevices, SearchObjective objective) {
    const PlanShape& s = p.planShape;
    if (!p.feasible()) {
        if (p.throughputSamplesPerSecond != 0 || p.objective != 0 || s.stages != 0 ||
            s.tensorParallel != 0 || s.dataParallel != 0 || s.timePerBatchSeconds != 0 ||
            s.interleave != 1 || s.zero != 0 || s.sequenceParallel || s.devicesUsed != 0 ||
            s.joulesPerIteration != 0 || s.averagePowerWatts != 0)
            return "status \"" + std::string(toString(p.status)) +
                   "\" with a throughput, objective or plan (a point that is not feasible has "
                   "none)";
        for (double t : p.modelThroughputsSamplesPerSecond)
            if (t != 0)
                return "status \"" + std::string(toString(p.status)) + "\" with a model throughput";
        return {};
    }
    if (!(p.throughputSamplesPerSecond > 0) || !std::isfinite(p.throughputSamplesPerSecond) ||
        !(p.objective > 0) || !std::isfinite(p.objective))
        return "feasible with throughput " + formatNumber(p.throughputSamplesPerSecond) +
               " and objective " + formatNumber(p.objective) + " (both must be > 0)";
    if (s.tensorParallel < 1 || s.dataParallel < 1 || s.stages < 1 || s.interleave < 1 ||
        s.zero < 0 || s.zero > 3 || !(s.timePerBatchSeconds > 0) ||
        !std::isfinite(s.timePerBatchSeconds) || s.devicesUsed < 0 ||
        !(s.joulesPerIteration >= 0) || !std::isfinite(s.joulesPerIteration) ||
        !(s.averagePowerWatts >= 0) || !std::isfinite(s.averagePowerWatts))
        return "feasible with an impossible plan (" + shapeText(s) + ")";
    // Every stage runs on at least one device (t, or 1 without tensor-parallel layers).
    if (std::int64_t(s.stages) > clusterDevices / s.dataParallel ||
        s.tensorParallel > clusterDevices || s.devicesUsed > clusterDevices)
        return "a plan (" + shapeText(s) + ") that needs more than the cluster's " +
               std::to_string(clusterDevices) + " devices";
    if (p.modelThroughputsSamplesPerSecond.empty()) {
        const double implied = double(globalBatch) / s.timePerBatchSeconds;
        if (implied != p.throughputSamplesPerSecond)
            return "throughput " + formatNumber(p.throughputSamplesPerSecond) +
                   " samples/s, but its plan's " + formatNumber(s.timePerBatchSeconds) +
                   " s per batch of " + std::to_string(globalBatch) + " gives " +
                   formatNumber(implied);
        const double value =
            objectiveValue(objective, p.throughputSamplesPerSecond, double(s.devicesUsed),
                           s.joulesPerIteration, double(globalBatch));
        if (p.objective != value)
            return valuePair("objective", p.objective, value) +
                   " (a single-model objective is the " + std::string(objectiveTitle(objective)) +
                   " of its plan)";
    }
    return {};
}

std::string storedPointDifference(const EvaluatedPoint& stored, const EvaluatedPoint& derived) {
    if (stored.status != derived.status)
        return "status \"" + std::string(toString(stored.status)) + "\" stored, \"" +
               std::string(toString(derived.status)) + "\" re-derived";
    if (stored.throughputSamplesPerSecond != derived.throughputSamplesPerSecond)
        return valuePair("throughput", stored.throughputSamplesPerSecond,
                         derived.throughputSamplesPerSecond);
    if (stored.objective != derived.objective)
        return valuePair("objective", stored.objective, derived.objective);
    if (stored.baselineThroughputSamplesPerSecond != derived.baselineThroughputSamplesPerSecond)
        return valuePair("fixed-strategy throughput", stored.baselineThroughputSamplesPerSecond,
                         derived.baselineThroughputSamplesPerSecond);
    if (!(stored.planShape == derived.planShape))
        return "plan " + shapeText(stored.planShape) + " stored, " + shapeText(derived.planShape) +
               " re-derived";
    if (stored.modelThroughputsSamplesPerSecond != derived.modelThroughputsSamplesPerSecond)
        return "the per-model throughputs differ from the re-derived ones";
    return {};
}

}  // namespace tandem::core::search
