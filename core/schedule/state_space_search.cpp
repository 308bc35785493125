#include "core/schedule/state_space_search.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <unordered_map>

#include "core/schedule/lower_bounds.h"

namespace tandem::core::schedule {

namespace {

constexpr double kPruneTolerance = 1e-12;  // only strictly better schedules are sought

struct Running {
    int task;
    bool parallel;
    double end;
};

struct Node {
    std::uint64_t placed = 0;
    double tau = 0;
    double maxEnd = 0;
    double bound = 0;
    int runBegin = 0, runCount = 0;  // slice of the running pool, sorted by task
    int parent = -1;
    int task = -1;
    bool parallel = false;
    double start = 0;
    bool dead = false;
};

class Searcher {
public:
    Searcher(const ScheduleInstance& instance, double incumbent)
        : in_(instance),
          n_(instance.size()),
          bounds_(LowerBounds::compute(instance)),
          best_(incumbent) {
        predecessorsMask_.assign(n_, 0);
        for (int j = 0; j < n_; ++j)
            for (int p : in_.predecessors(j)) predecessorsMask_[j] |= bit(p);
        all_ = n_ == 64 ? ~std::uint64_t{0} : (bit(n_) - 1);
    }

    SearchOutcome run(long long maxExpansions, const RunControl* control,
                      std::chrono::steady_clock::time_point deadline);

private:
    static std::uint64_t bit(int i) { return std::uint64_t{1} << i; }
    // The root state runs nothing and comes before any entry of the pool: pool_[0] of the empty
    // pool would be undefined, so this is pointer arithmetic on data() (null + 0 is valid).
    const Running* running(const Node& node) const { return pool_.data() + node.runBegin; }
    double lowerBound(const Node& node) const;
    bool dominates(const Node& a, const Node& b) const;
    // Adds the child unless a stored state dominates it; drops stored states it dominates.
    bool admit(int child);
    void expand(int index, std::vector<int>& stack);

