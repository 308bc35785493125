#pragma once
// What the sections of bench_responsiveness share: the wall clock, the report line, waiting with
// a watchdog (for the main window's default point too) and the GUI thread's gap probe. Section 6
// (files and models) is bench_responsiveness_files.cpp.
#include <QElapsedTimer>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "ui/jobs/point_evaluation_job.h"
#include "ui/main_window.h"
#include "ui/workspace.h"

namespace responsiveness {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

inline void report(const char* what, std::vector<double> ms, const char* goal) {
    std::sort(ms.begin(), ms.end());
    std::printf("%-62s median %8.1f ms  worst %8.1f ms  (goal %s)\n", what, ms[ms.size() / 2],
                ms.back(), goal);
    std::fflush(stdout);
}

// Processes events until `done` or the watchdog (a minute) runs out; false on the latter.
inline bool waitFor(const std::function<bool()>& done, int ms = 60000) {
    QElapsedTimer watchdog;
    watchdog.start();
    while (!done()) {
        if (watchdog.elapsed() > ms) return false;
        QTest::qWait(1);
    }
    return true;
}

// Shows `window` and waits (two minutes at most) until its default point is evaluated.
inline void showWithTheDefaultPoint(tandem::ui::MainWindow& window) {
    window.show();
    if (!waitFor(
            [&] {
                return window.workspace()->placement() && !window.workspace()->pointJob()->busy();
            },
            120000))
        qFatal("the default point was not evaluated");
}

// The largest gap between ticks of a 10 ms timer on the GUI thread while it runs.
class GapProbe {
public:
    GapProbe() {
        timer_.setInterval(10);
        timer_.setTimerType(Qt::PreciseTimer);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            worst_ = std::max(worst_, double(clock_.nsecsElapsed()) / 1e6);
            clock_.restart();
        });
        clock_.start();
        timer_.start();
    }
    double worstMs() const { return worst_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    double worst_ = 0;
};

// Section 6: a large ONNX model, a large results file and a project save at once.
void filesAndModels(int repeat);

}  // namespace responsiveness
