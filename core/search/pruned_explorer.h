#pragma once
// Bound-pruned exhaustive search (ARCHITECTURE.md §2.9): it returns the best point of the
// exhaustive search while evaluating only the points that could still beat it. Every point's
// upper bound is computed first (PointEvaluator::upperBound, in parallel); points are then
// visited in descending bound order (ties by index) in batches of a fixed size, evaluated in
// parallel, and the incumbent (highest objective, ties to the lowest index: the order
// SearchResults uses for its best point) is updated after each batch. A point can still win
// only if bound > incumbent, or bound == incumbent with a lower index; since bounds only fall
// along the visiting order and the incumbent only rises, the first point that cannot win ends
// the search and all remaining points are skipped. With valid bounds the best point equals the
// exhaustive one; points whose objective exceeded their bound are counted in
// statistics.boundViolations. The batch size is fixed, not the thread count, so the evaluated
// set is the same for any number of threads (a larger batch evaluates more points that a
// sequential walk would have skipped, but keeps more threads busy).
#include <cstdint>

#include "core/search/explorer.h"

namespace tandem::core::search {

class PrunedExplorer final : public Explorer {
public:
    static constexpr std::int64_t kDefaultBatchSize = 16;

    explicit PrunedExplorer(std::int64_t batchSize = kDefaultBatchSize)
        : batchSize_(batchSize < 1 ? 1 : batchSize) {}
    std::int64_t batchSize() const { return batchSize_; }

    std::string_view name() const override { return toString(ExplorerKind::Pruned); }
    SearchResults explore(const SearchGrid& grid, const PointEvaluator& evaluator, ThreadPool& pool,
                          RunControl* control = nullptr,
                          const PointCallback& onPoint = {}) const override;

private:
    std::int64_t batchSize_;
};

}  // namespace tandem::core::search
