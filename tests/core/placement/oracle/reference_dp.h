#pragma once
// Test oracle: the textbook placement DP with the full device dimension, for chain-like graphs
// (layers in topological order). dp[i][k][s] = best split of layers i.. into s stages on at most
// k devices (native: exactly k, so that fronts of partitions on different device counts stay
// apart, as the solver's per-u states keep them), the first of them at position s, for every
// k = 0..D — PHAZE's own recurrence. For
// phaze-compat the value is the minimum Lmax and the final round enumerates the first stage
// (PHAZE sizes its resync by it); for native the value is the Pareto set of (Lmax, largest stage
// parameter bytes), each point with the smallest ΣL reaching it, rolled over s, with one run per
// distinct cap min(m, usable stages), priced m·Lmax + ΣL − Lmax + sync. Stage
// numbers come from oracle_cost.h. Plain on purpose: it is the slow yardstick.
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "oracle_cost.h"

namespace oracle {

inline constexpr std::int64_t kNoCap() {
    return std::numeric_limits<std::int64_t>::max();
}

struct ReferenceResult {
    double best = kInf;
    std::int64_t t = 0, d = 0;
};

struct RangeProfiles {
    int n = 0;
    std::vector<Profile> table;  // [i * n + j], j ≥ i
    const Profile& operator()(int i, int j) const {
        return table[std::size_t(i) * std::size_t(n) + std::size_t(j)];
    }
};

inline RangeProfiles rangeProfiles(const PlacementProblem& pb, CostModelKind model,
                                   const LayerCostSet& set) {
    RangeProfiles r;
    r.n = int(set.layers.size());
    r.table.resize(std::size_t(r.n) * std::size_t(r.n));
    const bool chain = chainLike(set);
    std::vector<int> members;
    for (int i = 0; i < r.n; ++i) {
        members.clear();
        for (int j = i; j < r.n; ++j) {
            members.push_back(j);
            r.table[std::size_t(i) * std::size_t(r.n) + std::size_t(j)] =
                profileOf(pb, model, set, members, chain);
        }
    }
    return r;
}

inline void referencePhazeWidth(const PlacementProblem& pb, const LayerCostSet& set,
                                ReferenceResult& result) {
    const RangeProfiles prof = rangeProfiles(pb, CostModelKind::PhazeCompat, set);
    const int n = prof.n;
    const std::int64_t D = pb.cluster.devices, N = microbatches(pb);
    const int sMax = int(std::min<std::int64_t>(D, n));
    const std::size_t K1 = std::size_t(D) + 1, S1 = std::size_t(sMax) + 1;
    std::vector<double> dp((std::size_t(n) + 1) * K1 * S1, kInf);
    auto at3 = [&](int i, std::int64_t k, int s) -> double& {
        return dp[(std::size_t(i) * K1 + std::size_t(k)) * S1 + std::size_t(s)];
    };
    for (std::int64_t k = 0; k <= D; ++k) at3(n, k, 0) = 0.0;
    for (int i = n - 1; i >= 0; --i)
        for (std::int64_t k = 0; k <= D; ++k)
            for (int s = 1; s <= sMax; ++s) {
                double best = kInf;
                for (int j = i; j < n; ++j) {
                    const Profile& p = prof(i, j);
                    if (p.devices > k) continue;
                    const StageAt e = at(p, s, kNoCap());
                    if (!e.feasible) continue;
                    best = std::min(best, std::max(e.load, at3(j + 1, k - p.devices, s - 1)));
                }
                at3(i, k, s) = best;
            }
    for (std::int64_t d = 1; d <= std::min(D, N); ++d) {
        const std::int64_t K = D / d, m = (N + d - 1) / d;
        for (int j = 0; j < n; ++j) {
            const Profile& first = prof(0, j);
            if (first.devices > K) continue;
            for (int S = 1; S <= sMax; ++S) {
                const StageAt e = at(first, S, kNoCap());
                if (!e.feasible) continue;
                const double lmax = std::max(e.load, at3(j + 1, K - first.devices, S - 1));
                if (lmax == kInf) continue;
                const double tpb =
                    lmax * double(m + S - 1) + phazeSync(pb, d, first.parameterBytes);
                if (tpb < result.best) result = {tpb, set.tensorParallel, d};
            }
        }
    }
}

// A suffix's (Lmax, Q) with ΣL, its stage loads summed from its last stage.
struct Point {
    double load = 0, q = 0, total = 0;
    bool operator<(const Point& o) const {
        return std::tie(load, q, total) < std::tie(o.load, o.q, o.total);
    }
};

// Pareto sets of (Lmax, Q), one per slot (i, k) of an s-layer, stored flat in slot order; each
// sorted by Lmax ascending with Q strictly descending, each point with the smallest ΣL of the
// candidates that reach exactly its (Lmax, Q).
struct Layer {
    std::vector<Point> points;
    std::vector<std::size_t> begin;  // per slot, plus an end marker
};

inline void paretoFilter(std::vector<Point>& cand, std::vector<Point>& out) {
    std::sort(cand.begin(), cand.end());
    double minQ = kInf;
    for (const auto& c : cand)
        if (c.q < minQ) {
            out.push_back(c);
            minQ = c.q;
        }
}

inline void referenceNativeWidth(const PlacementProblem& pb, const LayerCostSet& set,
                                 ReferenceResult& result) {
    const RangeProfiles prof = rangeProfiles(pb, CostModelKind::Native, set);
    const int n = prof.n;
    const std::int64_t D = pb.cluster.devices, N = microbatches(pb);
    const int sMax = int(std::min<std::int64_t>(D, n));
    const std::size_t K1 = std::size_t(D) + 1, slotCount = (std::size_t(n) + 1) * K1;
    auto capOf = [&](std::int64_t d) {  // in-flight cap of d, or none when it cannot bind
        const std::int64_t usable = std::min<std::int64_t>(sMax, D / d), m = (N + d - 1) / d;
        return m >= usable ? kNoCap() : m;
    };
    std::vector<std::int64_t> caps;
    for (std::int64_t d = 1; d <= std::min(D, N); ++d)
        if (std::find(caps.begin(), caps.end(), capOf(d)) == caps.end()) caps.push_back(capOf(d));
    std::vector<Point> cand;
    for (const std::int64_t cap : caps) {
        Layer prev, cur;  // dp[·][·][s−1] and dp[·][·][s]
        for (std::size_t slot = 0; slot < slotCount; ++slot) {
            prev.begin.push_back(prev.points.size());
            if (slot == std::size_t(n) * K1) prev.points.push_back({});  // i = n, s = 0, k = 0
        }
        prev.begin.push_back(prev.points.size());
        // root[s][k] = dp[0][k][s]
        std::vector<std::vector<std::vector<Point>>> root(std::size_t(sMax) + 1,
                                                          std::vector<std::vector<Point>>(K1));
        for (int s = 1; s <= sMax; ++s) {
            cur.points.clear();
            cur.begin.clear();
            for (int i = 0; i <= n; ++i)
                for (std::int64_t k = 0; k <= D; ++k) {
                    cur.begin.push_back(cur.points.size());
                    cand.clear();
                    for (int j = i; j < n; ++j) {
                        const Profile& p = prof(i, j);
                        if (p.devices > k) continue;
                        const StageAt e = at(p, s, cap);
                        if (!e.feasible) continue;
                        const std::size_t child =
                            std::size_t(j + 1) * K1 + std::size_t(k - p.devices);
                        for (std::size_t c = prev.begin[child]; c < prev.begin[child + 1]; ++c)
                            cand.push_back({std::max(e.load, prev.points[c].load),
                                            std::max(p.parameterBytes, prev.points[c].q),
                                            e.load + prev.points[c].total});
                    }
                    paretoFilter(cand, cur.points);
                }
            cur.begin.push_back(cur.points.size());
            for (std::size_t k = 0; k < K1; ++k)
                root[std::size_t(s)][k].assign(
                    cur.points.begin() + std::ptrdiff_t(cur.begin[k]),
                    cur.points.begin() + std::ptrdiff_t(cur.begin[k + 1]));
            std::swap(prev, cur);
        }
        for (std::int64_t d = 1; d <= std::min(D, N); ++d) {
            if (capOf(d) != cap) continue;
            const std::int64_t K = D / d, m = (N + d - 1) / d;
            for (int S = 1; S <= sMax; ++S)
                for (std::int64_t k = 1; k <= K; ++k)
                    for (const Point& x : root[std::size_t(S)][std::size_t(k)]) {
                        // The native 1F1B time, m·Lmax + ΣL − Lmax, plus the sync.
                        const double tpb = (double(m) * x.load + std::max(0.0, x.total - x.load)) +
                                           nativeSync(pb, d, set.tensorParallel, x.q);
                        if (tpb < result.best) result = {tpb, set.tensorParallel, d};
                    }
        }
    }
}

// The optimum over every width of the problem (widths ascending, strict improvement).
inline ReferenceResult referenceDp(const PlacementProblem& pb, CostModelKind model) {
    std::vector<const LayerCostSet*> widths;
    for (const auto& set : pb.widths) widths.push_back(&set);
    std::sort(widths.begin(), widths.end(),
              [](auto* a, auto* b) { return a->tensorParallel < b->tensorParallel; });
    ReferenceResult result;
    for (const LayerCostSet* set : widths) {
        if (model == CostModelKind::PhazeCompat)
            referencePhazeWidth(pb, *set, result);
        else
            referenceNativeWidth(pb, *set, result);
    }
    return result;
}

}  // namespace oracle
