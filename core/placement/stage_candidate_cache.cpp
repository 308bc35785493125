#include "core/placement/stage_candidate_cache.h"

#include <utility>

namespace tandem::core::placement {

std::shared_ptr<const StageCandidates> StageCandidateCache::find(const Key& key) const {
    const std::lock_guard lock(mutex_);
    const auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    return it->second;
}

std::shared_ptr<const StageCandidates> StageCandidateCache::insert(
    const Key& key, std::shared_ptr<const StageCandidates> candidates) {
    const std::lock_guard lock(mutex_);
    return entries_.try_emplace(key, std::move(candidates)).first->second;
}

}  // namespace tandem::core::placement
