#include "core/placement/cost_model.h"

#include "core/placement/native_cost_model.h"
#include "core/placement/phaze_cost_model.h"

namespace tandem::core::placement {

std::string_view toString(CostModelKind kind) {
    return kind == CostModelKind::Native ? "native" : "phaze-compat";
}

bool parseCostModel(std::string_view text, CostModelKind& out) {
    if (text == "native") {
        out = CostModelKind::Native;
        return true;
    }
    if (text == "phaze-compat") {
        out = CostModelKind::PhazeCompat;
        return true;
    }
    return false;
}

Status supportsTraining(CostModelKind kind, const hardware::TrainingConfig& training) {
    if (kind != CostModelKind::PhazeCompat) return Status::success();
    const char* what =
        training.recompute == hardware::Recompute::Selective          ? "selective recomputation"
        : training.sequenceParallel == hardware::SequenceParallel::On ? "sequence parallelism"
        : training.interleave > 1                                     ? "interleaved 1F1B"
        : training.zero > 0                                           ? "ZeRO (use --zero 0)"
        : training.flashAttention                                     ? "FlashAttention"
        : training.overlapGradReduce || training.overlapParamGather || training.tpCommOverlap ||
                training.overlapP2pComm
            ? "scheduled overlap of communication with compute"
            : nullptr;
    if (!what) return Status::success();
    return Error{std::string("the phaze-compat cost model reproduces PHAZE, which has no ") + what +
                 "; use --cost-model native"};
}

Status supportsPrecision(CostModelKind kind, hardware::Precision precision) {
    if (kind != CostModelKind::PhazeCompat || precision != hardware::Precision::Fp8)
        return Status::success();
    return Error{
        "the phaze-compat cost model reproduces PHAZE, which has no fp8; use --cost-model native "
        "or --precision bf16"};
}

StageCost CostModel::evaluateStage(const WidthGraph& graph, std::span<const int> members) const {
    if (members.empty()) {
        StageCost empty;
        empty.maxInFlight = empty.maxInFlightRecompute = empty.maxInFlightSelective =
            kNoInFlightCap;
        return empty;
    }
    bool contiguous = true;
    for (std::size_t k = 1; k < members.size(); ++k)
        contiguous = contiguous && members[k] == members[k - 1] + 1;
    if (graph.chainLike() && contiguous)
        return evaluateRange(graph, members.front(), members.back());
    std::vector<char> inStage(std::size_t(graph.size()), 0);
    for (int p : members) inStage[std::size_t(p)] = 1;
    return evaluateSet(graph, members, inStage);
}

std::unique_ptr<CostModel> makeCostModel(CostModelKind kind, const PlacementProblem& problem,
                                         std::int64_t dataParallel) {
    if (kind == CostModelKind::PhazeCompat) return std::make_unique<PhazeCostModel>(problem);
    return std::make_unique<NativeCostModel>(problem, dataParallel);
}

}  // namespace tandem::core::placement
