#include "core/search/exhaustive_explorer.h"

#include <optional>
#include <utility>
#include <vector>

#include "core/search/exploration_session.h"

namespace tandem::core::search {

SearchResults ExhaustiveExplorer::explore(const SearchGrid& grid, const PointEvaluator& evaluator,
                                          ThreadPool& pool, RunControl* control,
                                          const PointCallback& onPoint) const {
    const std::int64_t count = grid.pointCount();
    ExplorationSession session(std::string(name()), grid, evaluator, pool, control, onPoint, count);
    // One slot per point, compacted in place afterwards: a PHAZE-sized run holds 704,640 points,
    // so the results must not need a second copy of them.
    std::vector<EvaluatedPoint> points(static_cast<std::size_t>(count));
    std::vector<char> finished(points.size(), 0);
    // After a cancel the remaining indices return at once from evaluate().
    pool.parallelFor(count, [&](std::int64_t i) {
        if (std::optional<EvaluatedPoint> e = session.evaluate(i)) {
            points[std::size_t(i)] = std::move(*e);
            finished[std::size_t(i)] = 1;
        }
    });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (finished[i]) {
            if (kept != i) points[kept] = std::move(points[i]);
            ++kept;
        }
    points.resize(kept);
    points.shrink_to_fit();
    return session.finish(std::move(points));
}

}  // namespace tandem::core::search
