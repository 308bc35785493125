#include "core/placement/partition_dp.h"

#include <algorithm>
#include <string>

namespace tandem::core::placement {
namespace {

using Point = PartitionDp::Point;

// `front` is sorted by load ascending with sync strictly descending. A point equal to or worse
// than an existing one in both criteria is dropped, so among equal candidates the first wins —
// unless `smallerTotal`, when a point equal in both replaces one with a larger ΣL.
void insert(std::vector<Point>& front, const Point& p, bool smallerTotal) {
    auto lo = std::lower_bound(front.begin(), front.end(), p.load,
                               [](const Point& q, double load) { return q.load < load; });
    if (lo != front.begin() && std::prev(lo)->sync <= p.sync) return;
    if (lo != front.end() && lo->load == p.load && lo->sync <= p.sync) {
        if (smallerTotal && lo->sync == p.sync && p.total < lo->total) *lo = p;
        return;
    }
    auto hi = lo;
    while (hi != front.end() && hi->sync >= p.sync) ++hi;
    lo = front.erase(lo, hi);
    front.insert(lo, p);
}

// True when some point has load ≤ load and sync ≤ sync: then nothing with at least both values
// can join the front. With `strict`, only a point better in one of them counts: a point equal in
// both could still be replaced by a smaller ΣL.
bool covered(const std::vector<Point>& front, double load, double sync, bool strict) {
    auto it = std::upper_bound(front.begin(), front.end(), load,
                               [](double l, const Point& q) { return l < q.load; });
    if (it == front.begin()) return false;
    const Point& q = *std::prev(it);
    return q.sync <= sync && (!strict || q.load < load || q.sync < sync);
}

}  // namespace

std::span<const Point> PartitionDp::front(int node, int stages, int oneDevice) const {
    if (stages < 0 || stages > settings_.maxStages || oneDevice < 0 ||
        oneDevice > settings_.maxOneDevice)
        return {};
    const std::size_t k = slot(node, stages, oneDevice);
    return {points_.data() + offset_[k], std::size_t(count_[k])};
}

int PartitionDp::frontOffset(int node, int stages, int oneDevice) const {
    return offset_[slot(node, stages, oneDevice)];
}

double PartitionDp::best(int node, int stages, int oneDevice) const {
    const auto f = front(node, stages, oneDevice);
    return f.empty() ? std::numeric_limits<double>::infinity() : f.front().load;
}

std::vector<int> PartitionDp::stagesOf(int index) const {
    std::vector<int> stages;
    while (index >= 0 && points_[std::size_t(index)].transition >= 0) {
        stages.push_back(points_[std::size_t(index)].transition);
        index = points_[std::size_t(index)].child;
    }
    return stages;
}

Expected<PartitionDp> PartitionDp::solve(const StageCandidates& cand, const Settings& settings,
                                         RunControl* control) {
    PartitionDp dp;
    dp.settings_ = settings;
    const std::int64_t states = std::int64_t(cand.nodeCount()) *
                                std::int64_t(settings.maxStages + 1) *
                                std::int64_t(settings.maxOneDevice + 1);
    if (states > settings.maxStates)
        return Error{"the placement DP would need " + std::to_string(states) +
                     " states (downsets × pipeline stages × one-device stages), more than "
                     "Tandem's limit of " +
                     std::to_string(settings.maxStates) +
                     "; use fewer, larger layers or fewer devices (--devices)"};
    if (!settings.maxLoad.empty() &&
        settings.maxLoad.size() !=
            std::size_t(settings.maxStages + 1) * std::size_t(settings.maxOneDevice + 1))
        return Error{"internal error: the placement DP's load limits do not match its states"};
    dp.offset_.assign(std::size_t(states), 0);
    dp.count_.assign(std::size_t(states), 0);
    dp.points_.push_back(Point{});  // the empty suffix: Lmax = 0.0, Q = 0.0
    dp.count_[dp.slot(cand.terminal(), 0, 0)] = 1;

    std::vector<Point> front;
    for (int node = cand.terminal() - 1; node >= 0; --node) {
        if (control && control->cancelled()) return Error{"placement cancelled"};
        const int stagesHere = std::min(settings.maxStages, cand.remainingLayers(node));
        for (int s = 1; s <= stagesHere; ++s) {
            // Chain: when the shortest stage from here holds too many microbatches at position
            // s ≥ 2, every transition stops the scan at once, for every u, and so it does at every
            // later position (more in flight, the same recomputation rules): those states stay
            // empty.
            if (cand.monotone() && s >= 2 &&
                (cand.firstTransition(node) == cand.endTransition(node) ||
                 !chooseStage(cand.cost(cand.firstTransition(node)), s, settings.inFlightCap,
                              settings.recompute, settings.lastStageRecomputes)
                      .feasible))
                break;
            for (int u = 0; u <= std::min(settings.maxOneDevice, s); ++u) {
                front.clear();
                const double maxLoad = settings.maxLoad.empty()
                                           ? std::numeric_limits<double>::infinity()
                                           : settings.maxLoad[dp.slot(0, s, u)];
                for (int tr = cand.firstTransition(node); tr < cand.endTransition(node); ++tr) {
                    const StageCost& cost = cand.cost(tr);
                    const double q = settings.trackSync ? cost.parameterBytes : 0.0;
                    if (cand.monotone() &&
                        (cost.lowerBoundSeconds > maxLoad ||
                         covered(front, cost.lowerBoundSeconds, q, settings.preferSmallerTotal)))
                        break;
                    const StageChoice choice =
                        chooseStage(cost, s, settings.inFlightCap, settings.recompute,
                                    settings.lastStageRecomputes);
                    if (!choice.feasible) {
                        if (cand.monotone()) break;  // a longer range fits even less
                        continue;
                    }
                    if (choice.loadSeconds > maxLoad) continue;
                    const int childU = u - (cost.oneDevice ? 1 : 0);
                    if (childU < 0) continue;
                    const int target = cand.target(tr);
                    if (cand.remainingLayers(target) < s - 1) {
                        if (cand.monotone()) break;  // later targets leave even fewer layers
                        continue;
                    }
                    const std::size_t k = dp.slot(target, s - 1, childU);
                    for (int c = 0; c < dp.count_[k]; ++c) {
                        const int index = dp.offset_[k] + c;
                        const Point& child = dp.points_[std::size_t(index)];
                        if (child.load > maxLoad) break;  // the front is sorted by load
                        insert(
                            front,
                            Point{std::max(choice.loadSeconds, child.load), std::max(q, child.sync),
                                  tr, index, choice.loadSeconds + child.total},
                            settings.preferSmallerTotal);
                    }
                }
                const std::size_t k = dp.slot(node, s, u);
                if (dp.points_.size() + front.size() > std::size_t(std::numeric_limits<int>::max()))
                    return Error{"the placement DP's Pareto fronts exceed 2^31 points"};
                dp.offset_[k] = int(dp.points_.size());
                dp.count_[k] = int(front.size());
                dp.points_.insert(dp.points_.end(), front.begin(), front.end());
            }
        }
    }
    return dp;
}

}  // namespace tandem::core::placement
