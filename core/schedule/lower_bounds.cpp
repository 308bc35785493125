#include "core/schedule/lower_bounds.h"

#include <algorithm>
#include <numeric>

namespace tandem::core::schedule {

namespace {

// max over thresholds h (a head) and q (a tail) of h + Σ{w_i : head_i ≥ h, tail_i ≥ q} + q.
double headWorkTailBound(const std::vector<double>& head, const std::vector<double>& tail,
                         const std::vector<double>& work) {
    std::vector<int> users;
    for (int i = 0; i < static_cast<int>(work.size()); ++i)
        if (work[i] > 0) users.push_back(i);
    std::sort(users.begin(), users.end(),
              [&](int a, int b) { return tail[a] != tail[b] ? tail[a] > tail[b] : a < b; });
    double best = 0;
    for (int h : users) {
        // Sweep tails from large to small; every prefix is a candidate set.
        double sum = 0;
        for (int i : users) {
            if (head[i] < head[h]) continue;
            sum += work[i];
            best = std::max(best, head[h] + sum + tail[i]);
        }
    }
    return best;
}

}  // namespace

double BoundSet::best() const {
    return std::max({criticalPath, tensorWork, vectorWork, linkWork, combinedWork, headWorkTail});
}

BoundSet LowerBounds::compute(const ScheduleInstance& instance) {
    const int n = instance.size();
    BoundSet b;
    b.head.assign(n, 0.0);
    b.tail.assign(n, 0.0);
    for (int j = 0; j < n; ++j)
        for (int p : instance.predecessors(j))
            b.head[j] = std::max(b.head[j], b.head[p] + instance.fastestDuration(p));
    for (int i = n - 1; i >= 0; --i)
        for (int s : instance.successors(i))
            b.tail[i] = std::max(b.tail[i], instance.fastestDuration(s) + b.tail[s]);
    for (int i = 0; i < n; ++i)
        b.criticalPath =
            std::max(b.criticalPath, b.head[i] + instance.fastestDuration(i) + b.tail[i]);

    const double tcs = instance.effectiveTensorCores();
    const double vcs = instance.effectiveVectorCores();
    std::vector<double> tcWork(n, 0.0), vcWork(n, 0.0), linkWork(n, 0.0);
    for (int i = 0; i < n; ++i) {
        const InstanceTask& t = instance.task(i);
        if (instance.isCollective(i)) {
            linkWork[i] = t.oneCoreSeconds;
            continue;
        }
        // A parallel task holds every unit of both core kinds for allCoresSeconds.
        if (instance.usesTensorCore(i))
            tcWork[i] = t.canParallel ? std::min(t.oneCoreSeconds / tcs, t.allCoresSeconds)
                                      : t.oneCoreSeconds / tcs;
        if (instance.usesVectorCore(i))
            vcWork[i] = t.canParallel ? std::min(t.oneCoreSeconds / vcs, t.allCoresSeconds)
                                      : t.oneCoreSeconds / vcs;
    }
    b.tensorWork = std::accumulate(tcWork.begin(), tcWork.end(), 0.0);
    b.vectorWork = std::accumulate(vcWork.begin(), vcWork.end(), 0.0);
    b.linkWork = std::accumulate(linkWork.begin(), linkWork.end(), 0.0);
    for (const double lambda : kLambdas) {
        double sum = 0;
        for (int i = 0; i < n; ++i) {
            if (instance.isCollective(i)) continue;
            const InstanceTask& t = instance.task(i);
            const double share =
                lambda * (instance.usesTensorCore(i) ? t.oneCoreSeconds / tcs : 0.0) +
                (1 - lambda) * (instance.usesVectorCore(i) ? t.oneCoreSeconds / vcs : 0.0);
            sum += t.canParallel ? std::min(share, t.allCoresSeconds) : share;
        }
        b.combinedWork = std::max(b.combinedWork, sum);
    }
    b.headWorkTail = std::max({headWorkTailBound(b.head, b.tail, tcWork),
                               headWorkTailBound(b.head, b.tail, vcWork),
                               headWorkTailBound(b.head, b.tail, linkWork)});
    return b;
}

}  // namespace tandem::core::schedule
