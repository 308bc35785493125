#include "core/placement/phaze_selector.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/placement/partition_dp.h"

namespace tandem::core::placement {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Best {
    double value = kInf;
    std::int64_t d = 0;
    int first = -1;  // transition of the first stage
    int stages = 0;
};

// OPT(node, s, K): the smallest Lmax splitting what is left at `node` into s stages within K
// devices; 0 for nothing left in 0 stages, +∞ when impossible.
double opt(const PartitionDp& dp, const SelectionInput& in, int node, int s, std::int64_t budget) {
    double best = kInf;
    for (int u = 0; u <= std::min(in.maxOneDevice, s); ++u)
        if (in.devicesFor(s, u) <= budget) best = std::min(best, dp.best(node, s, u));
    return best;
}

std::int64_t stageDevices(const SelectionInput& in, const StageCost& cost) {
    return cost.oneDevice ? 1 : in.tensorParallel;
}

// Every stage uses t devices (returns false when cancelled): V[f][S] = max(first stage f at
// position S, best rest) does not depend on d, so it is tabulated once.
bool finalRoundUniform(const SelectionInput& in, const PartitionDp& dp, Best& best) {
    const StageCandidates& cand = in.candidates;
    const int b = cand.firstTransition(0), nf = cand.endTransition(0) - b;
    const int sMax = in.maxStages;
    const std::size_t width = std::size_t(sMax) + 1;
    std::vector<double> value(std::size_t(nf) * width, kInf);
    std::vector<double> bytes(static_cast<std::size_t>(nf));
    std::vector<double> lowest(width, kInf);
    double fewestBytes = kInf;
    for (int f = 0; f < nf; ++f) {
        const StageCost& cost = cand.cost(b + f);
        bytes[std::size_t(f)] = cost.parameterBytes;
        for (int s = 1; s <= sMax; ++s) {
            const StageChoice c = chooseStage(cost, s, kNoInFlightCap, in.recompute);
            if (!c.feasible) break;
            const double rest = dp.best(cand.target(b + f), s - 1, 0);
            if (rest == kInf) continue;
            const double v = std::max(c.loadSeconds, rest);
            value[std::size_t(f) * width + std::size_t(s)] = v;
            lowest[std::size_t(s)] = std::min(lowest[std::size_t(s)], v);
            fewestBytes = std::min(fewestBytes, cost.parameterBytes);
        }
    }
    // Per S keep only first stages that no earlier one matches or beats in both V and P.
    std::vector<std::vector<int>> keptStages(static_cast<std::size_t>(nf));
    std::vector<std::pair<double, double>> front;  // (V, P): V ascending, P strictly descending
    for (int s = 1; s <= sMax; ++s) {
        front.clear();
        for (int f = 0; f < nf; ++f) {
            const double v = value[std::size_t(f) * width + std::size_t(s)];
            const double p = bytes[std::size_t(f)];
            if (v == kInf) continue;
            auto it = std::upper_bound(front.begin(), front.end(), v,
                                       [](double x, const auto& q) { return x < q.first; });
            if (it != front.begin() && std::prev(it)->second <= p) continue;
            keptStages[std::size_t(f)].push_back(s);
            auto lo = std::lower_bound(front.begin(), front.end(), v,
                                       [](const auto& q, double x) { return q.first < x; });
            auto hi = lo;
            while (hi != front.end() && hi->second >= p) ++hi;
            front.insert(front.erase(lo, hi), {v, p});
        }
    }
    const std::int64_t maxReplicas = std::min(in.devices, in.microbatches);
    for (std::int64_t d = 1; d <= maxReplicas; ++d) {
        if (in.control && (d & 1023) == 0 && in.control->cancelled()) return false;
        const std::int64_t budget = in.devices / d;
        const int sLimit = int(std::min<std::int64_t>(sMax, budget / in.tensorParallel));
        if (sLimit == 0) break;
        const std::int64_t m = (in.microbatches + d - 1) / d;
        double bound = kInf;
        for (int s = 1; s <= sLimit; ++s)
            if (lowest[std::size_t(s)] != kInf)
                bound = std::min(bound, lowest[std::size_t(s)] * double(m + s - 1));
        if (bound == kInf) continue;
        if (bound + in.model.syncSeconds(d, in.tensorParallel, fewestBytes) >= best.value) continue;
        for (int f = 0; f < nf; ++f) {
            const auto& kept = keptStages[std::size_t(f)];
            if (kept.empty() || kept.front() > sLimit) continue;
            const double sync = in.model.syncSeconds(d, in.tensorParallel, bytes[std::size_t(f)]);
            for (int s : kept) {
                if (s > sLimit) break;
                const double v = value[std::size_t(f) * width + std::size_t(s)];
                const double tpb = CostModel::timePerBatch(v, m, s, sync);
                if (tpb < best.value) best = Best{tpb, d, b + f, s};
            }
        }
    }
    return true;
}

// Some stages may use one device: the rest's budget depends on d, so nothing is tabulated.
// Returns false when cancelled.
bool finalRoundMixed(const SelectionInput& in, const PartitionDp& dp, Best& best) {
    const StageCandidates& cand = in.candidates;
    const std::int64_t maxReplicas = std::min(in.devices, in.microbatches);
    for (std::int64_t d = 1; d <= maxReplicas; ++d) {
        if (in.control && (d & 1023) == 0 && in.control->cancelled()) return false;
        const std::int64_t budget = in.devices / d;
        const int sLimit = in.maxStagesWithin(budget);
        if (sLimit == 0) break;
        const std::int64_t m = (in.microbatches + d - 1) / d;
        for (int f = cand.firstTransition(0); f < cand.endTransition(0); ++f) {
            const StageCost& cost = cand.cost(f);
            const std::int64_t a = stageDevices(in, cost);
            if (a > budget) continue;
            const double sync = in.model.syncSeconds(d, in.tensorParallel, cost.parameterBytes);
            for (int s = 1; s <= sLimit; ++s) {
                const StageChoice c = chooseStage(cost, s, kNoInFlightCap, in.recompute);
                if (!c.feasible) break;
                const double v =
                    std::max(c.loadSeconds, opt(dp, in, cand.target(f), s - 1, budget - a));
                if (v == kInf) continue;
                const double tpb = CostModel::timePerBatch(v, m, s, sync);
                if (tpb < best.value) best = Best{tpb, d, f, s};
            }
        }
    }
    return true;
}

}  // namespace

