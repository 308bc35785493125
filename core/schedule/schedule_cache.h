#pragma once
// Remembers solved layers so that identical transformer blocks and repeated requests are solved
// once. The key is a canonical byte encoding of everything that can change the answer: the core
// counts, each task's class, latencies (bit for bit) and sorted predecessor list, and the options
// (formulation, gap, time limit); names and FLOPs are not part of it (the schedule is
// index-aligned with the problem). Thread-safe; when two threads ask for the same key at once,
// the second waits for the first instead of solving again (and solves itself if the first is
// cancelled). Cancelled results are never stored. Least recently used entries are dropped beyond
// the capacity.
#include <cstddef>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/schedule/layer_schedule.h"
#include "core/schedule/schedule_options.h"
#include "core/schedule/schedule_problem.h"

namespace tandem::core::schedule {

class ScheduleCache {
public:
    using Result = Expected<std::shared_ptr<const LayerSchedule>>;

    explicit ScheduleCache(std::size_t capacity = 20000) : capacity_(capacity) {}

    // The process-wide cache LayerScheduler uses unless given another.
    static std::shared_ptr<ScheduleCache> shared();

    static std::string key(const ScheduleProblem& problem, const ScheduleOptions& options);

    // The cached result for `key`, or compute() (once across threads) and remember it.
    Result getOrCompute(const std::string& key, const std::function<Result()>& compute,
                        const RunControl* control);

    std::shared_ptr<const LayerSchedule> find(const std::string& key);
    std::size_t size() const;
    std::size_t hits() const;
    std::size_t misses() const;
    void clear();

private:
    using Pending = std::shared_future<std::shared_ptr<const LayerSchedule>>;
    struct Entry {
        std::shared_ptr<const LayerSchedule> value;
        std::list<std::string>::iterator recent;
    };
    void store(const std::string& key, std::shared_ptr<const LayerSchedule> value);

    std::size_t capacity_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_;
    std::list<std::string> recent_;  // most recently used first
    std::unordered_map<std::string, Pending> pending_;
    std::size_t hits_ = 0;
    std::size_t misses_ = 0;
};

}  // namespace tandem::core::schedule
