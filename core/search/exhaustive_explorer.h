#pragma once
// The default explorer: every point of the grid, in parallel, each result in its own slot
// (ARCHITECTURE.md §2.9). The results are the same for any thread count; after a cancel they
// hold exactly the points that finished.
#include "core/search/explorer.h"

namespace tandem::core::search {

class ExhaustiveExplorer final : public Explorer {
public:
    std::string_view name() const override { return toString(ExplorerKind::Exhaustive); }
    SearchResults explore(const SearchGrid& grid, const PointEvaluator& evaluator, ThreadPool& pool,
                          RunControl* control = nullptr,
                          const PointCallback& onPoint = {}) const override;
};

}  // namespace tandem::core::search
