#include "core/estimate/estimate_cache.h"

#include <mutex>

namespace tandem::core::estimate {

EstimateCache::EstimateCache(std::size_t maxEntries)
    : maxEntries_(maxEntries),
      maxPerShard_(maxEntries == 0 ? 0 : (maxEntries + kShards - 1) / kShards) {}

EstimateCache::Shard& EstimateCache::shardFor(std::size_t hash) const {
    // The map buckets by the low bits (modulo a prime); the shard takes the top ones.
    return shards_[(hash >> (8 * sizeof(std::size_t) - 4)) % kShards];
}

std::optional<OperatorCost> EstimateCache::find(const EstimateKey& key) const {
    const Shard& shard = shardFor(EstimateKeyHash{}(key));
    {
        std::shared_lock lock(shard.mutex);
        if (auto it = shard.map.find(key); it != shard.map.end()) {
            hits_.fetch_add(1, std::memory_order_relaxed);
            return it->second;
        }
    }
    misses_.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
}

void EstimateCache::insert(const EstimateKey& key, const OperatorCost& cost) {
    Shard& shard = shardFor(EstimateKeyHash{}(key));
    std::unique_lock lock(shard.mutex);
    if (maxPerShard_ != 0 && shard.map.size() >= maxPerShard_ && !shard.map.contains(key)) {
        evictions_.fetch_add(shard.map.size(), std::memory_order_relaxed);
        shard.map.clear();
    }
    shard.map.try_emplace(key, cost);
}

std::size_t EstimateCache::size() const {
    std::size_t total = 0;
    for (const Shard& shard : shards_) {
        std::shared_lock lock(shard.mutex);
        total += shard.map.size();
    }
    return total;
}

void EstimateCache::clear() {
    for (Shard& shard : shards_) {
        std::unique_lock lock(shard.mutex);
        shard.map.clear();
    }
    hits_.store(0, std::memory_order_relaxed);
    misses_.store(0, std::memory_order_relaxed);
    evictions_.store(0, std::memory_order_relaxed);
}

}  // namespace tandem::core::estimate
