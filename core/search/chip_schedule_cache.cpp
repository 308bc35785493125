#include "core/search/chip_schedule_cache.h"

namespace tandem::core::search {

std::shared_ptr<const ChipSchedules> ChipScheduleCache::getOrCompute(const Key& key,
                                                                     const Compute& compute,
                                                                     bool& computed) {
    computed = false;
    std::shared_ptr<Slot> slot;
    {
        std::lock_guard lock(mutex_);
        auto it = slots_.find(key);
        if (it != slots_.end()) {
            slot = it->second;
            recent_.splice(recent_.begin(), recent_, slot->recent);
        } else {
            slot = std::make_shared<Slot>();
            recent_.push_front(key);
            slot->recent = recent_.begin();
            slots_.emplace(key, slot);
            // Evicted slots live on in the callers that hold them; only the index forgets them.
            while (slots_.size() > capacity_) {
                slots_.erase(recent_.back());
                recent_.pop_back();
            }
        }
    }
    std::lock_guard slotLock(slot->mutex);
    if (slot->value) return slot->value;
    computed = true;
    slot->value = compute();
    return slot->value;
}

std::size_t ChipScheduleCache::size() const {
    std::lock_guard lock(mutex_);
    return slots_.size();
}

}  // namespace tandem::core::search
