#include "core/search/exhaustive_explorer.h"

#include <mutex>
#include <optional>
#include <utility>

#include "core/search/exploration_session.h"

namespace tandem::core::search {

SearchResults ExhaustiveExplorer::explore(const SearchGrid& grid, const PointEvaluator& evaluator,
                                          ThreadPool& pool, RunControl* control,
                                          const PointCallback& onPoint) const {
    ChunkQueue work;
    work.fill(grid);
    return exploreQueue(grid, evaluator, pool, work, {}, control, onPoint);
}

SearchResults ExhaustiveExplorer::exploreQueue(const SearchGrid& grid,
                                               const PointEvaluator& evaluator, ThreadPool& pool,
                                               ChunkQueue& work, std::vector<EvaluatedPoint> done,
                                               RunControl* control, const PointCallback& onPoint,
                                               ProgressMeter* progress) const {
    ExplorationSession session(std::string(name()), grid, evaluator, pool, control, onPoint,
                               work.queuedPoints(), progress);
    // Each thread collects its points and hands them over once: a PHAZE-sized run holds 704,640
    // points, so they are moved, never copied; SearchResults sorts them by index.
    const auto carried = std::int64_t(done.size());
    std::vector<EvaluatedPoint> points = std::move(done);
    std::mutex pointsMutex;
    pool.parallelFor(pool.threadCount(), [&](std::int64_t) {
        std::vector<EvaluatedPoint> mine;
        // After a cancel the remaining chunks drain at once: evaluate() starts nothing new. (Not
        // asking stopRequested() here keeps a cancel after the last point from marking a
        // complete run cancelled.)
        while (std::optional<PointChunk> chunk = work.next()) {
            for (const std::int64_t index : *chunk)
                if (std::optional<EvaluatedPoint> e = session.evaluate(index))
                    mine.push_back(std::move(*e));
        }
        std::lock_guard lock(pointsMutex);
        if (points.empty()) {
            points = std::move(mine);
        } else {
            points.insert(points.end(), std::make_move_iterator(mine.begin()),
                          std::make_move_iterator(mine.end()));
        }
    });
    points.shrink_to_fit();
    return session.finish(std::move(points), 0, 0, carried);
}

}  // namespace tandem::core::search
