#include "core/schedule/schedule_rebuilder.h"

#include <algorithm>
#include <tuple>

namespace tandem::core::schedule {

Demand ScheduleRebuilder::peakUsage(const BlockSchedule& schedule) const {
    const int n = instance_.size();
    // (time, 0 = end / 1 = start, task): ends release before starts at the same instant.
    std::vector<std::tuple<double, int, int>> events;
    for (int i = 0; i < n; ++i) {
        events.emplace_back(schedule.start[i], 1, i);
        events.emplace_back(schedule.end(instance_, i), 0, i);
    }
    std::sort(events.begin(), events.end());
    Demand used, peak;
    for (const auto& [time, kind, i] : events) {
        const Demand d = instance_.demand(i, schedule.parallel[i] != 0);
        const int sign = kind == 1 ? 1 : -1;
        used.tensorCores += sign * d.tensorCores;
        used.vectorCores += sign * d.vectorCores;
        used.link += sign * d.link;
        peak.tensorCores = std::max(peak.tensorCores, used.tensorCores);
        peak.vectorCores = std::max(peak.vectorCores, used.vectorCores);
        peak.link = std::max(peak.link, used.link);
    }
    return peak;
}

bool ScheduleRebuilder::resourceFeasible(const BlockSchedule& schedule) const {
    const Demand peak = peakUsage(schedule);
    return peak.tensorCores <= instance_.numTensorCores() &&
           peak.vectorCores <= instance_.numVectorCores() && peak.link <= 1;
}

BlockSchedule ScheduleRebuilder::earliest(const std::vector<char>& parallel,
                                          const std::vector<std::pair<int, int>>& before,
                                          bool& acyclic) const {
    const int n = instance_.size();
    std::vector<std::vector<int>> preds(n);
    for (int j = 0; j < n; ++j) preds[j] = instance_.predecessors(j);
    std::vector<std::vector<int>> succs(n);
    std::vector<int> waiting(n, 0);
    for (int j = 0; j < n; ++j) {
        for (int i : preds[j]) succs[i].push_back(j);
        waiting[j] = static_cast<int>(preds[j].size());
    }
    for (const auto& [i, j] : before) {
        preds[j].push_back(i);
        succs[i].push_back(j);
        ++waiting[j];
    }
    BlockSchedule longest;
    longest.parallel = parallel;
    longest.start.assign(n, 0.0);
    longest.makespan = 0;
    std::vector<int> ready;
    for (int i = 0; i < n; ++i)
        if (waiting[i] == 0) ready.push_back(i);
    int done = 0;
    while (!ready.empty()) {
        const int j = ready.back();
        ready.pop_back();
        ++done;
        for (int i : preds[j])
            longest.start[j] = std::max(longest.start[j], longest.end(instance_, i));
        longest.makespan = std::max(longest.makespan, longest.end(instance_, j));
        for (int s : succs[j])
            if (--waiting[s] == 0) ready.push_back(s);
    }
    acyclic = done == n;
    return longest;
}

BlockSchedule ScheduleRebuilder::rebuild(const std::vector<char>& parallel,
                                         const std::vector<std::pair<int, int>>& before,
                                         const std::vector<double>& solverStarts) const {
    bool acyclic = false;
    const BlockSchedule longest = earliest(parallel, before, acyclic);
    const bool longestValid = acyclic && resourceFeasible(longest);
    const BlockSchedule listed = ListScheduler(instance_).forward(parallel, solverStarts);
    if (longestValid && longest.makespan <= listed.makespan) return longest;
    return listed;
}

}  // namespace tandem::core::schedule
