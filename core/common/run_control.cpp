#include "core/common/run_control.h"

namespace tandem::core {

RunControl::RunControl(ProgressCallback callback, std::chrono::milliseconds interval)
    : callback_(std::move(callback)), interval_(interval) {}

void RunControl::report(double done, double total, const std::string& message) const {
    if (!callback_) return;
    {
        std::lock_guard lock(mutex_);
        // Read the clock under the lock: a time read before it could be older than the last
        // report another thread made meanwhile, and be dropped even with a zero interval.
        const auto now = std::chrono::steady_clock::now();
        const bool final = total > 0 && done >= total;
        if (!final && now - lastReport_ < interval_) return;
        lastReport_ = now;
    }
    callback_(Progress{done, total, message});
}

}  // namespace tandem::core
