// Search evaluator benchmark: what one design point of the PHAZE space costs for GPT-3 175B
// (core/search/model_evaluator.h), measured here rather than in test_search_evaluator, which
// checks the evaluator's answers. Prints the graph-building time, one cold and one warm point
// (with the estimate / schedule / placement split) and the points per second of consecutive
// points with two threads, with the projected time for the whole space; also how long the
// PHAZE space's SearchGrid takes to build.
//
// Usage: bench_search_evaluator [--points N] (default 96)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/model/model_zoo.h"
#include "core/search/model_evaluator.h"
#include "core/search/search_grid.h"
#include "core/search/thread_pool.h"

using namespace tandem::core;
using namespace tandem::core::search;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t count = 96;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--points") && i + 1 < argc) {
            count = std::max<std::int64_t>(1, std::atoll(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: bench_search_evaluator [--points N]\n");
            return 2;
        }
    }
    const SearchSpace space = SearchSpace::phaze();
    const auto gridStart = Clock::now();
    auto grid = SearchGrid::create(space);
    const double gridSeconds = secondsSince(gridStart);
    auto model = model::zooModel("gpt3-175b");
    if (!grid || !model) {
        std::fprintf(stderr, "%s\n", grid ? model.message().c_str() : grid.message().c_str());
        return 1;
    }
    // The main window builds this grid when a streamed point is first selected.
    std::printf("PHAZE grid (%lld chips, %lld points) built in %.1f ms\n",
                static_cast<long long>(grid->chipCount()),
                static_cast<long long>(grid->pointCount()), gridSeconds * 1e3);
    auto created = ModelEvaluator::create(*model, space, hardware::TrainingConfig{});
    if (!created) {
        std::fprintf(stderr, "%s\n", created.message().c_str());
        return 1;
    }
    const auto& ev = **created;
    std::printf("gpt3-175b graphs for %zu mbs x %zu widths built in %.3f s\n",
                space.microbatchSizes.size(), ev.widths().size(), ev.statistics().graphSeconds);

    // A chip in the middle of the space, then its neighbour (same chip: warm caches).
    const std::int64_t first = (grid->chipCount() / 2) * grid->optionsPerChip();
    const auto timed = [&](std::int64_t index) {
        const auto start = Clock::now();
        EvaluatedPoint e = ev.evaluate(grid->point(index), nullptr);
        const double s = secondsSince(start);
        if (e.status == PointStatus::Error) std::fprintf(stderr, "%s\n", e.message.c_str());
        return std::make_pair(s, std::move(e));
    };
    const auto [cold, e0] = timed(first);
    const auto [warm, e1] = timed(first + 1);
    std::printf(
        "one point: cold %.1f ms (estimate %.1f, schedule %.1f, place %.1f), warm %.1f ms "
        "(place %.1f); status %s, %.1f samples/s\n",
        cold * 1e3, e0.seconds.estimate * 1e3, e0.seconds.schedule * 1e3,
        e0.seconds.placement * 1e3, warm * 1e3, e1.seconds.placement * 1e3,
        std::string(toString(e0.status)).c_str(), e0.throughputSamplesPerSecond);

    // Consecutive points of the space with two threads.
    ThreadPool pool(2);
    const std::int64_t base = (grid->chipCount() / 3) * grid->optionsPerChip();
    std::vector<EvaluatedPoint> results(static_cast<std::size_t>(count));
    const auto start = Clock::now();
    pool.parallelFor(count, [&](std::int64_t i) {
        results[std::size_t(i)] = ev.evaluate(grid->point(base + i), nullptr);
    });
    const double s = secondsSince(start);
    std::size_t planBytes = 0;
    int feasible = 0;
    for (const auto& r : results) {
        feasible += r.feasible();
        for (const auto* plan : {r.plan.get(), r.baselinePlan.get()}) {
            if (!plan) continue;
            planBytes += sizeof(placement::Plan);
            for (const auto& st : plan->stages)
                planBytes += sizeof(st) + st.layers.capacity() * sizeof(int);
        }
    }
    std::printf(
        "%lld consecutive points in %.2f s with 2 threads = %.1f points/s (%d feasible); "
        "704,640 points would take %.1f min; plans ~%.0f bytes/point\n",
        static_cast<long long>(count), s, double(count) / s, feasible,
        704640.0 / (double(count) / s) / 60, double(planBytes) / double(count));
    return 0;
}
