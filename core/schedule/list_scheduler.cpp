#include "core/schedule/list_scheduler.h"

#include <algorithm>

#include "core/schedule/resource_profile.h"

namespace tandem::core::schedule {

BlockSchedule ListScheduler::place(const std::vector<char>& parallel,
                                   const std::vector<double>& keys, bool mirrored) const {
    const int n = instance_.size();
    BlockSchedule result;
    result.parallel = parallel;
    result.start.assign(n, 0.0);
    std::vector<double> end(n, 0.0);
    std::vector<int> waiting(n, 0);  // unplaced predecessors (successors when mirrored)
    for (int i = 0; i < n; ++i)
        waiting[i] = static_cast<int>(mirrored ? instance_.successors(i).size()
                                               : instance_.predecessors(i).size());
    std::vector<char> placed(n, 0);
    ResourceProfile profile(instance_.numTensorCores(), instance_.numVectorCores());
    double makespan = 0;
    for (int step = 0; step < n; ++step) {
        int best = -1;
        for (int i = 0; i < n; ++i) {
            if (placed[i] || waiting[i] != 0) continue;
            if (best < 0 || keys[i] < keys[best]) best = i;
        }
        const bool par = parallel[best] != 0;
        double earliest = 0;
        const auto& before = mirrored ? instance_.successors(best) : instance_.predecessors(best);
        for (int p : before) earliest = std::max(earliest, end[p]);
        const double duration = instance_.duration(best, par);
        const Demand demand = instance_.demand(best, par);
        const double start = profile.earliestStart(earliest, duration, demand);
        profile.reserve(start, start + duration, demand);
        result.start[best] = start;
        end[best] = start + duration;
        makespan = std::max(makespan, end[best]);
        placed[best] = 1;
        const auto& after = mirrored ? instance_.predecessors(best) : instance_.successors(best);
        for (int s : after) --waiting[s];
    }
    result.makespan = makespan;
    return result;
}

BlockSchedule ListScheduler::forward(const std::vector<char>& parallel,
                                     const std::vector<double>& keys) const {
    return place(parallel, keys, false);
}

BlockSchedule ListScheduler::backward(const std::vector<char>& parallel,
                                      const std::vector<double>& keys) const {
    BlockSchedule mirrored = place(parallel, keys, true);
    for (int i = 0; i < instance_.size(); ++i)
        mirrored.start[i] = mirrored.makespan - mirrored.end(instance_, i);
    return mirrored;
}

}  // namespace tandem::core::schedule
