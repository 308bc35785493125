#pragma once
// Progress of a search for RunControl (ARCHITECTURE.md §3.2): points done out of the total, the
// rate and the time left. Explorers call add() from their worker threads as points finish (or are
// skipped); each call forwards to RunControl::report, which throttles. The message reads
//   "1,234 / 704,640 points · 56.7 points/s · ETA 3.45 h"
// and snapshot() gives the numbers for a status bar. Thread-safe.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "core/common/run_control.h"

namespace tandem::core::search {

struct SearchProgress {
    std::int64_t done = 0;   // points evaluated or skipped
    std::int64_t total = 0;  // points the explorer may visit
    double elapsedSeconds = 0;
    double pointsPerSecond = 0;  // done / elapsed; 0 before the first point
    double etaSeconds = 0;       // (total − done) / rate; 0 when unknown or finished
};

class ProgressMeter {
public:
    ProgressMeter(RunControl* control, std::int64_t total);

    void add(std::int64_t points = 1);
    // Reports done == total, which RunControl always forwards: the explorer has finished (even
    // when it stopped early by its own rule or skipped the rest).
    void finish();

    SearchProgress snapshot() const;
    // "12,345 / 704,640 points · 135 points/s · ETA 1.44 h": the rate and the ETA are
    // formatRate() and formatEta(), which every other place that states them uses too.
    static std::string format(const SearchProgress& progress);
    static std::string formatRate(const SearchProgress& progress);  // "135 points/s"
    static std::string formatEta(const SearchProgress& progress);   // "1.44 h"

private:
    RunControl* control_;
    std::int64_t total_;
    std::atomic<std::int64_t> done_{0};
    std::chrono::steady_clock::time_point start_;
};

}  // namespace tandem::core::search
