#pragma once
// The exact oracle of the scheduler tests: an exhaustive search over execution modes and list
// orders, written independently of core/schedule (its own resource timeline, no Nop removal, no
// dominance rules on modes: every compute task tries both modes).
//
// Why it is exact. Fix the modes of an optimal schedule; the problem is then a resource-
// constrained project scheduling problem with renewable resources (TCs, VCs, the link; a parallel
// task demands every TC and VC). Among the optimal schedules take one that minimises the sum of
// start times (the set of schedules with makespan ≤ OPT is a finite union of closed polyhedra,
// so the minimum is attained). It is *active*: no task can start earlier with all others in
// place, else that sum would drop. List it by (start, index). The serial generation scheme —
// place each listed task at the earliest time precedence and the resources used by the tasks
// placed before it allow — reproduces it: by induction the earlier tasks sit at their times; the
// task's time in S is feasible against them, so the scheme picks t ≤ s; and t < s is impossible,
// because tasks later in the list start at ≥ s, so in [t, s) the task meets only already placed
// tasks, and in [s, t + p) it was present in S anyway; moving it to t would be a feasible left
// shift of an active schedule. Hence searching all (mode vector, list) pairs finds OPT, and it
// suffices to search lists whose generated (start, index) pairs increase, which is what the DFS
// enforces. It requires predecessors to have smaller indices (so that ties in start time, which
// only zero-length tasks create along precedence, list a predecessor first).
#include <algorithm>
#include <limits>
#include <vector>

#include "core/model/operator.h"
#include "core/schedule/schedule_problem.h"

namespace tandem::testing {

class BruteForceScheduler {
public:
    explicit BruteForceScheduler(const core::schedule::ScheduleProblem& problem)
        : p_(problem), n_(static_cast<int>(problem.tasks.size())) {
        for (int i = 0; i < n_; ++i)
            for (int q : p_.tasks[i].predecessors) ordered_ = ordered_ && q < i;
        tail_.assign(n_, 0.0);
        for (int i = n_ - 1; i >= 0; --i) {
            double after = 0;
            for (int j = i + 1; j < n_; ++j)
                for (int q : p_.tasks[j].predecessors)
                    if (q == i) after = std::max(after, tail_[j]);
            tail_[i] = fastest(i) + after;
        }
    }

    // NaN when the precondition (predecessors have smaller indices) does not hold.
    double optimalMakespan() {
        if (!ordered_) return std::numeric_limits<double>::quiet_NaN();
        best_ = std::numeric_limits<double>::infinity();
        placed_.assign(n_, 0);
        start_.assign(n_, 0.0);
        end_.assign(n_, 0.0);
        parallel_.assign(n_, 0);
        nodes_ = 0;
        search(0, -1.0, -1, 0.0);
        return best_;
    }
    long long nodes() const { return nodes_; }

private:
    using OpClass = core::model::OpClass;
    bool compute(int i) const {
        const OpClass c = p_.tasks[i].opClass;
        return c == OpClass::TensorCore || c == OpClass::VectorCore || c == OpClass::Fused;
    }
    double duration(int i, bool parallel) const {
        if (p_.tasks[i].opClass == OpClass::Nop) return 0;
        return parallel ? p_.tasks[i].allCoresSeconds : p_.tasks[i].oneCoreSeconds;
    }
    double fastest(int i) const {
        return compute(i) ? std::min(duration(i, false), duration(i, true)) : duration(i, false);
    }
    // TC, VC and link units task i holds.
    void demand(int i, bool parallel, int d[3]) const {
        const OpClass c = p_.tasks[i].opClass;
        d[0] = d[1] = d[2] = 0;
        if (c == OpClass::Collective) d[2] = 1;
        if (!compute(i)) return;
        if (parallel) {
            d[0] = p_.numTensorCores;
            d[1] = p_.numVectorCores;
            return;
        }
        d[0] = c == OpClass::TensorCore || c == OpClass::Fused ? 1 : 0;
        d[1] = c == OpClass::VectorCore || c == OpClass::Fused ? 1 : 0;
    }
    bool fitsAt(int task, bool parallel, double t, double p) const {
        if (p <= 0) return true;
        int want[3];
        demand(task, parallel, want);
        const int cap[3] = {p_.numTensorCores, p_.numVectorCores, 1};
        // Usage is piecewise constant; check it at t and at every placed start inside (t, t+p).
        std::vector<double> points{t};
        for (int j = 0; j < n_; ++j)
            if (placed_[j] && start_[j] > t && start_[j] < t + p) points.push_back(start_[j]);
        for (double x : points) {
            int used[3] = {want[0], want[1], want[2]};
            for (int j = 0; j < n_; ++j) {
                if (!placed_[j] || !(start_[j] <= x && x < end_[j])) continue;
                int d[3];
                demand(j, parallel_[j] != 0, d);
                for (int r = 0; r < 3; ++r) used[r] += d[r];
            }
            for (int r = 0; r < 3; ++r)
                if (used[r] > cap[r]) return false;
        }
        return true;
    }
    double earliest(int task, bool parallel, double ready) const {
        const double p = duration(task, parallel);
        std::vector<double> candidates{ready};
        for (int j = 0; j < n_; ++j)
            if (placed_[j] && end_[j] > ready) candidates.push_back(end_[j]);
        std::sort(candidates.begin(), candidates.end());
        for (double t : candidates)
            if (fitsAt(task, parallel, t, p)) return t;
        return std::numeric_limits<double>::infinity();  // unreachable: the last end is free
    }
    void search(int count, double lastStart, int lastIndex, double makespan) {
        ++nodes_;
        if (count == n_) {
            best_ = std::min(best_, makespan);
            return;
        }
        // Bound: every remaining task starts no earlier than lastStart and its predecessors.
        double bound = makespan;
        for (int j = 0; j < n_; ++j) {
            if (placed_[j]) continue;
            double ready = std::max(lastStart, 0.0);
            for (int q : p_.tasks[j].predecessors)
                if (placed_[q]) ready = std::max(ready, end_[q]);
            bound = std::max(bound, ready + tail_[j]);
        }
        if (bound >= best_) return;
        for (int j = 0; j < n_; ++j) {
            if (placed_[j]) continue;
            double ready = 0;
            bool eligible = true;
            for (int q : p_.tasks[j].predecessors) {
                if (!placed_[q])
                    eligible = false;
                else
                    ready = std::max(ready, end_[q]);
            }
            if (!eligible) continue;
            for (int mode = 0; mode < (compute(j) ? 2 : 1); ++mode) {
                const bool parallel = mode == 1;
                const double t = earliest(j, parallel, ready);
                if (t < lastStart || (t == lastStart && j < lastIndex)) continue;
                placed_[j] = 1;
                parallel_[j] = parallel ? 1 : 0;
                start_[j] = t;
                end_[j] = t + duration(j, parallel);
                search(count + 1, t, j, std::max(makespan, end_[j]));
                placed_[j] = 0;
            }
        }
    }

    const core::schedule::ScheduleProblem& p_;
    int n_;
    bool ordered_ = true;
    std::vector<double> tail_;
    std::vector<char> placed_, parallel_;
    std::vector<double> start_, end_;
    double best_ = 0;
    long long nodes_ = 0;
};

}  // namespace tandem::testing
