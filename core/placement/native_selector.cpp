#include "core/placement/native_selector.h"

#include <cmath>
#include <map>
#include <memory>

#include "core/placement/partition_dp.h"

namespace tandem::core::placement {
namespace {

// The largest Lmax of a plan faster than `mustBeat` for each (s, u) of a table with `maxStages`
// stages (PartitionDp::Settings::maxLoad). A suffix of s stages, u of them on one device, belongs
// to pipelines of at least devicesFor(s, u) devices, so to at most ⌊D / devicesFor(s, u)⌋
// replicas (and at most N), each running m ≥ ⌈N / d⌉ microbatches; the native time m·Lmax + ΣL −
// Lmax + sync is at least m·Lmax (ΣL ≥ Lmax, sync ≥ 0). A state no pipeline within D devices
// can contain keeps nothing. The relative 1e-9 covers the rounding of that time, so a plan no
// slower than mustBeat always keeps its points. Empty when mustBeat is not finite.
std::vector<double> loadLimits(const SelectionInput& in, int maxStages, double mustBeat) {
    std::vector<double> limits;
    if (!std::isfinite(mustBeat)) return limits;
    const std::size_t perStage = std::size_t(in.maxOneDevice + 1);
    limits.assign(std::size_t(maxStages + 1) * perStage, std::numeric_limits<double>::infinity());
    for (int s = 1; s <= maxStages; ++s)
        for (int u = 0; u <= std::min(in.maxOneDevice, s); ++u) {
            const std::int64_t replicas =
                std::min(in.devices / in.devicesFor(s, u), in.microbatches);
            const std::size_t k = std::size_t(s) * perStage + std::size_t(u);
            if (replicas <= 0) {
                limits[k] = -1;  // every stage's load is ≥ 0, so nothing is kept
                continue;
            }
            const double m = double((in.microbatches + replicas - 1) / replicas);
            limits[k] = mustBeat / m * (1 + 1e-9);
        }
    return limits;
}

}  // namespace

Expected<WidthChoice> NativeSelector::select(const SelectionInput& in) {
    WidthChoice choice;
    PartitionDp::Settings settings;
    settings.maxStages = in.maxStages;
    settings.maxOneDevice = in.maxOneDevice;
    settings.recompute = in.recompute;
    settings.lastStageRecomputes = true;  // native: Megatron's full recomputation
    settings.trackSync = in.model.syncRule() == SyncRule::LargestStage;
    settings.preferSmallerTotal = true;  // the pipeline time counts ΣL
    settings.maxStates = in.maxDpStates;
    settings.maxLoad = loadLimits(in, settings.maxStages, in.mustBeatSeconds);
    const bool capped = in.model.capsInFlightAtMicrobatches();

    auto uncapped = PartitionDp::solve(in.candidates, settings, in.control);
    if (!uncapped) return uncapped.error();
    choice.dpStates += uncapped->stateCount();
    ++choice.dpTables;
    std::map<std::int64_t, PartitionDp> byCap;

    const PartitionDp* bestTable = nullptr;
    int bestPoint = -1;
    const std::int64_t maxReplicas = std::min(in.devices, in.microbatches);
    for (std::int64_t d = 1; d <= maxReplicas; ++d) {
        if (in.control && (d & 255) == 0 && in.control->cancelled())
            return Error{"placement cancelled"};
        const std::int64_t budget = in.devices / d;
        const std::int64_t m = (in.microbatches + d - 1) / d;
        const int stageLimit = in.maxStagesWithin(budget);
        if (stageLimit == 0) break;  // budgets only shrink as d grows
        const PartitionDp* table = &*uncapped;
        if (capped && m < stageLimit) {
            auto it = byCap.find(m);
            if (it == byCap.end()) {
                // The first d with this m has the largest budget of them all.
                PartitionDp::Settings s = settings;
                s.maxStages = stageLimit;
                s.inFlightCap = m;
                s.maxLoad = loadLimits(in, stageLimit, in.mustBeatSeconds);
                auto dp = PartitionDp::solve(in.candidates, s, in.control);
                if (!dp) return dp.error();
                choice.dpStates += dp->stateCount();
                ++choice.dpTables;
                it = byCap.emplace(m, std::move(*dp)).first;
            }
            table = &it->second;
        }
        for (int s = 1; s <= stageLimit; ++s)
            for (int u = 0; u <= std::min(in.maxOneDevice, s); ++u) {
                if (in.devicesFor(s, u) > budget) continue;
                const auto front = table->front(0, s, u);
                for (std::size_t k = 0; k < front.size(); ++k) {
                    const double sync = in.model.syncSeconds(d, in.tensorParallel, front[k].sync);
                    const double tpb =
                        CostModel::pipelineSeconds(CostModelKind::Native, front[k].load,
                                                   front[k].total, m, s) +
                        sync;
                    if (tpb < choice.timePerBatch) {
                        choice.found = true;
                        choice.timePerBatch = tpb;
                        choice.dataParallel = d;
                        bestTable = table;
                        bestPoint = table->frontOffset(0, s, u) + int(k);
                    }
                }
            }
    }
    if (choice.found) choice.stages = bestTable->stagesOf(bestPoint);
    return choice;
}

}  // namespace tandem::core::placement
