#pragma once
// The size of a search before it starts (ARCHITECTURE.md §2.9, "The size of a search"): how
// many points it evaluates, the memory it needs at its peak and about how long it takes, so
// that a space this machine cannot hold is refused before any work — saying how much it needs,
// how much there is and into how many shards to split it — and a search of more than an hour
// is announced. `tandem-cli search` (with its shard's share: a shard needs only its share) and
// the app (through runSearch) use the same estimate.
//
// Memory, measured: the maximum resident set (/usr/bin/time -v) of `tandem-cli search --json F
// --csv F --threads 2` with the small test model over shards of PHAZE's space was 15.6 MiB for
// one point, 150 MiB for 70,464 points (shard 1/10) and 274 MiB for 176,160 (shard 1/4): 1,227
// bytes per point between the two shards, 1,540 per point above the one-point run for the
// larger. A point costs that much because the run holds its EvaluatedPoint (408 bytes) in
// vectors that grow by doubling and are joined at the end, its index in the work queue (8
// bytes), and then the results JSON (~220–390 bytes a point) or CSV (~250–460) as one string,
// also grown by doubling, while the points are still held. kSearchBytesPerPoint takes the
// larger figure with room for where the doubling falls; kSearchBaseBytes is the process, the
// models' graphs, the caches and the reference chip (the 70,464-point run's 150 MiB less its
// points at 1,227 bytes is 68 MiB). A second model added 33 bytes per point (its throughput in
// the point and in both files): kSearchBytesPerExtraModel. The whole PHAZE space for GPT-3
// (tests/benchmarks/RESULTS.md: 888 MiB) is within the estimate (1.18 GiB).
//
// Time: points × models ÷ (kSearchPointsPerSecondPerThread × threads), the rate of GPT-3 on
// PHAZE's space measured on this project's 2-core reference machine (tests/benchmarks/
// RESULTS.md: 1,221 points/s on 2 cores, about 610 per core). Other models and machines differ
// (small models run up to ten times faster, a loaded machine half as fast), so it says "may
// take about", and the progress line shows the measured rate once the search runs.
#include <cstdint>
#include <string>

#include "core/common/expected.h"

namespace tandem::core::search {

struct SearchRequest;
class SearchGrid;

inline constexpr double kSearchBaseBytes = 128.0 * 1024 * 1024;
inline constexpr double kSearchBytesPerPoint = 1600;
inline constexpr double kSearchBytesPerExtraModel = 40;
inline constexpr double kSearchPointsPerSecondPerThread = 600;
// A search estimated to take longer than this is announced before it starts.
inline constexpr double kLongSearchSeconds = 3600;

struct SearchFootprint {
    std::int64_t points = 0;          // points this run evaluates (a shard: its share)
    std::int64_t chips = 0;           // the chips they are on
    std::int64_t spaceChips = 0;      // chips in the whole space
    std::int64_t optionsPerChip = 0;  // points per chip
    std::int64_t models = 1;
    int threads = 1;
    double bytes = 0;    // memory at the run's peak, estimated
    double seconds = 0;  // wall time, estimated (see above)
};

// The chips c of `chips` with c mod shardCount = shardIndex − 1 (1 ≤ shardIndex ≤ shardCount);
// every chip when shardCount is 0.
std::int64_t chipsInShard(std::int64_t chips, int shardIndex, int shardCount);

// The footprint of exploring shard shardIndex/shardCount (shardCount 0: all) of a space of
// `spaceChips` chips with `optionsPerChip` points each, for `models` models on `threads`
// threads (≤ 0: one per core, as ThreadPool).
SearchFootprint estimateSearchFootprint(std::int64_t spaceChips, std::int64_t optionsPerChip,
                                        std::int64_t models, int threads, int shardIndex = 0,
                                        int shardCount = 0);
// The same for `request` over `grid` (the request's space, enumerated).
SearchFootprint estimateSearchFootprint(const SearchRequest& request, const SearchGrid& grid,
                                        int shardIndex = 0, int shardCount = 0);

// Success when `footprint` fits in `availableBytes` (< 0: unknown, so it is not refused);
// otherwise an error saying what the search needs, what is available and the smallest number
// of shards N whose every shard fits ("--shard K/N with N ≥ …", then merge), or, when not even
// one chip's points fit, which lists to shorten.
Status checkSearchMemory(const SearchFootprint& footprint, std::int64_t availableBytes);

// A warning for a search estimated at more than kLongSearchSeconds — its points, the estimate
// and what it is based on, and how to split it —; empty otherwise.
std::string longSearchWarning(const SearchFootprint& footprint);

}  // namespace tandem::core::search
