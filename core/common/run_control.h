#pragma once
// RunControl is handed to every long computation (ARCHITECTURE.md §3.2): the algorithm polls
// cancelled() often enough to stop within 200 ms, and reports progress through a callback that
// this class throttles so the caller is not flooded. It is shared between the thread that runs
// the work and the thread that may cancel it; all members are thread-safe.
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>

namespace tandem::core {

struct Progress {
    double done = 0;      // units of work finished
    double total = 0;     // units of work in all (0 when unknown)
    std::string message;  // what is being worked on, for a status line
};

class RunControl {
public:
    using ProgressCallback = std::function<void(const Progress&)>;

    RunControl() = default;
    explicit RunControl(ProgressCallback callback,
                        std::chrono::milliseconds interval = std::chrono::milliseconds(100));

    // A silent child: cancelled when `parent` is (or when cancelled itself), reports nothing.
    // For inner solvers of a computation whose progress the parent measures in other units
    // (a search counts points; the schedulers and placement inside a point must not report).
    struct SilentChildOf {
        const RunControl* parent = nullptr;
    };
    explicit RunControl(SilentChildOf child) : parent_(child.parent) {}

    void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
    bool cancelled() const {
        return cancelled_.load(std::memory_order_relaxed) || (parent_ && parent_->cancelled());
    }

    // Calls the callback at most once per interval; the final report (done == total) always
    // goes through so observers see 100 %.
    void report(double done, double total, const std::string& message = {}) const;

private:
    std::atomic<bool> cancelled_{false};
    const RunControl* parent_ = nullptr;
    ProgressCallback callback_;
    std::chrono::milliseconds interval_{100};
    mutable std::mutex mutex_;
    mutable std::chrono::steady_clock::time_point lastReport_{};
};

}  // namespace tandem::core
