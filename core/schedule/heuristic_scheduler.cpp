#include "core/schedule/heuristic_scheduler.h"

#include <algorithm>
#include <cstdint>

namespace tandem::core::schedule {

namespace {

// splitmix64: a fixed, platform-independent stream, so the heuristic is deterministic.
class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    double uniform() {  // in [0, 1)
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        return static_cast<double>(z >> 11) * 0x1.0p-53;
    }

private:
    std::uint64_t state_;
};

constexpr double kMeetTolerance = 1e-12;

}  // namespace

HeuristicScheduler::HeuristicScheduler(const ScheduleInstance& instance, double lowerBound)
    : instance_(instance), lists_(instance), lowerBound_(lowerBound) {}

bool HeuristicScheduler::meetsBound(const BlockSchedule& s) const {
    return s.makespan <= lowerBound_ * (1 + kMeetTolerance);
}

std::vector<double> HeuristicScheduler::tailKeys(const std::vector<char>& parallel) const {
    // Longest path from a task's start to the end: most urgent first.
    const int n = instance_.size();
    std::vector<double> length(n, 0.0);
    for (int i = n - 1; i >= 0; --i) {
        double after = 0;
        for (int s : instance_.successors(i)) after = std::max(after, length[s]);
        length[i] = instance_.duration(i, parallel[i] != 0) + after;
    }
    for (double& l : length) l = -l;
    return length;
}

std::vector<double> HeuristicScheduler::headKeys(const std::vector<char>& parallel) const {
    const int n = instance_.size();
    std::vector<double> head(n, 0.0);
    for (int j = 0; j < n; ++j)
        for (int p : instance_.predecessors(j))
            head[j] = std::max(head[j], head[p] + instance_.duration(p, parallel[p] != 0));
    return head;
}

BlockSchedule HeuristicScheduler::improve(BlockSchedule s) const {
    const int n = instance_.size();
    for (int round = 0; round < 4 && !meetsBound(s); ++round) {
        std::vector<double> keys(n);
        for (int i = 0; i < n; ++i) keys[i] = -s.end(instance_, i);  // latest finish first
        const BlockSchedule right = lists_.backward(s.parallel, keys);
        for (int i = 0; i < n; ++i) keys[i] = right.start[i];
        BlockSchedule left = lists_.forward(s.parallel, keys);
        if (!(left.makespan < s.makespan)) break;
        s = std::move(left);
    }
    return s;
}

BlockSchedule HeuristicScheduler::evaluate(const std::vector<char>& parallel,
                                           int perturbations) const {
    const int n = instance_.size();
    BlockSchedule best;
    const auto consider = [&](const std::vector<double>& keys) {
        BlockSchedule s = improve(lists_.forward(parallel, keys));
        if (s.makespan < best.makespan) best = std::move(s);
        return meetsBound(best);
    };
    const std::vector<double> tail = tailKeys(parallel);
    if (consider(tail)) return best;
    // Earliest start first, the longer remaining path breaking ties: keys are ranks.
    const std::vector<double> head = headKeys(parallel);
    std::vector<int> byHead(n);
    for (int i = 0; i < n; ++i) byHead[i] = i;
    std::sort(byHead.begin(), byHead.end(), [&](int a, int b) {
        return head[a] != head[b] ? head[a] < head[b] : tail[a] < tail[b];
    });
    std::vector<double> keys(n);
    for (int r = 0; r < n; ++r) keys[byHead[r]] = r;
    if (consider(keys)) return best;
    for (int i = 0; i < n; ++i) keys[i] = i;
    if (consider(keys)) return best;
    Random random(0x7a4d3e11u + static_cast<std::uint64_t>(n));
    for (int k = 0; k < perturbations; ++k) {
        for (int i = 0; i < n; ++i) keys[i] = tail[i] * (1 + 0.5 * random.uniform());
        if (consider(keys)) return best;
    }
    return best;
}

BlockSchedule HeuristicScheduler::run(const RunControl* control, int effort,
                                      std::chrono::steady_clock::time_point deadline) const {
    const int n = instance_.size();
    std::vector<char> fastest(n), oneCore(n, 0), tcParallel(n), criticalParallel(n, 0);
    for (int i = 0; i < n; ++i) {
        fastest[i] = instance_.task(i).canParallel ? 1 : 0;
        tcParallel[i] = fastest[i] && instance_.usesTensorCore(i) ? 1 : 0;
    }
    // Parallel only on a longest path (at fastest latencies): keeps cores free off the path.
    {
        const std::vector<double> tail = tailKeys(fastest);  // minus the remaining path
        const std::vector<double> head = headKeys(fastest);
        std::vector<double> through(n);
        for (int i = 0; i < n; ++i) through[i] = head[i] - tail[i];
        const double longest = *std::max_element(through.begin(), through.end());
        for (int i = 0; i < n; ++i)
            if (fastest[i] && through[i] >= longest * (1 - 1e-12)) criticalParallel[i] = 1;
    }
    BlockSchedule best;
    for (const std::vector<char>* modes : {&fastest, &oneCore, &tcParallel, &criticalParallel}) {
        BlockSchedule s = evaluate(*modes, 2 * effort);
        if (s.makespan < best.makespan) best = std::move(s);
        if (meetsBound(best)) return best;
    }
    // First-improvement local search over single mode flips.
    for (int pass = 0; pass < 2 * effort; ++pass) {
        bool improved = false;
        for (int i = 0; i < n; ++i) {
            if (!instance_.task(i).canParallel) continue;
            if ((control && control->cancelled()) || std::chrono::steady_clock::now() >= deadline)
                return best;
            std::vector<char> modes = best.parallel;
            modes[i] = modes[i] ? 0 : 1;
            BlockSchedule s = evaluate(modes, 0);
            if (s.makespan < best.makespan) {
                best = std::move(s);
                improved = true;
                if (meetsBound(best)) return best;
            }
        }
        if (!improved) break;
    }
    return best;
}

}  // namespace tandem::core::schedule
