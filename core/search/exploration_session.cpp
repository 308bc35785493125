#include "core/search/exploration_session.h"

#include <utility>

namespace tandem::core::search {

ExplorationSession::ExplorationSession(std::string explorer, const SearchGrid& grid,
                                       const PointEvaluator& evaluator, ThreadPool& pool,
                                       RunControl* control, const PointCallback& onPoint,
                                       std::int64_t progressTotal, ProgressMeter* progress)
    : explorer_(std::move(explorer)),
      grid_(grid),
      evaluator_(evaluator),
      pool_(pool),
      control_(control),
      onPoint_(onPoint),
      progress_(progress),
      start_(std::chrono::steady_clock::now()) {
    if (progress_ == nullptr) progress_ = &ownProgress_.emplace(control, progressTotal);
}

bool ExplorationSession::stopRequested() {
    if (control_ == nullptr || !control_->cancelled()) return false;
    interrupted_.store(true);
    return true;
}

std::optional<EvaluatedPoint> ExplorationSession::evaluate(std::int64_t index) {
    if (stopRequested()) return std::nullopt;
    const SearchPoint point = grid_.point(index);
    EvaluatedPoint result = evaluator_.evaluate(point, control_);
    if (result.status == PointStatus::Cancelled) {
        interrupted_.store(true);
        return std::nullopt;
    }
    result.point = point;  // the point asked for, whatever the evaluator echoed
    if (onPoint_) {
        std::lock_guard lock(callbackMutex_);
        onPoint_(result);
    }
    progress_->add(1);
    return result;
}

void ExplorationSession::skip(std::int64_t points) {
    if (points > 0) progress_->add(points);
}

SearchResults ExplorationSession::finish(std::vector<EvaluatedPoint> points, std::int64_t skipped,
                                         std::int64_t boundViolations, std::int64_t carried) {
    SearchStatistics statistics;
    statistics.explorer = explorer_;
    statistics.threads = pool_.threadCount();
    statistics.pointsInSpace = grid_.pointCount();
    statistics.skipped = skipped;
    statistics.boundViolations = boundViolations;
    statistics.carried = carried;
    statistics.cancelled = interrupted_.load();
    statistics.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (!statistics.cancelled && ownProgress_) progress_->finish();  // else its owner does
    return SearchResults(std::move(points), std::move(statistics));
}

}  // namespace tandem::core::search
