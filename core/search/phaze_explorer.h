#pragma once
// PHAZE's search heuristic, for comparison with the exhaustive search (the PHAZE paper). The
// chips are grouped into area buckets of 0.01 mm² (bucket = ⌊area / 10,000 µm²⌋) and walked from
// the largest area down, once for every microbatch size × HBM capacity × recompute setting (the
// space's lists, in that nesting order). A walk evaluates every chip of a bucket, takes the
// bucket's best objective (0 when none is feasible) and stops after the k-th bucket when k ≥ W
// and the last W bucket bests are non-increasing, b[k−W+1] ≥ b[k−W+2] ≥ … ≥ b[k] (W = 5 in
// PHAZE). This is our reading of "stops when the best throughput of the last 5 explored buckets
// is non-increasing": a sequence over the window, not "no new overall best for 5 buckets". A
// walk that reaches the smallest bucket ends there. The walks are independent and run in
// parallel, each sequentially, so the visited points do not depend on the thread count.
#include <cstdint>
#include <vector>

#include "core/search/explorer.h"

namespace tandem::core::search {

class PhazeExplorer final : public Explorer {
public:
    static constexpr double kBucketSquareMicrometres = 1e4;  // 0.01 mm²
    static constexpr int kPhazeWindow = 5;

    explicit PhazeExplorer(int window = kPhazeWindow) : window_(window < 1 ? 1 : window) {}
    int window() const { return window_; }

    std::string_view name() const override { return toString(ExplorerKind::Phaze); }
    SearchResults explore(const SearchGrid& grid, const PointEvaluator& evaluator, ThreadPool& pool,
                          RunControl* control = nullptr,
                          const PointCallback& onPoint = {}) const override;

    // Chip indices by bucket, largest area first; chip indices ascending inside a bucket.
    static std::vector<std::vector<std::int64_t>> areaBuckets(const SearchGrid& grid);
    // Whether a walk with these bucket bests (in walk order) stops after the last one.
    static bool stops(const std::vector<double>& bucketBests, int window);

private:
    int window_;
};

}  // namespace tandem::core::search
