// Benchmark of the per-layer scheduler: the same layer problems through the fast path and
// through PHAZE's reference formulation, in one process. Prints per instance and in total the
// solve times, the speed-up and whether the optimal makespans agree. Not part of ctest.
//
//   bench_schedule [--set synthetic|zoo] [--reference-time-limit S] [--repeat N]
//                  [--filter TEXT] [--no-reference]
//
// By default it finishes in about two minutes: the reference formulation gets 2 s per instance
// (about a third of the synthetic backward blocks reach that limit). RESULTS.md's figures used
// --reference-time-limit 10. One line is printed (and flushed) per instance as it finishes.
//
// runScheduleBenchmark() takes any vector of problems. --set synthetic (default): transformer-
// like layers from tests/benchmarks/synthetic_layers.h; --set zoo: every unique layer direction
// of every zoo model at t ∈ {1, 8} (where the model allows it) with latencies from the
// OperatorEstimator, on the chips of synthetic_layers.h.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/estimate/layer_cost_table.h"
#include "core/estimate/operator_estimator.h"
#include "core/model/model_zoo.h"
#include "core/schedule/layer_scheduler.h"
#include "core/schedule/model_schedule.h"
#include "core/schedule/schedule_validator.h"
#include "synthetic_layers.h"

namespace {

using namespace tandem;
using core::schedule::Formulation;
using core::schedule::LayerSchedule;
using core::schedule::ScheduleOptions;
using core::schedule::ScheduleStatus;

struct BenchSettings {
    double referenceTimeLimitSeconds = 2;
    int repeat = 3;  // the fast path is timed as the median of this many cold solves
    bool reference = true;
};

struct Timed {
    std::shared_ptr<const LayerSchedule> schedule;
    double seconds = 0;
    std::string error;
};

Timed timedSolve(const core::schedule::ScheduleProblem& problem, ScheduleOptions options,
                 int repeat) {
    options.useCache = false;
    const core::schedule::LayerScheduler scheduler(options, nullptr);
    std::vector<double> times;
    Timed out;
    for (int r = 0; r < repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        auto result = scheduler.solve(problem);
        times.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (!result) {
            out.error = result.message();
            return out;
        }
        out.schedule = *result;
    }
    std::sort(times.begin(), times.end());
    out.seconds = times[times.size() / 2];
    if (const core::Status valid =
            core::schedule::ScheduleValidator().validate(problem, *out.schedule);
        !valid)
        out.error = valid.message();
    return out;
}

std::vector<testing::NamedProblem> zooProblems() {
    std::vector<testing::NamedProblem> out;
    for (const core::model::ZooEntry& entry : core::model::zooModels()) {
        const auto source = core::model::zooModel(entry.name);
        if (!source) continue;
        for (const std::int64_t t : {1, 8}) {
            core::model::BuildOptions options;
            options.tensorParallel = t;
            const auto graph = (*source)->build(options);
            if (!graph) continue;  // e.g. heads not divisible by t
            for (const testing::SyntheticChip& chip : testing::syntheticChips()) {
                core::hardware::AcceleratorConfig accelerator;
                accelerator.numTensorCores = chip.tensorCores;
                accelerator.numVectorCores = chip.vectorCores;
                const core::estimate::OperatorEstimator estimator(accelerator);
                for (const auto& layer : graph->uniqueGraphs()) {
                    const auto costs = core::estimate::LayerCostTable::build(estimator, *layer);
                    for (const auto d : {core::schedule::Direction::Forward,
                                         core::schedule::Direction::Backward}) {
                        out.push_back(
                            {entry.name + "/t" + std::to_string(t) + "/" + chip.name + "/" +
                                 layer->kind() +
                                 (d == core::schedule::Direction::Forward ? "/fwd" : "/bwd"),
                             core::schedule::makeScheduleProblem(*layer, d, costs, chip.tensorCores,
                                                                 chip.vectorCores)});
                    }
                }
            }
        }
    }
    return out;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

// Returns the number of failures (errors, invalid schedules, non-optimal fast results,
// disagreeing makespans).
int runScheduleBenchmark(const std::vector<testing::NamedProblem>& problems,
                         const BenchSettings& settings) {
    std::printf("%zu layer directions; reference formulation %s\n", problems.size(),
                settings.reference ? "on (limit per instance: --reference-time-limit)" : "off");
    std::printf("%-48s %5s %10s %-9s %12s %-9s %9s %s\n", "instance", "tasks", "fast ms", "status",
                "reference ms", "status", "speed-up", "makespans");
    std::size_t done = 0;
    std::vector<double> fastTimes, bothFast, bothReference;
    int failures = 0, agree = 0, compared = 0, fastOptimal = 0, byBounds = 0;
    double fastTotal = 0, referenceTotal = 0;
    for (const testing::NamedProblem& named : problems) {
        ScheduleOptions fastOptions;
        const Timed fast = timedSolve(named.problem, fastOptions, settings.repeat);
        if (!fast.error.empty()) {
            std::printf("%-40s fast path failed: %s\n", named.name.c_str(), fast.error.c_str());
            ++failures;
            continue;
        }
        fastTimes.push_back(fast.seconds);
        fastTotal += fast.seconds;
        const bool fastIsOptimal = fast.schedule->status == ScheduleStatus::Optimal;
        fastOptimal += fastIsOptimal ? 1 : 0;
        byBounds += fast.schedule->stats.provedBy == core::schedule::ProofStage::Bounds ? 1 : 0;
        if (!fastIsOptimal) ++failures;
        std::string referenceMs = "-", referenceStatus = "-", ratio = "-", verdict = "-";
        if (settings.reference) {
            ScheduleOptions refOptions;
            refOptions.formulation = Formulation::Reference;
            refOptions.timeLimitSeconds = settings.referenceTimeLimitSeconds;
            const Timed ref = timedSolve(named.problem, refOptions, 1);
            if (!ref.error.empty()) {
                std::printf("%-40s reference failed: %s\n", named.name.c_str(), ref.error.c_str());
                ++failures;
                continue;
            }
            referenceTotal += ref.seconds;
            char buffer[64];
            std::snprintf(buffer, sizeof buffer, "%.3f", ref.seconds * 1e3);
            referenceMs = buffer;
            referenceStatus = std::string(toString(ref.schedule->status));
            std::snprintf(buffer, sizeof buffer, "%.1fx", ref.seconds / fast.seconds);
            ratio = buffer;
            if (ref.schedule->status == ScheduleStatus::Optimal && fastIsOptimal) {
                ++compared;
                bothFast.push_back(fast.seconds);
                bothReference.push_back(ref.seconds);
                const double a = fast.schedule->makespanSeconds, b = ref.schedule->makespanSeconds;
                const bool same = std::abs(a - b) <= 1e-9 * std::max(a, b);
                agree += same ? 1 : 0;
                failures += same ? 0 : 1;
                verdict = same ? "agree" : "DIFFER";
            } else {
                verdict = "n/a (not both optimal)";
            }
        }
        char label[64];
        std::snprintf(label, sizeof label, "[%zu/%zu] %s", ++done, problems.size(),
                      named.name.c_str());
        std::printf("%-48s %5zu %10.3f %-9s %12s %-9s %9s %s\n", label, named.problem.tasks.size(),
                    fast.seconds * 1e3, std::string(toString(fast.schedule->status)).c_str(),
                    referenceMs.c_str(), referenceStatus.c_str(), ratio.c_str(), verdict.c_str());
    }
    std::printf("\ninstances: %zu; fast path optimal: %d (%d closed by bounds alone)\n",
                problems.size(), fastOptimal, byBounds);
    std::printf(
        "fast path: total %.1f ms, median %.3f ms, max %.3f ms per layer direction\n",
        fastTotal * 1e3, median(fastTimes) * 1e3,
        fastTimes.empty() ? 0.0 : *std::max_element(fastTimes.begin(), fastTimes.end()) * 1e3);
    if (settings.reference) {
        std::printf("reference: total %.1f ms (time limit %.0f s per instance)\n",
                    referenceTotal * 1e3, settings.referenceTimeLimitSeconds);
        double sf = 0, sr = 0;
        for (double x : bothFast) sf += x;
        for (double x : bothReference) sr += x;
        std::printf(
            "both optimal on %d instances: makespans agree on %d; total fast %.1f ms vs "
            "reference %.1f ms: speed-up %.1fx\n",
            compared, agree, sf * 1e3, sr * 1e3, sf > 0 ? sr / sf : 0.0);
        std::printf("overall speed-up (all instances, reference capped at its limit): %.1fx\n",
                    fastTotal > 0 ? referenceTotal / fastTotal : 0.0);
    }
    std::printf("failures: %d\n", failures);
    return failures;
}

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress lines appear at once, also when piped
    BenchSettings settings;
    std::string filter, set = "synthetic";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--reference-time-limit" && hasValue) {
            settings.referenceTimeLimitSeconds = std::atof(argv[++i]);
        } else if (arg == "--repeat" && hasValue) {
            settings.repeat = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--filter" && hasValue) {
            filter = argv[++i];
        } else if (arg == "--set" && hasValue) {
            set = argv[++i];
        } else if (arg == "--no-reference") {
            settings.reference = false;
        } else {
            std::fprintf(stderr,
                         "usage: bench_schedule [--set synthetic|zoo] [--reference-time-limit S] "
                         "[--repeat N] [--filter TEXT] [--no-reference]\n");
            return 2;
        }
    }
    if (!(settings.referenceTimeLimitSeconds > 0)) {
        std::fprintf(stderr, "bench_schedule: --reference-time-limit must be > 0\n");
        return 2;
    }
    if (set != "synthetic" && set != "zoo") {
        std::fprintf(stderr, "bench_schedule: --set %s, allowed synthetic or zoo\n", set.c_str());
        return 2;
    }
    std::vector<testing::NamedProblem> problems;
    for (auto& p : set == "zoo" ? zooProblems() : testing::syntheticLayerProblems(true))
        if (filter.empty() || p.name.find(filter) != std::string::npos)
            problems.push_back(std::move(p));
    return runScheduleBenchmark(problems, settings) == 0 ? 0 : 1;
}