    const ScheduleInstance& in_;
    int n_;
    BoundSet bounds_;
    double best_;
    int bestNode_ = -1;
    std::uint64_t all_ = 0;
    std::vector<std::uint64_t> predecessorsMask_;
    std::vector<Node> nodes_;
    std::vector<Running> pool_;
    std::unordered_map<std::uint64_t, std::vector<int>> byIdeal_;
};

double Searcher::lowerBound(const Node& node) const {
    double bound = node.maxEnd;
    const Running* run = running(node);
    for (int k = 0; k < node.runCount; ++k)
        bound = std::max(bound, run[k].end + bounds_.tail[run[k].task]);
    // Ends of running tasks, indexed by task, for their successors' ready times.
    std::vector<double> runningEnd(n_, node.tau);
    for (int k = 0; k < node.runCount; ++k) runningEnd[run[k].task] = run[k].end;
    // Running tasks keep their cores: a task cannot go parallel before every running compute
    // task ends, nor start on one core before a unit of each kind it needs is free.
    double computeEnd = node.tau;
    std::vector<std::pair<double, Demand>> releases;
    for (int k = 0; k < node.runCount; ++k) {
        if (in_.isCompute(run[k].task)) computeEnd = std::max(computeEnd, run[k].end);
        releases.emplace_back(run[k].end, in_.demand(run[k].task, run[k].parallel));
    }
    std::sort(releases.begin(), releases.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    Demand busy;
    for (const auto& [end, d] : releases) {
        busy.tensorCores += d.tensorCores;
        busy.vectorCores += d.vectorCores;
        busy.link += d.link;
    }
    double tcFree = node.tau, vcFree = node.tau, linkFree = node.tau;
    {
        Demand left = busy;
        for (const auto& [end, d] : releases) {
            if (left.tensorCores >= in_.numTensorCores()) tcFree = end;
            if (left.vectorCores >= in_.numVectorCores()) vcFree = end;
            if (left.link >= 1) linkFree = end;
            left.tensorCores -= d.tensorCores;
            left.vectorCores -= d.vectorCores;
            left.link -= d.link;
        }
    }
    std::vector<double> earliestEnd(n_, node.tau);
    for (int j = 0; j < n_; ++j) {
        if (node.placed & bit(j)) continue;
        double ready = node.tau;
        for (int p : in_.predecessors(j))
            ready = std::max(ready, (node.placed & bit(p)) ? runningEnd[p] : earliestEnd[p]);
        double oneCoreStart = ready;
        if (in_.isCollective(j)) oneCoreStart = std::max(oneCoreStart, linkFree);
        if (in_.usesTensorCore(j)) oneCoreStart = std::max(oneCoreStart, tcFree);
        if (in_.usesVectorCore(j)) oneCoreStart = std::max(oneCoreStart, vcFree);
        earliestEnd[j] = oneCoreStart + in_.task(j).oneCoreSeconds;
        if (in_.task(j).canParallel)
            earliestEnd[j] =
                std::min(earliestEnd[j], std::max(ready, computeEnd) + in_.task(j).allCoresSeconds);
        bound = std::max(bound, earliestEnd[j] + bounds_.tail[j]);
    }
    // Parallel periods exclude one-core work; see LowerBounds for the λ combination.
    constexpr int kL = static_cast<int>(std::size(LowerBounds::kLambdas));
    const double tcs = in_.effectiveTensorCores(), vcs = in_.effectiveVectorCores();
    double exclusive = 0, link = node.tau, linkWork = 0;
    double sums[kL] = {};
    const auto addShare = [&](double tcShare, double vcShare, double alone) {
        for (int l = 0; l < kL; ++l) {
            const double lambda = LowerBounds::kLambdas[l];
            sums[l] += std::min(alone, lambda * tcShare + (1 - lambda) * vcShare);
        }
    };
    constexpr double inf = std::numeric_limits<double>::infinity();
    for (int k = 0; k < node.runCount; ++k) {
        const int t = run[k].task;
        const double rest = run[k].end - node.tau;
        if (in_.isCollective(t)) {
            link = std::max(link, run[k].end);
        } else if (run[k].parallel) {
            exclusive += rest;
        } else {
            addShare(in_.usesTensorCore(t) ? rest / tcs : 0.0,
                     in_.usesVectorCore(t) ? rest / vcs : 0.0, inf);
        }
    }
    for (int j = 0; j < n_; ++j) {
        if (node.placed & bit(j)) continue;
        const InstanceTask& t = in_.task(j);
        if (in_.isCollective(j)) {
            linkWork += t.oneCoreSeconds;
            continue;
        }
        addShare(in_.usesTensorCore(j) ? t.oneCoreSeconds / tcs : 0.0,
                 in_.usesVectorCore(j) ? t.oneCoreSeconds / vcs : 0.0,
                 t.canParallel ? t.allCoresSeconds : inf);
    }
    bound = std::max(
        {bound, node.tau + exclusive + *std::max_element(sums, sums + kL), link + linkWork});
    return bound;
}

bool Searcher::dominates(const Node& a, const Node& b) const {
    if (a.tau > b.tau) return false;
    const Running* ra = running(a);
    const Running* rb = running(b);
    int k = 0;
    for (int i = 0; i < a.runCount; ++i) {
        if (ra[i].end <= b.tau) continue;
        while (k < b.runCount && rb[k].task < ra[i].task) ++k;
        if (k == b.runCount || rb[k].task != ra[i].task) return false;
        if (rb[k].end < ra[i].end) return false;
        if (ra[i].parallel && !rb[k].parallel) return false;  // parallel holds more
    }
    return true;
}

bool Searcher::admit(int child) {
    std::vector<int>& bucket = byIdeal_[nodes_[child].placed];
    for (int other : bucket)
        if (dominates(nodes_[other], nodes_[child])) return false;
    std::size_t kept = 0;
    for (int other : bucket) {
        if (dominates(nodes_[child], nodes_[other])) {
            nodes_[other].dead = true;
        } else {
            bucket[kept++] = other;
        }
    }
    bucket.resize(kept);
    bucket.push_back(child);
    return true;
}

void Searcher::expand(int index, std::vector<int>& stack) {
    const Node node = nodes_[index];  // copy: nodes_ grows below
    const double tcs = in_.numTensorCores(), vcs = in_.numVectorCores();
    struct Candidate {
        int node;
        double start, urgency;
    };
    std::vector<Candidate> children;
    for (int j = 0; j < n_; ++j) {
        if ((node.placed & bit(j)) || (predecessorsMask_[j] & ~node.placed)) continue;
        double ready = node.tau;
        for (int k = 0; k < node.runCount; ++k)
            if (predecessorsMask_[j] & bit(pool_[node.runBegin + k].task))
                ready = std::max(ready, pool_[node.runBegin + k].end);
        for (const bool parallel : {true, false}) {
            if (parallel && !in_.task(j).canParallel) continue;
            const Demand d = in_.demand(j, parallel);
            // Usage only falls after τ (every running task started by then): the first instant
            // at which the demand fits is ready or the end of some running task.
            const auto fitsAt = [&](double t) {
                Demand used;
                for (int k = 0; k < node.runCount; ++k) {
                    const Running& r = pool_[node.runBegin + k];
                    if (r.end <= t) continue;
                    const Demand u = in_.demand(r.task, r.parallel);
                    used.tensorCores += u.tensorCores;
                    used.vectorCores += u.vectorCores;
                    used.link += u.link;
                }
                return used.tensorCores + d.tensorCores <= tcs &&
                       used.vectorCores + d.vectorCores <= vcs && used.link + d.link <= 1;
            };
            double start = ready;
            if (!fitsAt(start)) {
                start = -1;
                for (int k = 0; k < node.runCount; ++k) {
                    const double e = pool_[node.runBegin + k].end;
                    if (e > ready && (start < 0 || e < start) && fitsAt(e)) start = e;
                }
            }
            const double end = start + in_.duration(j, parallel);
            Node child;
            child.placed = node.placed | bit(j);
            child.tau = start;
            child.maxEnd = std::max(node.maxEnd, end);
            child.parent = index;
            child.task = j;
            child.parallel = parallel;
            child.start = start;
            child.runBegin = static_cast<int>(pool_.size());
            bool inserted = false;
            for (int k = 0; k < node.runCount; ++k) {
                const Running r = pool_[node.runBegin + k];
                if (!inserted && j < r.task) {
                    pool_.push_back({j, parallel, end});
                    inserted = true;
                }
                if (r.end > start) pool_.push_back(r);
            }
            if (!inserted) pool_.push_back({j, parallel, end});
            child.runCount = static_cast<int>(pool_.size()) - child.runBegin;
            child.bound = lowerBound(child);
            if (child.bound >= best_ * (1 - kPruneTolerance)) {
                pool_.resize(child.runBegin);
                continue;
            }
            nodes_.push_back(child);
            const int id = static_cast<int>(nodes_.size()) - 1;
            if (child.placed == all_) {
                best_ = child.maxEnd;
                bestNode_ = id;
                continue;
            }
            if (!admit(id)) {
                nodes_.pop_back();
                pool_.resize(child.runBegin);
                continue;
            }
            children.push_back({id, start, child.bound});
        }
    }
    // Most promising last, so it is expanded first.
    std::sort(children.begin(), children.end(), [](const Candidate& a, const Candidate& b) {
        return a.urgency != b.urgency ? a.urgency > b.urgency : a.start > b.start;
    });
    for (const Candidate& c : children) stack.push_back(c.node);
}

SearchOutcome Searcher::run(long long maxExpansions, const RunControl* control,
                            std::chrono::steady_clock::time_point deadline) {
    SearchOutcome out;
    nodes_.push_back(Node{});
    nodes_[0].bound = lowerBound(nodes_[0]);
    std::vector<int> stack{0};
    bool exhausted = false;
    while (!stack.empty()) {
        const int index = stack.back();
        stack.pop_back();
        if (nodes_[index].dead || nodes_[index].bound >= best_ * (1 - kPruneTolerance)) continue;
        if (out.expansions >= maxExpansions) {
            exhausted = true;
            break;
        }
        if ((out.expansions & 63) == 0 &&
            ((control && control->cancelled()) || std::chrono::steady_clock::now() >= deadline)) {
            out.stopped = true;
            break;
        }
        ++out.expansions;
        expand(index, stack);
    }
    out.complete = !out.stopped && !exhausted;
    if (bestNode_ >= 0) {
        out.improved = true;
        out.best.start.assign(n_, 0.0);
        out.best.parallel.assign(n_, 0);
        for (int k = bestNode_; k > 0; k = nodes_[k].parent) {
            out.best.start[nodes_[k].task] = nodes_[k].start;
            out.best.parallel[nodes_[k].task] = nodes_[k].parallel ? 1 : 0;
        }
        out.best.makespan = nodes_[bestNode_].maxEnd;
    }
    return out;
}

}  // namespace

SearchOutcome StateSpaceSearch::run(long long maxExpansions, const RunControl* control,
                                    std::chrono::steady_clock::time_point deadline) const {
    if (instance_.size() > kMaxTasks || instance_.size() == 0) {
        SearchOutcome skipped;
        skipped.best = incumbent_;
        return skipped;
    }
    Searcher searcher(instance_, incumbent_.makespan);
    SearchOutcome out = searcher.run(maxExpansions, control, deadline);
    if (!out.improved) out.best = incumbent_;
    return out;
}

}  // namespace tandem::core::schedule
