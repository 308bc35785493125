#include "core/search/progress_meter.h"

#include <algorithm>

#include "core/common/units.h"

namespace tandem::core::search {

ProgressMeter::ProgressMeter(RunControl* control, std::int64_t total)
    : control_(control), total_(total), start_(std::chrono::steady_clock::now()) {}

void ProgressMeter::add(std::int64_t points) {
    const std::int64_t done = done_.fetch_add(points) + points;
    if (control_ == nullptr) return;
    SearchProgress progress = snapshot();
    progress.done = std::min(done, total_);
    control_->report(double(progress.done), double(total_), format(progress));
}

void ProgressMeter::finish() {
    if (control_ == nullptr) return;
    SearchProgress progress = snapshot();
    progress.done = total_;
    progress.etaSeconds = 0;
    control_->report(double(total_), double(total_), format(progress));
}

SearchProgress ProgressMeter::snapshot() const {
    SearchProgress progress;
    progress.total = total_;
    progress.done = std::min(done_.load(), total_);
    progress.elapsedSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (progress.done > 0 && progress.elapsedSeconds > 0) {
        progress.pointsPerSecond = double(progress.done) / progress.elapsedSeconds;
        progress.etaSeconds = double(progress.total - progress.done) / progress.pointsPerSecond;
    }
    return progress;
}

std::string ProgressMeter::formatRate(const SearchProgress& p) {
    return formatFixed(p.pointsPerSecond, p.pointsPerSecond >= 100 ? 0 : 1) + " points/s";
}

std::string ProgressMeter::formatEta(const SearchProgress& p) {
    return formatDuration(p.etaSeconds);
}

std::string ProgressMeter::format(const SearchProgress& p) {
    std::string text =
        formatCount(double(p.done)) + " / " + formatCount(double(p.total)) + " points";
    if (p.pointsPerSecond > 0) {
        text += " · " + formatRate(p);
        if (p.done < p.total) text += " · ETA " + formatEta(p);
    }
    return text;
}

}  // namespace tandem::core::search
