#pragma once
// Shared by the scheduler tests: a seeded, platform-independent random DAG generator and a solve
// helper that runs every produced schedule through the validator.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "core/schedule/layer_scheduler.h"
#include "core/schedule/schedule_validator.h"

namespace tandem::testing {

class SplitMix {
public:
    explicit SplitMix(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
    int between(int lo, int hi) {
        return lo + static_cast<int>(next() % std::uint64_t(hi - lo + 1));
    }

private:
    std::uint64_t state_;
};

// 2–9 tasks (or `tasks` if given) with mixed classes including Fused, Collective and Nop,
// 1–3 cores per kind, predecessors always of smaller index. Half the instances use integer
// latencies (many ties), half awkward reals; a few tasks take 0 s in one mode.
inline core::schedule::ScheduleProblem randomProblem(std::uint64_t seed, int tasks = 0) {
    using core::model::OpClass;
    SplitMix rng(seed * 7919 + 17);
    core::schedule::ScheduleProblem p;
    const int n = tasks > 0 ? tasks : rng.between(2, 9);
    p.numTensorCores = rng.between(1, 3);
    p.numVectorCores = rng.between(1, 3);
    const bool integral = rng.uniform() < 0.5;
    const double density = 0.1 + 0.5 * rng.uniform();
    const double unit = 1e-4;
    for (int i = 0; i < n; ++i) {
        core::schedule::ScheduleTask t;
        t.name = "t" + std::to_string(i);
        const double c = rng.uniform();
        t.opClass = c < 0.3    ? OpClass::TensorCore
                    : c < 0.55 ? OpClass::VectorCore
                    : c < 0.7  ? OpClass::Fused
                    : c < 0.85 ? OpClass::Collective
                               : OpClass::Nop;
        if (t.opClass != OpClass::Nop) {
            t.oneCoreSeconds =
                integral ? unit * rng.between(1, 6) : unit * (0.5 + 5 * rng.uniform());
            const int cores =
                t.opClass == OpClass::VectorCore ? p.numVectorCores : p.numTensorCores;
            const double speedup = 0.7 + cores * rng.uniform();
            t.allCoresSeconds = integral ? unit * std::ceil(t.oneCoreSeconds / unit / speedup)
                                         : t.oneCoreSeconds / speedup;
            if (t.opClass == OpClass::Collective) t.allCoresSeconds = t.oneCoreSeconds;
            if (rng.uniform() < 0.03) t.oneCoreSeconds = 0;
            t.flops = 1e9 * t.oneCoreSeconds;
        }
        for (int j = 0; j < i; ++j)
            if (rng.uniform() < density) t.predecessors.push_back(j);
        p.tasks.push_back(t);
    }
    return p;
}

inline bool sameMakespan(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max({std::abs(a), std::abs(b), 1e-300});
}

// Solves without the shared cache and validates; returns nullptr (and sets `error`) on failure.
inline std::shared_ptr<const core::schedule::LayerSchedule> solveChecked(
    const core::schedule::ScheduleProblem& problem, core::schedule::ScheduleOptions options,
    std::string& error, const core::RunControl* control = nullptr,
    std::shared_ptr<core::schedule::ScheduleCache> cache = nullptr) {
    if (!cache) options.useCache = false;
    const core::schedule::LayerScheduler scheduler(options, cache);
    auto result = scheduler.solve(problem, control);
    if (!result) {
        error = result.message();
        return nullptr;
    }
    const core::Status valid = core::schedule::ScheduleValidator().validate(problem, **result);
    if (!valid) {
        error = valid.message();
        return nullptr;
    }
    return *result;
}

}  // namespace tandem::testing
