#pragma once
// The answer of an explorer (ARCHITECTURE.md §2.9): every evaluated point in point-index order,
// the Pareto fronts (objective vs area, objective vs HBM capacity; feasible points only), the
// best point and how the run went. The best point has the highest objective among feasible
// points, ties going to the lowest point index, so it is the same whichever explorer or thread
// count found it. After a cancel the results hold the points that finished and are as valid
// as complete ones over that subset. Immutable once built; share as shared_ptr<const ...>.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/search/evaluated_point.h"

namespace tandem::core::search {

struct SearchStatistics {
    std::string explorer;  // "exhaustive", "phaze", "pruned"
    int threads = 1;
    std::int64_t pointsInSpace = 0;    // SearchGrid::pointCount()
    std::int64_t evaluated = 0;        // points in the results
    std::int64_t skipped = 0;          // pruned: never evaluated because their bound lost
    std::int64_t boundViolations = 0;  // pruned: points whose objective exceeded their bound
    bool cancelled = false;            // RunControl stopped the run; the points are a subset
    double wallSeconds = 0;
    // Points finished before this run and carried into it (a checkpoint's): counted in
    // `evaluated`, not in the run's rate. Not written to results files.
    std::int64_t carried = 0;
};

class SearchResults {
public:
    SearchResults() = default;
    // Sorts the points by index and derives the fronts and the best point.
    SearchResults(std::vector<EvaluatedPoint> points, SearchStatistics statistics);

    const std::vector<EvaluatedPoint>& points() const { return points_; }
    // The points, moved out of results that are no longer needed (to combine them with the
    // points of other processes without copying 700,000 of them).
    std::vector<EvaluatedPoint> takePoints() && { return std::move(points_); }
    // Indices into points(), by area (resp. HBM) ascending, then objective descending.
    const std::vector<std::size_t>& paretoByArea() const { return paretoByArea_; }
    const std::vector<std::size_t>& paretoByHbm() const { return paretoByHbm_; }
    // Index into points(); empty when no point is feasible.
    std::optional<std::size_t> best() const { return best_; }
    const SearchStatistics& statistics() const { return statistics_; }

    // One row per point, in index order, units in the header (area_mm2, hbm_bytes,
    // throughput_samples_per_s, ...); numbers are written so they read back exactly.
    std::string toCsv() const;
    Status saveCsv(const std::filesystem::path& path) const;  // atomic, like every user file

private:
    std::vector<EvaluatedPoint> points_;
    std::vector<std::size_t> paretoByArea_;
    std::vector<std::size_t> paretoByHbm_;
    std::optional<std::size_t> best_;
    SearchStatistics statistics_;
};

}  // namespace tandem::core::search
