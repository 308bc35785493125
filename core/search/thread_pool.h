#pragma once
// A small fixed-size pool of std::threads for the explorers (ARCHITECTURE.md §3.8, §4.1). Work
// is handed out dynamically, so which thread runs which index depends on timing; callers keep
// results deterministic by writing each index's result into its own pre-sized slot and reducing
// afterwards in index order. Tasks must not throw (as with std::thread, an escaping exception
// terminates) and must not wait on the same pool (a task waiting for a task can deadlock when
// every worker is busy). submit() and parallelFor() are thread-safe.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/common/expected.h"

namespace tandem::core::search {

class ThreadPool {
public:
    // The most worker threads a pool takes (the --threads flag, a project's run.threads and the
    // app's spin box share it). More only adds contention on the machines Tandem targets (a
    // 64-core workstation runs four per core); a larger request is refused, never clamped.
    static constexpr int kMaxThreads = 256;

    // Starts the pool, or says why it cannot: a count outside [0, kMaxThreads], or the system
    // refusing to start a thread (memory or process limits) — the threads that did start are
    // stopped and joined first, so a failed start neither leaks nor hangs.
    static Expected<std::unique_ptr<ThreadPool>> create(int threads = 0);

    // threads ≤ 0: std::thread::hardware_concurrency() (at least 1). Throws std::system_error,
    // after joining the threads it started, when the system refuses a thread; create() reports
    // that as an Error instead.
    explicit ThreadPool(int threads = 0);
    ~ThreadPool();  // finishes the queued tasks, then joins
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threadCount() const { return int(workers_.size()); }
    static int defaultThreadCount();

    void submit(std::function<void()> task);
    // Blocks until every task submitted so far (by anyone) has finished.
    void wait();

    // Runs body(i) for every i in [0, count) on the pool and returns when all have finished.
    // Indices are claimed in increasing order, one at a time, by min(threads, count) tasks.
    void parallelFor(std::int64_t count, const std::function<void(std::int64_t)>& body);

private:
    void workerLoop();
    void stopAndJoin();

    std::vector<std::thread> workers_;
    std::deque<std::function<void()>> queue_;
    std::mutex mutex_;
    std::condition_variable taskReady_;
    std::condition_variable idle_;
    int running_ = 0;
    bool stopping_ = false;
};

}  // namespace tandem::core::search
