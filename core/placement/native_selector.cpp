#include "core/placement/native_selector.h"

#include <map>
#include <memory>

#include "core/placement/partition_dp.h"

namespace tandem::core::placement {

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
