// Benchmark of cancellation latency in the per-layer scheduler: how long LayerScheduler::solve
// takes to return after RunControl::cancel() from another thread, on instances that cannot finish
// (independent tasks with awkward latencies, as in tests/core/schedule/test_schedule_runtime.cpp,
// which checks only that the cancel is honoured). Goal: ≤ 200 ms. Not part of ctest.
//
//   bench_cancel [--repeat N]
//
// Three configurations: PHAZE's reference ILP (26 tasks), the fast path (40 tasks), and the fast
// path with CBC only (40 tasks, state-space search off); each is cancelled after 30, 100 and
// 300 ms, N times (default 5), so the cancel lands in different stages. Prints the median and
// the maximum latency per configuration.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "core/schedule/layer_scheduler.h"

namespace {

using namespace tandem;
using namespace tandem::core::schedule;
using Clock = std::chrono::steady_clock;

ScheduleProblem hardProblem(int tasks, int cores) {
    ScheduleProblem p;
    p.numTensorCores = cores;
    p.numVectorCores = 1;
    std::uint64_t state = 12345;
    const auto uniform = [&state] {  // SplitMix64, as in the tests
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
    };
    for (int i = 0; i < tasks; ++i) {
        ScheduleTask t;
        t.name = "gemm" + std::to_string(i);
        t.opClass = core::model::OpClass::TensorCore;
        t.oneCoreSeconds = 1e-3 * (1 + 9 * uniform());
        t.allCoresSeconds = t.oneCoreSeconds * (0.36 + 0.2 * uniform());
        p.tasks.push_back(t);
    }
    return p;
}

// Milliseconds from cancel() to the return of solve(); negative if it finished first.
double latency(const ScheduleProblem& problem, const ScheduleOptions& options, int delayMs) {
    core::RunControl control;
    std::atomic<long long> cancelledAt{0};
    const auto start = Clock::now();
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
        cancelledAt = (Clock::now() - start).count();
        control.cancel();
    });
    const auto result = LayerScheduler(options, nullptr).solve(problem, &control);
    const long long returnedAt = (Clock::now() - start).count();
    canceller.join();
    if (!result || (*result)->status != ScheduleStatus::Cancelled) return -1;
    return std::chrono::duration<double, std::milli>(Clock::duration(returnedAt - cancelledAt))
        .count();
}

}  // namespace

int main(int argc, char** argv) {
    int repeat = 5;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--repeat" && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: bench_cancel [--repeat N]\n");
            return 2;
        }
    }
    struct Config {
        const char* name;
        int tasks;
        Formulation formulation;
        long long searchLimit;
    };
    const Config configs[] = {{"reference ILP, 26 tasks", 26, Formulation::Reference, 100000},
                              {"fast, 40 tasks", 40, Formulation::Fast, 100000},
                              {"fast, CBC only, 40 tasks", 40, Formulation::Fast, 0}};
    int failures = 0;
    double worst = 0;
    for (const Config& c : configs) {
        ScheduleOptions options;
        options.formulation = c.formulation;
        options.searchExpansionLimit = c.searchLimit;
        options.timeLimitSeconds = 120;
        options.useCache = false;
        const ScheduleProblem problem = hardProblem(c.tasks, 3);
        std::vector<double> ms;
        for (int r = 0; r < repeat; ++r) {
            for (const int delay : {30, 100, 300}) {
                const double l = latency(problem, options, delay);
                if (l < 0) {
                    std::printf("%s: not cancelled (delay %d ms)\n", c.name, delay);
                    ++failures;
                    continue;
                }
                ms.push_back(l);
            }
        }
        if (ms.empty()) continue;
        std::sort(ms.begin(), ms.end());
        worst = std::max(worst, ms.back());
        std::printf("%-26s %3zu cancels: median %7.1f ms, max %7.1f ms\n", c.name, ms.size(),
                    ms[ms.size() / 2], ms.back());
    }
    std::printf("worst %.1f ms (goal <= 200 ms); failures: %d\n", worst, failures);
    return failures == 0 ? 0 : 1;
}
