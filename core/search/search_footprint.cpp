#include "core/search/search_footprint.h"

#include <algorithm>
#include <cmath>

#include "core/common/units.h"
#include "core/search/search_grid.h"
#include "core/search/search_run.h"
#include "core/search/thread_pool.h"

namespace tandem::core::search {

namespace {

double bytesPerPoint(std::int64_t models) {
    return kSearchBytesPerPoint +
           double(std::max<std::int64_t>(models, 1) - 1) * kSearchBytesPerExtraModel;
}

std::string which(const SearchFootprint& f) {
    return f.chips < f.spaceChips ? "this shard" : "this search";
}

}  // namespace

std::int64_t chipsInShard(std::int64_t chips, int shardIndex, int shardCount) {
    if (shardCount <= 0) return chips;
    if (shardIndex < 1 || shardIndex > shardCount || chips < shardIndex) return 0;
    return (chips - shardIndex) / shardCount + 1;
}

SearchFootprint estimateSearchFootprint(std::int64_t spaceChips, std::int64_t optionsPerChip,
                                        std::int64_t models, int threads, int shardIndex,
                                        int shardCount) {
    SearchFootprint f;
    f.spaceChips = std::max<std::int64_t>(spaceChips, 0);
    f.optionsPerChip = std::max<std::int64_t>(optionsPerChip, 0);
    f.chips = chipsInShard(f.spaceChips, shardIndex, shardCount);
    f.points = f.chips * f.optionsPerChip;
    f.models = std::max<std::int64_t>(models, 1);
    f.threads = threads > 0 ? threads : ThreadPool::defaultThreadCount();
    f.bytes = kSearchBaseBytes + double(f.points) * bytesPerPoint(f.models);
    f.seconds =
        double(f.points) * double(f.models) / (kSearchPointsPerSecondPerThread * double(f.threads));
    return f;
}

SearchFootprint estimateSearchFootprint(const SearchRequest& request, const SearchGrid& grid,
                                        int shardIndex, int shardCount) {
    return estimateSearchFootprint(grid.chipCount(), grid.optionsPerChip(),
                                   std::int64_t(request.models.size()), request.threads, shardIndex,
                                   shardCount);
}

Status checkSearchMemory(const SearchFootprint& f, std::int64_t availableBytes) {
    if (availableBytes < 0 || f.bytes <= double(availableBytes)) return Status::success();
    const double perPoint = bytesPerPoint(f.models);
    std::string message = which(f) + " needs about " + formatBytes(f.bytes) +
                          " of memory for its " + formatCount(double(f.points)) + " points (" +
                          formatBytes(perPoint) + " per point, as measured, and " +
                          formatBytes(kSearchBaseBytes) + " for the rest), but " +
                          formatBytes(double(availableBytes)) + " is available; ";
    const double room = double(availableBytes) - kSearchBaseBytes;
    const double perChip = double(f.optionsPerChip) * perPoint;
    if (room < perChip)
        return Error{message + "not even the " + formatCount(double(f.optionsPerChip)) +
                     " points of one chip fit: list fewer microbatch sizes, recompute settings "
                     "or HBM capacities"};
    const auto chipsThatFit = std::int64_t(std::floor(room / perChip));
    const std::int64_t shards = (f.spaceChips + chipsThatFit - 1) / chipsThatFit;
    return Error{message + "split the search into " + formatCount(double(shards)) +
                 " or more shards, each its own run of tandem-cli search --shard K/N (K = 1 … N, "
                 "N ≥ " +
                 std::to_string(shards) +
                 "), and join their --json files with tandem-cli merge; or search a smaller "
                 "space"};
}

std::string longSearchWarning(const SearchFootprint& f) {
    if (f.seconds <= kLongSearchSeconds) return {};
    return which(f) + " of " + formatCount(double(f.points)) + " points" +
           (f.models > 1 ? " × " + std::to_string(f.models) + " models" : std::string()) +
           " may take about " + formatDuration(f.seconds) + " on " + std::to_string(f.threads) +
           (f.threads == 1 ? " thread" : " threads") + " (at " +
           formatCount(kSearchPointsPerSecondPerThread) +
           " points/s per thread, GPT-3's measured rate; smaller models are faster, and the "
           "progress line shows this one's rate); to spread it, run shards in parallel "
           "(--shard K/N) or under mpirun, and keep what finishes with --checkpoint";
}

}  // namespace tandem::core::search
