#pragma once
// A search report built by hand, without running a search: `pointCount` points over chips of 8
// options (microbatch {1, 2} × recompute {off, on} × HBM {16, 32} GiB, the grid's order),
// consecutive chips different, numbers drawn from a seeded generator (arbitrary doubles, so the
// round trip is tested on more than round values), every fifth point infeasible, full plans for
// the Pareto points and the best, and the eight baselines — the reference ones on their own
// one-chip grid, the searched ones at points of the results, two not available. Plans carry
// exactly what the format carries (the derived fields derived the reader's way), so a read-back
// report equals this one field for field — with the reference baselines' point indices only when
// `pointCount` is a multiple of 8 (whole chips: a complete space, see the reader's header).
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/io/search_results_json.h"
#include "core/placement/cost_model.h"

namespace synthetic {

using namespace tandem::core;

constexpr std::int64_t kGiB = std::int64_t(1) << 30;
constexpr std::int64_t kOptionsPerChip = 8;

inline hardware::AcceleratorConfig chipAt(std::int64_t chip,
                                          const hardware::AcceleratorConfig& base) {
    hardware::AcceleratorConfig a = base;
    std::int64_t c = chip;
    a.numTensorCores = std::int64_t(1) << (c % 6);
    c /= 6;
    a.tensorCoreRows = std::int64_t(32) << (c % 4);
    c /= 4;
    a.tensorCoreCols = std::int64_t(32) << (c % 4);
    c /= 4;
    a.numVectorCores = std::int64_t(1) << (c % 4);
    c /= 4;
    a.vectorCoreLanes = std::int64_t(32) << (c % 4);
    c /= 4;
    a.globalBufferBytes = (std::int64_t(16) << 20) << (c % 5);
    return a;
}

// Point `index` of the grid; chip 0 is `base`'s own chip only for the reference grid.
inline search::SearchPoint pointAt(std::int64_t index, std::int64_t chip,
                                   const hardware::AcceleratorConfig& accelerator, double area) {
    search::SearchPoint p;
    const std::int64_t option = index % kOptionsPerChip;
    p.index = index;
    p.chipIndex = chip;
    p.accelerator = accelerator;
    p.accelerator.hbmCapacityBytes = (option % 2 == 0 ? 16 : 32) * kGiB;
    p.recompute = (option / 2) % 2 == 0 ? hardware::Recompute::Off : hardware::Recompute::On;
    p.microbatchSize = option / 4 == 0 ? 1 : 2;
    p.areaSquareMillimetres = area;
    return p;
}

inline std::shared_ptr<const placement::Plan> planFor(std::mt19937_64& random, int layerCount) {
    std::uniform_real_distribution<double> seconds(1e-4, 10.0), bytes(1e6, 3e10);
    placement::Plan plan;
    plan.tensorParallel = 4;
    plan.dataParallel = 16;
    plan.microbatchSize = 2;
    plan.microbatchesPerPipeline = 128;
    plan.recompute = hardware::Recompute::On;
    plan.sequenceParallel = true;
    plan.interleave = 2;
    // Both cost models, whose pipeline times the reader derives by different formulas.
    if (random() % 2) plan.costModel = placement::CostModelKind::PhazeCompat;
    const int stages = 3;
    for (int k = 0; k < stages; ++k) {
        placement::StagePlan s;
        for (int l = k * layerCount / stages; l < (k + 1) * layerCount / stages; ++l)
            s.layers.push_back(l);
        s.position = stages - k;
        s.devices = k == 1 ? 1 : 4;
        s.forwardSeconds = seconds(random);
        s.backwardSeconds = seconds(random);
        s.loadSeconds = s.forwardSeconds + s.backwardSeconds;
        s.recompute = k == 0;
        s.selectiveRecompute = k == 2;
        s.inFlightMicrobatches = stages - k;
        auto& m = s.memory;
        m.weightsBytes = bytes(random);
        m.gradientsBytes = bytes(random);
        m.optimizerBytes = bytes(random);
        m.activationsBytes = bytes(random);
        m.stashBytes = bytes(random);
        m.totalBytes = bytes(random);
        m.capacityBytes = 32.0 * double(kGiB);
        m.freeBytes = m.capacityBytes - m.totalBytes;
        plan.devicesPerPipeline += s.devices;
        plan.stages.push_back(std::move(s));
    }
    plan.devicesUsed = plan.dataParallel * plan.devicesPerPipeline;
    plan.maxStageLoadSeconds = seconds(random);
    plan.pipelineSeconds = placement::CostModel::pipelineSeconds(
        plan.costModel, plan.maxStageLoadSeconds, placement::stageLoadSum(plan.stages),
        plan.microbatchesPerPipeline, stages, plan.interleave);
    plan.syncSeconds = seconds(random);
    plan.optimizerSeconds = seconds(random);
    plan.timePerBatchSeconds = seconds(random);
    plan.throughputSamplesPerSecond = 4096 / plan.timePerBatchSeconds;
    plan.bubbleFraction = seconds(random) / 10;
    plan.breakdown = {seconds(random), seconds(random), seconds(random), seconds(random),
                      seconds(random), seconds(random), seconds(random)};
    plan.modelFlopsPerIteration = 1.234567e18;
    plan.mfu = seconds(random) / 10;
    return std::make_shared<const placement::Plan>(std::move(plan));
}

inline io::SearchReport report(std::int64_t pointCount, std::uint64_t seed = 7) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> throughput(1.0, 1e5), area(50.0, 900.0), share(0.3, 1);
    io::SearchReport report;
    report.baseHardware.name = "synthetic base";
    report.baseHardware.description = "TPUv4-like, faster HBM";
    report.baseHardware.accelerator.hbmBandwidthBytesPerSecond = 1.6e12;
    report.baseHardware.accelerator.clockHz = 9.4e8;
    report.baseHardware.cluster.devices = 2048;
    const hardware::AcceleratorConfig& base = report.baseHardware.accelerator;