Expected<WidthChoice> PhazeSelector::select(const SelectionInput& in) {
    PartitionDp::Settings settings;
    settings.maxStages = in.maxStages;
    settings.maxOneDevice = in.maxOneDevice;
    settings.recompute = in.recompute;
    settings.trackSync = false;
    settings.maxStates = in.maxDpStates;
    auto dp = PartitionDp::solve(in.candidates, settings, in.control);
    if (!dp) return dp.error();
    if (in.control && in.control->cancelled()) return Error{"placement cancelled"};

    Best best;
    const bool finished =
        in.maxOneDevice == 0 ? finalRoundUniform(in, *dp, best) : finalRoundMixed(in, *dp, best);
    if (!finished) return Error{"placement cancelled"};

    WidthChoice choice;
    choice.dpStates = dp->stateCount();
    choice.dpTables = 1;
    if (best.first < 0) return choice;
    choice.found = true;
    choice.timePerBatch = best.value;
    choice.dataParallel = best.d;
    choice.stages.push_back(best.first);

    // PHAZE's greedy reconstruction of the stages after the first.
    const StageCandidates& cand = in.candidates;
    std::int64_t budget = in.devices / best.d - stageDevices(in, cand.cost(best.first));
    int node = cand.target(best.first);
    for (int s = best.stages - 1; s > 0; --s) {
        const double target = opt(*dp, in, node, s, budget);
        int chosen = -1;
        for (int tr = cand.firstTransition(node); tr < cand.endTransition(node) && chosen < 0;
             ++tr) {
            const std::int64_t a = stageDevices(in, cand.cost(tr));
            if (a > budget) continue;
            const StageChoice c = chooseStage(cand.cost(tr), s, kNoInFlightCap, in.recompute);
            if (!c.feasible) continue;
            const double v =
                std::max(opt(*dp, in, cand.target(tr), s - 1, budget - a), c.loadSeconds);
            if (std::fabs(target - v) < 1e-9) chosen = tr;
        }
        if (chosen < 0)
            return Error{
                "internal error: PHAZE plan reconstruction found no stage (please report)"};
        choice.stages.push_back(chosen);
        budget -= stageDevices(in, cand.cost(chosen));
        node = cand.target(chosen);
    }
    return choice;
}

}  // namespace tandem::core::placement
