#pragma once
// An explorer walks a SearchGrid with a PointEvaluator (ARCHITECTURE.md §2.9): exhaustive (every
// point, the default), phaze (PHAZE's area-descending heuristic, for comparison) and pruned
// (skips points whose upper bound cannot beat the best found). Requests, project files, the CLI
// and the set-up name one by ExplorerKind; its names ("exhaustive", "phaze", "pruned") are
// spelled only in explorer.cpp (ARCHITECTURE.md §3.5). Every explorer
//  - evaluates points on the given ThreadPool and returns the same SearchResults for any thread
//    count (results go into per-point slots; every decision that depends on earlier results is
//    taken at a point that does not depend on timing);
//  - polls RunControl::cancelled() before each point: in-flight points finish, nothing new
//    starts, and the results of the finished points come back with statistics.cancelled set;
//  - reports progress (points done / total, rate, ETA: progress_meter.h) through RunControl;
//  - streams each finished point to `onPoint`, from worker threads but one call at a time
//    (serialised by a mutex), in completion order; keep it short and do not call back into
//    the explorer or wait on the pool from it.
#include <array>
#include <functional>
#include <memory>
#include <string_view>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/search/evaluated_point.h"
#include "core/search/point_evaluator.h"
#include "core/search/search_grid.h"
#include "core/search/search_results.h"
#include "core/search/thread_pool.h"

namespace tandem::core::search {

enum class ExplorerKind { Exhaustive, Phaze, Pruned };

// Every kind, in the order menus and messages list them.
inline constexpr std::array<ExplorerKind, 3> kExplorerKinds{
    ExplorerKind::Exhaustive, ExplorerKind::Phaze, ExplorerKind::Pruned};
std::string_view toString(ExplorerKind kind);  // "exhaustive", "phaze", "pruned"
// The inverse of toString(); another name is an error that quotes it and lists the valid ones.
Expected<ExplorerKind> parseExplorerKind(std::string_view name);

using PointCallback = std::function<void(const EvaluatedPoint&)>;

class Explorer {
public:
    virtual ~Explorer() = default;
    virtual std::string_view name() const = 0;
    virtual SearchResults explore(const SearchGrid& grid, const PointEvaluator& evaluator,
                                  ThreadPool& pool, RunControl* control = nullptr,
                                  const PointCallback& onPoint = {}) const = 0;
};

// The explorer of that kind with default settings; null only for a value outside the enum.
std::unique_ptr<Explorer> makeExplorer(ExplorerKind kind);

}  // namespace tandem::core::search
