#include "core/schedule/schedule_instance.h"

#include <algorithm>
#include <functional>

namespace tandem::core::schedule {

using model::OpClass;

ScheduleInstance::ScheduleInstance(const ScheduleProblem& problem, const ProblemAnalysis& analysis,
                                   const std::vector<int>& tasks)
    : numTensorCores_(problem.numTensorCores), numVectorCores_(problem.numVectorCores) {
    const int n = static_cast<int>(tasks.size());
    tasks_.reserve(n);
    for (int original : tasks) {
        const ScheduleTask& t = problem.tasks[original];
        tasks_.push_back(InstanceTask{original, t.opClass, t.oneCoreSeconds, t.allCoresSeconds,
                                      analysis.canParallel(original)});
    }
    ancestors_ = BitMatrix(n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < j; ++i)
            if (analysis.precedes(tasks[i], tasks[j])) ancestors_.set(j, i);
    // i → j is a reduction arc when no k lies between them.
    predecessors_.assign(n, {});
    successors_.assign(n, {});
    for (int j = 0; j < n; ++j) {
        for (int i = j - 1; i >= 0; --i) {
            if (!precedes(i, j)) continue;
            bool direct = true;
            for (int k = i + 1; k < j && direct; ++k)
                if (precedes(i, k) && precedes(k, j)) direct = false;
            if (direct) {
                predecessors_[j].push_back(i);
                successors_[i].push_back(j);
            }
        }
    }
    std::vector<int> tc, vc;
    for (int i = 0; i < n; ++i) {
        if (usesTensorCore(i)) tc.push_back(i);
        if (usesVectorCore(i)) vc.push_back(i);
    }
    // Matching is cubic; beyond a few thousand users the plain core count is used.
    constexpr std::size_t kWidthLimit = 2000;
    effectiveTensorCores_ = std::max(
        1, tc.size() <= kWidthLimit ? std::min(numTensorCores_, width(tc)) : numTensorCores_);
    effectiveVectorCores_ = std::max(
        1, vc.size() <= kWidthLimit ? std::min(numVectorCores_, width(vc)) : numVectorCores_);
}

bool ScheduleInstance::usesTensorCore(int i) const {
    const OpClass c = tasks_[i].opClass;
    return c == OpClass::TensorCore || c == OpClass::Fused;
}

bool ScheduleInstance::usesVectorCore(int i) const {
    const OpClass c = tasks_[i].opClass;
    return c == OpClass::VectorCore || c == OpClass::Fused;
}

Demand ScheduleInstance::demand(int i, bool parallel) const {
    if (isCollective(i)) return Demand{0, 0, 1};
    if (parallel) return Demand{numTensorCores_, numVectorCores_, 0};
    return Demand{usesTensorCore(i) ? 1 : 0, usesVectorCore(i) ? 1 : 0, 0};
}

int ScheduleInstance::width(const std::vector<int>& subset) const {
    const int m = static_cast<int>(subset.size());
    std::vector<int> matchedLeft(m, -1);  // right vertex b → left vertex a (a precedes b)
    std::vector<char> visited;
    // Kuhn's augmenting paths; subsets have tens of tasks.
    std::function<bool(int)> augment = [&](int a) {
        for (int b = 0; b < m; ++b) {
            if (visited[b] || !precedes(subset[a], subset[b])) continue;
            visited[b] = 1;
            if (matchedLeft[b] < 0 || augment(matchedLeft[b])) {
                matchedLeft[b] = a;
                return true;
            }
        }
        return false;
    };
    int matching = 0;
    for (int a = 0; a < m; ++a) {
        visited.assign(m, 0);
        if (augment(a)) ++matching;
    }
    return m - matching;
}

}  // namespace tandem::core::schedule
