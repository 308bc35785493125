#pragma once
// Test oracle: every plan of a small problem — every width t, every d in 1..min(D, N), every
// sequence of contiguous stages (nested downsets from ∅ to all layers) — priced with
// oracle_cost.h. Exponential; meant for ≤ 8 layers.
#include <cstdint>
#include <functional>
#include <vector>

#include "oracle_cost.h"

namespace oracle {

struct BruteForceResult {
    double best = kInf;
    std::int64_t t = 0, d = 0;
    std::vector<std::vector<int>> stages;
    std::int64_t plansTried = 0;
};

// All ways to split layers 0..n−1 of `set` into an ordered sequence of non-empty stages whose
// prefixes are downsets (closed under predecessors).
inline std::vector<std::vector<std::vector<int>>> allPartitions(const LayerCostSet& set) {
    const int n = int(set.layers.size());
    std::vector<unsigned> preds(std::size_t(n), 0);
    for (const auto& e : set.edges) preds[std::size_t(e.to)] |= 1u << e.from;
    const unsigned all = (1u << n) - 1;
    std::vector<std::vector<std::vector<int>>> out;
    std::vector<std::vector<int>> current;
    std::function<void(unsigned)> rec = [&](unsigned placed) {
        if (placed == all) {
            out.push_back(current);
            return;
        }
        const unsigned rest = all & ~placed;
        for (unsigned w = rest; w; w = (w - 1) & rest) {
            bool closed = true;
            for (int v = 0; v < n && closed; ++v)
                if (w & (1u << v)) closed = (preds[std::size_t(v)] & ~(placed | w)) == 0;
            if (!closed) continue;
            std::vector<int> members;
            for (int v = 0; v < n; ++v)
                if (w & (1u << v)) members.push_back(v);
            current.push_back(members);
            rec(placed | w);
            current.pop_back();
        }
    };
    rec(0);
    return out;
}

inline BruteForceResult bruteForce(const PlacementProblem& pb, CostModelKind model,
                                   Objective objective = Objective::Time) {
    BruteForceResult r;
    std::vector<const LayerCostSet*> widths;
    for (const auto& set : pb.widths) widths.push_back(&set);
    std::sort(widths.begin(), widths.end(),
              [](auto* a, auto* b) { return a->tensorParallel < b->tensorParallel; });
    const auto partitions = allPartitions(pb.widths.front());
    const std::int64_t maxD = std::min(pb.cluster.devices, microbatches(pb));
    for (const LayerCostSet* set : widths)
        for (std::int64_t d = 1; d <= maxD; ++d)
            for (const auto& stages : partitions) {
                ++r.plansTried;
                const double tpb = planTime(pb, model, *set, d, stages, objective);
                if (tpb < r.best) {
                    r.best = tpb;
                    r.t = set->tensorParallel;
                    r.d = d;
                    r.stages = stages;
                }
            }
    return r;
}

}  // namespace oracle
