#include "core/search/ranking.h"

#include <string>

namespace tandem::core::search {

Expected<SearchResults> rankResults(const SearchResults& results, SearchObjective objective,
                                    std::int64_t globalBatch) {
    const std::string by(objectiveTitle(objective));
    if (globalBatch < 1)
        return Error{"cannot rank by " + by + ": the global batch is " +
                     std::to_string(globalBatch) + "; it must be at least 1"};
    const SearchStatistics& statistics = results.statistics();
    if (statistics.skipped > 0)
        return Error{"cannot rank these results by " + by + ": the pruned explorer skipped " +
                     std::to_string(statistics.skipped) +
                     " points that could not beat its best by the objective it searched, and "
                     "by another they might; search again ranked by " +
                     by};
    std::vector<EvaluatedPoint> points = results.points();
    for (EvaluatedPoint& p : points) {
        if (!p.feasible()) continue;
        if (!p.modelThroughputsSamplesPerSecond.empty())
            return Error{"cannot rank a multi-model search by " + by +
                         " without searching again: its points keep each model's throughput, "
                         "not each model's energy and devices"};
        const PlanShape& s = p.planShape;
        const bool needsEnergy = objective == SearchObjective::ThroughputPerWatt;
        const bool needsDevices = objective == SearchObjective::Cost;
        if ((needsEnergy && !(s.joulesPerIteration > 0)) || (needsDevices && s.devicesUsed < 1))
            return Error{"cannot rank these results by " + by + ": point " +
                         std::to_string(p.point.index) + " does not record its plan's " +
                         (needsEnergy ? "energy" : "devices in use") +
                         " (the file predates it); search again ranked by " + by};
        p.objective = objectiveValue(objective, p.throughputSamplesPerSecond, double(s.devicesUsed),
                                     s.joulesPerIteration, double(globalBatch));
    }
    return SearchResults(std::move(points), statistics);
}

}  // namespace tandem::core::search
