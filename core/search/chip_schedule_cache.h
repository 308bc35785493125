#pragma once
// The evaluator's memo of everything about one (chip, microbatch size) that HBM capacity and
// recompute do not change: the layer schedules of every tensor-parallel width (so each layer is
// scheduled once per chip, mbs and t) and the placement problem assembled from them, which a
// point only copies and stamps with its HBM capacity and recompute setting; and the solver's
// candidate stages per HBM capacity, which the recompute-off and -on points share. A small LRU: the
// grid numbers points chip-major, then mbs (search_grid.h), and the explorers hand out indices
// in increasing order (or, pruned, in bound order, where a chip × mbs keeps its points adjacent),
// so a few entries per worker cover nearly every reuse while memory stays flat over a
// 700,000-point search. When several threads miss on the same key, one computes and the others
// wait for it; a computation that returns null (cancelled) is not stored and the next caller
// retries. Thread-safe.
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/hardware/accelerator_config.h"
#include "core/placement/model_placement.h"
#include "core/placement/stage_candidate_cache.h"
#include "core/search/evaluated_point.h"

namespace tandem::core::search {

struct ChipSchedules {
    hardware::AcceleratorConfig accelerator;  // HBM capacity normalised to the space base
    std::int64_t microbatchSize = 1;
    std::string error;  // non-empty: every point of this chip × mbs is an Error with it
    std::vector<placement::WidthInput> widths;  // the search widths, ascending t
    placement::PlacementProblem problem;        // HBM and recompute stamped per point
    // The baseline's own width when the search widths leave it out (placeModel's rule).
    std::optional<placement::PlacementProblem> baselineProblem;
    std::string baselineError;  // its width could not be built or scheduled
    ScheduleSummary summary;
    // The placement solver's chain candidates per width and HBM capacity, shared by the points
    // of this chip × mbs that differ only in recomputation (filled as points are placed).
    std::shared_ptr<placement::StageCandidateCache> stageCandidates =
        std::make_shared<placement::StageCandidateCache>();
    double estimateSeconds = 0;  // spent computing this entry
    double scheduleSeconds = 0;
};

class ChipScheduleCache {
public:
    using Key = std::pair<std::int64_t, std::int64_t>;  // (chip index, microbatch size)
    using Compute = std::function<std::shared_ptr<const ChipSchedules>()>;

    explicit ChipScheduleCache(std::size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

    // The entry for `key`, computed by `compute` on a miss (`computed` says which).
    std::shared_ptr<const ChipSchedules> getOrCompute(const Key& key, const Compute& compute,
                                                      bool& computed);

    std::size_t capacity() const { return capacity_; }
    std::size_t size() const;

private:
    struct Slot {
        std::mutex mutex;  // held while computing: other callers of the key wait on it
        std::shared_ptr<const ChipSchedules> value;
        std::list<Key>::iterator recent;
    };

    std::size_t capacity_;
    mutable std::mutex mutex_;
    std::map<Key, std::shared_ptr<Slot>> slots_;
    std::list<Key> recent_;  // most recently used first
};

}  // namespace tandem::core::search
