#pragma once
// The default explorer: every point of the grid, in parallel, each result in its own slot
// (ARCHITECTURE.md §2.9). The results are the same for any thread count; after a cancel they
// hold exactly the points that finished.
//
// The points are handed to the pool's threads a chip at a time from a ChunkQueue. explore()
// queues the whole grid; exploreQueue() evaluates whatever a queue the caller fills hands out —
// one shard of the grid, the points a checkpoint has not done yet, or the chunks rank 0 of an MPI
// search sends — and returns them together with points finished earlier, so a search split any
// of these ways ends with the same SearchResults as one run over the whole grid.
#include <vector>

#include "core/search/chunk_queue.h"
#include "core/search/explorer.h"
#include "core/search/progress_meter.h"

namespace tandem::core::search {

class ExhaustiveExplorer final : public Explorer {
public:
    std::string_view name() const override { return toString(ExplorerKind::Exhaustive); }
    SearchResults explore(const SearchGrid& grid, const PointEvaluator& evaluator, ThreadPool& pool,
                          RunControl* control = nullptr,
                          const PointCallback& onPoint = {}) const override;

    // Evaluates the chunks `work` hands out until it is closed and empty (or the run is
    // cancelled) and returns them with `done` (their points are stamped as given and not
    // evaluated again, nor streamed to `onPoint`). `progress`: a meter the caller owns and
    // finishes (null: one over the points queued when the call starts).
    SearchResults exploreQueue(const SearchGrid& grid, const PointEvaluator& evaluator,
                               ThreadPool& pool, ChunkQueue& work,
                               std::vector<EvaluatedPoint> done = {}, RunControl* control = nullptr,
                               const PointCallback& onPoint = {},
                               ProgressMeter* progress = nullptr) const;
};

}  // namespace tandem::core::search
