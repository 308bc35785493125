#pragma once
// What the three explorers share while they run: evaluating one point by index (cancellation
// check, the evaluator call, stamping the point, progress, the serialised streaming callback)
// and turning the finished points into SearchResults with the run's statistics. One session per
// explore() call; evaluate() and skip() are called concurrently from pool workers.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/search/explorer.h"
#include "core/search/progress_meter.h"

namespace tandem::core::search {

class ExplorationSession {
public:
    // `progressTotal`: the points the explorer may visit, for done / total and the ETA.
    // `progress`: a meter the caller owns and also feeds (rank 0 of an MPI search counts the
    // other ranks' points on it); null: one of the session's own over `progressTotal`.
    ExplorationSession(std::string explorer, const SearchGrid& grid,
                       const PointEvaluator& evaluator, ThreadPool& pool, RunControl* control,
                       const PointCallback& onPoint, std::int64_t progressTotal,
                       ProgressMeter* progress = nullptr);

    const SearchGrid& grid() const { return grid_; }
    const PointEvaluator& evaluator() const { return evaluator_; }
    ThreadPool& pool() const { return pool_; }
    // True once RunControl asks to stop; the explorer then starts nothing new. Asking marks the
    // run as cancelled (so a cancel that arrives after the last point leaves it complete).
    bool stopRequested();

    // The evaluated point at `index`, or nothing when the run was cancelled before it started
    // or the evaluator gave up on it (status Cancelled).
    std::optional<EvaluatedPoint> evaluate(std::int64_t index);
    // Progress for points the explorer decided not to evaluate.
    void skip(std::int64_t points);

    // The results over `points` (any order); `skipped` and `boundViolations` go into the
    // statistics, as does whether a stop request cut the run short.
    // `carried`: how many of `points` were finished before this run (SearchStatistics).
    SearchResults finish(std::vector<EvaluatedPoint> points, std::int64_t skipped = 0,
                         std::int64_t boundViolations = 0, std::int64_t carried = 0);

private:
    std::string explorer_;
    const SearchGrid& grid_;
    const PointEvaluator& evaluator_;
    ThreadPool& pool_;
    RunControl* control_;
    const PointCallback& onPoint_;
    std::mutex callbackMutex_;
    std::atomic<bool> interrupted_{false};
    std::optional<ProgressMeter> ownProgress_;
    ProgressMeter* progress_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace tandem::core::search
