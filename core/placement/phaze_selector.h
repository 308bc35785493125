#pragma once
// Chooses d and the partition at one width the way PHAZE's DP program does (ARCHITECTURE.md §2.7),
// so that the reported plan, not just the optimum, matches: the DP table holds, per suffix,
// stage count and one-device count, the minimum Lmax; the final round tries d ascending, the
// first stage in list order (size ascending on chains), S ascending, and keeps the first strict
// minimum of Lmax·(m + S − 1) + R(d, P_first); the other stages are rebuilt greedily front to
// back, taking the first stage whose value is within 1e-9 of the optimum. Exactness does not
// depend on the shortcuts used here: first stages dominated (in both Lmax and P_first) by an
// earlier one are skipped per S, and a d whose lower bound cannot beat the best is skipped.
#include "core/common/expected.h"
#include "core/placement/width_selection.h"

namespace tandem::core::placement {

class PhazeSelector {
public:
    static Expected<WidthChoice> select(const SelectionInput& input);
};

}  // namespace tandem::core::placement
