#include "core/search/phaze_explorer.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/search/exploration_session.h"

namespace tandem::core::search {

std::vector<std::vector<std::int64_t>> PhazeExplorer::areaBuckets(const SearchGrid& grid) {
    const auto chips = grid.chips();
    std::vector<std::pair<double, std::int64_t>> keyed;  // (bucket, chip)
    keyed.reserve(chips.size());
    for (std::size_t i = 0; i < chips.size(); ++i)
        keyed.emplace_back(std::floor(chips[i].areaSquareMicrometres / kBucketSquareMicrometres),
                           std::int64_t(i));
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<std::vector<std::int64_t>> buckets;
    for (std::size_t i = 0; i < keyed.size(); ++i) {
        if (i == 0 || keyed[i].first != keyed[i - 1].first) buckets.emplace_back();
        buckets.back().push_back(keyed[i].second);
    }
    return buckets;
}

bool PhazeExplorer::stops(const std::vector<double>& bests, int window) {
    const auto w = std::size_t(std::max(window, 1));
    if (bests.size() < w) return false;
    for (std::size_t k = bests.size() - w + 1; k < bests.size(); ++k)
        if (bests[k] > bests[k - 1]) return false;
    return true;
}

SearchResults PhazeExplorer::explore(const SearchGrid& grid, const PointEvaluator& evaluator,
                                     ThreadPool& pool, RunControl* control,
                                     const PointCallback& onPoint) const {
    const SearchSpace& space = grid.space();
    ExplorationSession session(std::string(name()), grid, evaluator, pool, control, onPoint,
                               grid.pointCount());
    const std::vector<std::vector<std::int64_t>> buckets = areaBuckets(grid);

    struct Walk {
        std::size_t m, h, r;
    };
    std::vector<Walk> walks;
    for (std::size_t m = 0; m < space.microbatchSizes.size(); ++m)
        for (std::size_t h = 0; h < space.hbmCapacityBytes.size(); ++h)
            for (std::size_t r = 0; r < space.recompute.size(); ++r) walks.push_back({m, h, r});

    std::vector<std::vector<EvaluatedPoint>> visited(walks.size());
    pool.parallelFor(std::int64_t(walks.size()), [&](std::int64_t w) {
        const Walk& walk = walks[std::size_t(w)];
        std::vector<EvaluatedPoint>& out = visited[std::size_t(w)];
        std::vector<double> bests;
        for (const std::vector<std::int64_t>& bucket : buckets) {
            double best = 0;
            for (const std::int64_t chip : bucket) {
                std::optional<EvaluatedPoint> e =
                    session.evaluate(grid.pointIndex(chip, walk.m, walk.r, walk.h));
                if (!e) return;  // cancelled: the walk ends with what it has
                if (e->feasible()) best = std::max(best, e->objective);
                out.push_back(std::move(*e));
            }
            bests.push_back(best);
            if (stops(bests, window_)) return;
        }
    });
    std::vector<EvaluatedPoint> points;
    for (std::vector<EvaluatedPoint>& walk : visited)
        for (EvaluatedPoint& e : walk) points.push_back(std::move(e));
    return session.finish(std::move(points));
}

}  // namespace tandem::core::search
