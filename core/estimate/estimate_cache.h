#pragma once
// A thread-safe memo of operator estimates, keyed by EstimateKey (operator cost signature +
// the hardware fields its class depends on), so several OperatorEstimators for different chips
// can share one instance and the searches' worker threads can hit it concurrently. The map is
// split into shards, each behind its own shared_mutex: lookups of different keys rarely contend
// and lookups of the same key only share a read lock. Estimates are pure functions of the key,
// so two threads that miss on the same key compute the same value and the first insert wins;
// the cost of that race is one duplicated computation, counted as two misses. The size is
// bounded: when a shard reaches its share of maxEntries it is emptied (counted in evictions),
// which keeps memory flat during a long search at the price of recomputing cold entries.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <unordered_map>

#include "core/estimate/estimate_key.h"
#include "core/estimate/operator_cost.h"

namespace tandem::core::estimate {

class EstimateCache {
public:
    // About 250 bytes per entry: the default bounds the cache near 256 MiB.
    static constexpr std::size_t kDefaultMaxEntries = std::size_t(1) << 20;

    // maxEntries = 0 means unbounded.
    explicit EstimateCache(std::size_t maxEntries = kDefaultMaxEntries);
    EstimateCache(const EstimateCache&) = delete;
    EstimateCache& operator=(const EstimateCache&) = delete;

    // The cached cost for `key`, counting a hit or a miss.
    std::optional<OperatorCost> find(const EstimateKey& key) const;
    // Stores `cost` unless the key is already present (the first value wins).
    void insert(const EstimateKey& key, const OperatorCost& cost);

    std::uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
    std::uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }
    std::uint64_t evictions() const { return evictions_.load(std::memory_order_relaxed); }
    std::size_t size() const;
    std::size_t maxEntries() const { return maxEntries_; }
    void clear();  // drops every entry and zeroes the counters

private:
    static constexpr std::size_t kShards = 16;
    struct Shard {
        mutable std::shared_mutex mutex;
        std::unordered_map<EstimateKey, OperatorCost, EstimateKeyHash> map;
    };
    Shard& shardFor(std::size_t hash) const;

    std::size_t maxEntries_;
    std::size_t maxPerShard_;
    mutable std::array<Shard, kShards> shards_;
    mutable std::atomic<std::uint64_t> hits_{0};
    mutable std::atomic<std::uint64_t> misses_{0};
    std::atomic<std::uint64_t> evictions_{0};
};

}  // namespace tandem::core::estimate
