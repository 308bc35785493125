#include "core/search/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <system_error>
#include <utility>

namespace tandem::core::search {

int ThreadPool::defaultThreadCount() {
    return std::max(1, int(std::thread::hardware_concurrency()));
}

Expected<std::unique_ptr<ThreadPool>> ThreadPool::create(int threads) {
    if (threads < 0 || threads > kMaxThreads)
        return Error{"threads = " + std::to_string(threads) + " is out of range: allowed 0 (one " +
                     "per core) to " + std::to_string(kMaxThreads)};
    try {
        return std::make_unique<ThreadPool>(threads);
    } catch (const std::system_error& e) {
        const int asked = threads > 0 ? threads : defaultThreadCount();
        return Error{"cannot start " + std::to_string(asked) + " worker threads (" + e.what() +
                     "); the system's memory or process limit is too low for that many: ask " +
                     "for fewer threads"};
    }
}

ThreadPool::ThreadPool(int threads) {
    const int count = threads > 0 ? threads : defaultThreadCount();
    workers_.reserve(std::size_t(count));
    try {
        for (int i = 0; i < count; ++i) workers_.emplace_back([this] { workerLoop(); });
    } catch (...) {
        stopAndJoin();  // the destructor does not run for a constructor that throws
        throw;
    }
}

ThreadPool::~ThreadPool() {
    stopAndJoin();
}

void ThreadPool::stopAndJoin() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    taskReady_.notify_all();
    for (std::thread& worker : workers_)
        if (worker.joinable()) worker.join();
}

void ThreadPool::submit(std::function<void()> task) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(task));
    }
    taskReady_.notify_one();
}

void ThreadPool::wait() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && running_ == 0; });
}

void ThreadPool::workerLoop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        taskReady_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, and nothing left to finish
        std::function<void()> task = std::move(queue_.front());
        queue_.pop_front();
        ++running_;
        lock.unlock();
        task();
        task = nullptr;  // release captures outside the lock, before reporting idle
        lock.lock();
        --running_;
        if (queue_.empty() && running_ == 0) idle_.notify_all();
    }
}

void ThreadPool::parallelFor(std::int64_t count, const std::function<void(std::int64_t)>& body) {
    if (count <= 0) return;
    const auto tasks = std::ptrdiff_t(std::min<std::int64_t>(threadCount(), count));
    std::atomic<std::int64_t> next{0};
    // A countdown of its own, not wait(): other callers' tasks on the same pool do not delay us.
    // The last task notifies while holding the lock, so this frame cannot be left (and its
    // mutex destroyed) before that task is done touching it.
    std::mutex doneMutex;
    std::condition_variable doneSignal;
    std::ptrdiff_t remaining = tasks;
    for (std::ptrdiff_t t = 0; t < tasks; ++t)
        submit([&] {
            for (std::int64_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) body(i);
            std::lock_guard lock(doneMutex);
            if (--remaining == 0) doneSignal.notify_all();
        });
    std::unique_lock lock(doneMutex);
    doneSignal.wait(lock, [&] { return remaining == 0; });
}

}  // namespace tandem::core::search