    std::vector<search::EvaluatedPoint> points;
    points.reserve(std::size_t(pointCount));
    double chipArea = 0;
    for (std::int64_t i = 0; i < pointCount; ++i) {
        const std::int64_t chip = i / kOptionsPerChip;
        if (i % kOptionsPerChip == 0) chipArea = area(random);
        search::EvaluatedPoint e;
        e.point = pointAt(i, chip, chipAt(chip, base), chipArea);
        if (i % 5 == 3) {
            e.status = search::PointStatus::Infeasible;
        } else {
            e.status = search::PointStatus::Feasible;
            e.throughputSamplesPerSecond = throughput(random);
            e.objective = e.throughputSamplesPerSecond;
            if (i % 3 != 0)
                e.baselineThroughputSamplesPerSecond = e.throughputSamplesPerSecond * share(random);
            e.planShape = {std::int64_t(1) << (i % 4),
                           1 + i % 64,
                           int(1 + i % 16),
                           4096 / e.throughputSamplesPerSecond,
                           1 + i % 3,
                           i % 4,
                           i % 5 == 1};
        }
        points.push_back(std::move(e));
    }
    search::SearchStatistics statistics;
    statistics.explorer = "exhaustive";
    statistics.threads = 4;
    statistics.pointsInSpace = pointCount;
    statistics.wallSeconds = 12.345678901234567;
    auto results = std::make_shared<const search::SearchResults>(std::move(points), statistics);

    io::SearchModelReport model;
    model.name = "synthetic-model";
    model.layerNames = {"embedding", "block.0", "block.1", "block.2", "block.3", "lm_head"};
    const int layers = int(model.layerNames.size());
    for (std::size_t position : results->paretoByArea())
        model.plans[position] = planFor(random, layers);
    if (results->best()) model.plans[*results->best()] = planFor(random, layers);

    search::SearchBaselines& b = model.baselines;
    search::BaselineOutcome* reference[] = {&b.referenceFixed, &b.referencePlaced,
                                            &b.placementOnly};
    for (int r = 0; r < 3; ++r) {
        *reference[r] = {true, {}, throughput(random), pointAt(r + 1, 0, base, 400.0), nullptr};
        if (r == 1) reference[r]->plan = planFor(random, layers);
    }
    const auto& all = results->points();
    if (results->best()) {
        const search::EvaluatedPoint& best = all[*results->best()];
        b.joint = {true, {}, best.throughputSamplesPerSecond, best.point, planFor(random, layers)};
        b.sameHbm = {true, {}, best.throughputSamplesPerSecond, best.point, nullptr};
    }
    if (all.size() > 2) b.searchedFixed = {true, {}, throughput(random), all[2].point, nullptr};
    b.chipOnly.message = "searched chips: the fixed strategy fits on none at these options";
    b.chipAndPlacement.message = "searched chips: no placement fits";
    b.referenceInSpace = true;
    report.results = std::move(results);
    report.models.push_back(std::move(model));
    return report;
}

}  // namespace synthetic
