#include "core/schedule/schedule_cache.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tandem::core::schedule {

namespace {

template <class T>
void append(std::string& out, T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

}  // namespace

std::shared_ptr<ScheduleCache> ScheduleCache::shared() {
    static const std::shared_ptr<ScheduleCache> instance = std::make_shared<ScheduleCache>();
    return instance;
}

std::string ScheduleCache::key(const ScheduleProblem& problem, const ScheduleOptions& options) {
    std::string out = "tandem-schedule-v1";
    append<std::int32_t>(out, problem.numTensorCores);
    append<std::int32_t>(out, problem.numVectorCores);
    append<std::int32_t>(out, static_cast<std::int32_t>(options.formulation));
    append<double>(out, options.relativeGap);
    append<double>(out, options.timeLimitSeconds);
    append<std::int64_t>(out, options.searchExpansionLimit);
    append<std::int64_t>(out, options.milpNodeLimit);
    if (problem.serial) out += "serial";
    append<std::uint64_t>(out, problem.tasks.size());
    std::vector<int> predecessors;
    for (const ScheduleTask& task : problem.tasks) {
        append<std::int32_t>(out, static_cast<std::int32_t>(task.opClass));
        append<double>(out, task.oneCoreSeconds);
        append<double>(out, task.allCoresSeconds);
        predecessors = task.predecessors;
        std::sort(predecessors.begin(), predecessors.end());
        predecessors.erase(std::unique(predecessors.begin(), predecessors.end()),
                           predecessors.end());
        append<std::uint64_t>(out, predecessors.size());
        for (int p : predecessors) append<std::int32_t>(out, p);
    }
    return out;
}

std::shared_ptr<const LayerSchedule> ScheduleCache::find(const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    recent_.splice(recent_.begin(), recent_, it->second.recent);
    return it->second.value;
}

void ScheduleCache::store(const std::string& key, std::shared_ptr<const LayerSchedule> value) {
    // Caller holds the mutex.
    if (capacity_ == 0) return;
    const auto it = entries_.find(key);
    if (it != entries_.end()) {
        recent_.splice(recent_.begin(), recent_, it->second.recent);
        return;
    }
    recent_.push_front(key);
    entries_.emplace(key, Entry{std::move(value), recent_.begin()});
    while (entries_.size() > capacity_) {
        entries_.erase(recent_.back());
        recent_.pop_back();
    }
}

ScheduleCache::Result ScheduleCache::getOrCompute(const std::string& key,
                                                  const std::function<Result()>& compute,
                                                  const RunControl* control) {
    std::promise<std::shared_ptr<const LayerSchedule>> promise;
    Pending waitFor;
    {
        std::lock_guard lock(mutex_);
        if (const auto it = entries_.find(key); it != entries_.end()) {
            ++hits_;
            recent_.splice(recent_.begin(), recent_, it->second.recent);
            return it->second.value;
        }
        if (const auto it = pending_.find(key); it != pending_.end()) {
            waitFor = it->second;
        } else {
            ++misses_;
            pending_.emplace(key, promise.get_future().share());
        }
    }
    if (waitFor.valid()) {
        // Someone else is solving this layer; wait, but keep honouring our own cancellation.
        while (waitFor.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
            if (control && control->cancelled()) return compute();
        }
        std::shared_ptr<const LayerSchedule> value = waitFor.get();
        if (value && value->status != ScheduleStatus::Cancelled) {
            std::lock_guard lock(mutex_);
            ++hits_;
            return value;
        }
        return compute();
    }
    Result result = compute();
    std::shared_ptr<const LayerSchedule> value = result.ok() ? result.value() : nullptr;
    {
        std::lock_guard lock(mutex_);
        if (value && value->status != ScheduleStatus::Cancelled) store(key, value);
        pending_.erase(key);
    }
    promise.set_value(value);
    return result;
}

std::size_t ScheduleCache::size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
}

std::size_t ScheduleCache::hits() const {
    std::lock_guard lock(mutex_);
    return hits_;
}

std::size_t ScheduleCache::misses() const {
    std::lock_guard lock(mutex_);
    return misses_;
}

void ScheduleCache::clear() {
    std::lock_guard lock(mutex_);
    entries_.clear();
    recent_.clear();
    hits_ = 0;
    misses_ = 0;
}

}  // namespace tandem::core::schedule
