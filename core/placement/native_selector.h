#pragma once
// Chooses d and the partition at one width under a cost model whose synchronisation is sized by
// the largest stage (SyncRule::LargestStage, the native model). One Pareto DP table over
// (Lmax, largest stage parameter bytes) serves every d whose microbatch count m reaches the
// number of stages it can afford; a d with fewer microbatches than that (so that stages hold
// min(position, m) microbatches) gets a table for its m, shared by all d with the same m. The
// final round then tries every d, every stage count S and one-device count u within ⌊D/d⌋
// devices and every front point: TPB = m·Lmax + ΣL − Lmax + sync(d, Q) (the native 1F1B time,
// CostModel::pipelineSeconds), first strict minimum in the order d, S, u, point. The fronts are
// exact in (Lmax, Q); ΣL rides along (partition_dp.h), so the choice is never slower than the
// partition minimising Lmax·(m + S − 1) + sync, priced as it runs, and may miss a partition
// whose smaller ΣL outweighs a larger Lmax (tests/core/placement: how often, on random chains).
// With a finite SelectionInput::mustBeatSeconds the tables keep only points whose Lmax a plan
// faster than it can have (TPB ≥ m·Lmax, m the fewest microbatches a pipeline of that many
// stages can run): the kept points are those of the full tables, so a choice faster than the
// time to beat is the same choice.
#include "core/common/expected.h"
#include "core/placement/width_selection.h"

namespace tandem::core::placement {

class NativeSelector {
public:
    static Expected<WidthChoice> select(const SelectionInput& input);
};

}  // namespace tandem::core::placement
