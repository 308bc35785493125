#pragma once
// PHAZE's placement cost model, exactly as its DP program implements it
// (PHAZE's public code), so that Tandem reproduces PHAZE's optima bit for bit: IEEE doubles,
// the same accumulation orders, PHAZE's units (whatever the problem uses; PHAZE files use ms and
// bytes/ms) and its quirks. For a chain-like stage i..j (c_i = bytes of the edge i−1 → i,
// B = the inter-node bandwidth, D = devices, M = HBM capacity):
//   x0 = c_i/B (0 for i = 0), y0 = c_{j+1}/B (0 for the last layer);
//   FW = x0 + f_i + … + f_j; BW = y0 + b_j + … + b_i (reverse); FWP = f_i + … + f_j;
//   RB = max(FWP, y0) + b_j + … + b_i (FWP alone for the last layer);
//   load = FW + BW, load with recompute = FW + RB;
//   C = (2·P + O) + X with O = P for Adam, 0 for SGD; σ = X (no recompute) or c_i (recompute);
//   maxS = D if C + (D−1)·σ ≤ M, 0 if C > M, else 1 + ⌊(M − C)/σ⌋; a stage at position s fits
//   iff s ≤ maxS, whatever the number of microbatches;
//   sync R = ((4·(d−1))·P_first / B) / d, sized by the first stage only.
// Skip edges of a chain-like graph are ignored, as PHAZE ignores them (evaluateSet on such a
// graph prices the range PHAZE's way too). PHAZE rejects branching graphs; here they get the
// natural generalisation: x0 = (Σ bytes entering the set)/B, σ = Σ bytes entering, y0 = (Σ bytes
// leaving)/B when any edge leaves, forward sums in ascending position, backward sums descending.
#include "core/placement/cost_model.h"

namespace tandem::core::placement {

class PhazeCostModel final : public CostModel {
public:
    // Chains up to this many layers are priced in PHAZE's summation order (see evaluateRanges).
    static constexpr int kExactOrderLayers = 2048;

    explicit PhazeCostModel(const PlacementProblem& problem,
                            int exactOrderLayers = kExactOrderLayers);

    CostModelKind kind() const override { return CostModelKind::PhazeCompat; }
    SyncRule syncRule() const override { return SyncRule::FirstStage; }
    bool lastStageRecomputes() const override { return false; }
    bool holdsTiedWeightsOnce() const override { return false; }
    bool capsInFlightAtMicrobatches() const override { return false; }

    void evaluateRanges(const WidthGraph& graph, int first, int last, bool untilUnfit,
                        std::vector<StageCost>& out) const override;
    StageCost evaluateSet(const WidthGraph& graph, std::span<const int> members,
                          const std::vector<char>& inStage) const override;
    MemoryBreakdown memory(const StageCost& cost, std::int64_t inFlight,
                           StageRecompute recompute) const override;
    double syncSeconds(std::int64_t d, std::int64_t t, double syncBytes,
                       SyncWindow window = {}) const override;
    double stepSeconds(double) const override { return 0.0; }

    // PHAZE's maxS for a stage of static memory C and stash σ per extra microbatch.
    std::int64_t maxPosition(double staticBytes, double stashBytes) const;

private:
    int exactOrderLayers_;
    struct Parts {
        double fw = 0, bw = 0, fwp = 0, rb = 0, bwp = 0;
        double parameters = 0, activations = 0, stash = 0;
        bool tensorParallel = false;
    };
    StageCost finish(const Parts& parts, std::int64_t t) const;

    double bandwidth_ = 1;
    double capacity_ = 0;
    std::int64_t devices_ = 1;
    bool adam_ = false;
};

}  // namespace tandem::core::placement
