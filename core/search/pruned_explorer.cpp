#include "core/search/pruned_explorer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "core/search/exploration_session.h"

namespace tandem::core::search {

namespace {

struct Incumbent {
    double objective = 0;
    std::int64_t index = 0;
};

bool canWin(double bound, std::int64_t index, const std::optional<Incumbent>& incumbent) {
    if (!incumbent) return true;
    return bound > incumbent->objective ||
           (bound == incumbent->objective && index < incumbent->index);
}

}  // namespace

SearchResults PrunedExplorer::explore(const SearchGrid& grid, const PointEvaluator& evaluator,
                                      ThreadPool& pool, RunControl* control,
                                      const PointCallback& onPoint) const {
    const std::int64_t count = grid.pointCount();
    ExplorationSession session(std::string(name()), grid, evaluator, pool, control, onPoint, count);
    std::vector<double> bounds(static_cast<std::size_t>(count));
    pool.parallelFor(count, [&](std::int64_t i) {
        if (session.stopRequested()) return;
        const double bound = evaluator.upperBound(grid.point(i));
        // An unusable bound must not prune anything.
        bounds[std::size_t(i)] =
            std::isnan(bound) ? std::numeric_limits<double>::infinity() : bound;
    });
    if (session.stopRequested()) return session.finish({});

    std::vector<std::int64_t> order(bounds.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = std::int64_t(i);
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        const double x = bounds[std::size_t(a)], y = bounds[std::size_t(b)];
        return x != y ? x > y : a < b;
    });

    std::vector<EvaluatedPoint> points;
    std::optional<Incumbent> incumbent;
    std::int64_t violations = 0;
    std::size_t next = 0;
    bool interrupted = false;
    std::vector<std::int64_t> batch;
    std::vector<std::optional<EvaluatedPoint>> slots;
    while (!interrupted) {
        batch.clear();
        while (next < order.size() && std::int64_t(batch.size()) < batchSize_ &&
               canWin(bounds[std::size_t(order[next])], order[next], incumbent))
            batch.push_back(order[next++]);
        if (batch.empty()) break;  // the next point cannot win, hence none after it can
        slots.assign(batch.size(), std::nullopt);
        pool.parallelFor(std::int64_t(batch.size()), [&](std::int64_t k) {
            slots[std::size_t(k)] = session.evaluate(batch[std::size_t(k)]);
        });
        for (std::size_t k = 0; k < batch.size(); ++k) {
            if (!slots[k]) {
                interrupted = true;
                continue;
            }
            EvaluatedPoint& e = *slots[k];
            if (e.feasible()) {
                if (e.objective > bounds[std::size_t(batch[k])]) ++violations;
                if (!incumbent || e.objective > incumbent->objective ||
                    (e.objective == incumbent->objective && batch[k] < incumbent->index))
                    incumbent = Incumbent{e.objective, batch[k]};
            }
            points.push_back(std::move(e));
        }
    }
    const std::int64_t skipped = interrupted ? 0 : count - std::int64_t(next);
    session.skip(skipped);
    return session.finish(std::move(points), skipped, violations);
}

}  // namespace tandem::core::search
