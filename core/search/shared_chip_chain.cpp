#include "core/search/shared_chip_chain.h"

namespace tandem::core::search {

void fillSharedChipChain(SearchBaselines& b, const SearchGrid& grid, std::int64_t chipIndex,
                         const ModelEvaluator& evaluator) {
    if (!b.referenceFixed.available) return;  // nothing to hold: the messages say so already
    const SearchPoint& held = b.referenceFixed.point;
    const std::string atOptions = " at the reference baseline's HBM, microbatch and recompute";
    b.chipOnly = BaselineOutcome{};
    b.chipOnly.message = "chosen chip: the fixed strategy does not fit" + atOptions;
    b.chipAndPlacement = BaselineOutcome{};
    b.chipAndPlacement.message = "chosen chip: no placement fits" + atOptions;
    b.sameHbm = BaselineOutcome{};
    b.sameHbm.message = "chosen chip: no placement fits at the reference baseline's HBM";
    for (std::int64_t o = 0; o < grid.optionsPerChip(); ++o) {
        const SearchPoint p = grid.point(chipIndex * grid.optionsPerChip() + o);
        if (p.hbmCapacityBytes() != held.hbmCapacityBytes()) continue;
        const EvaluatedPoint e = evaluator.evaluate(p, nullptr, true);
        const bool options =
            p.microbatchSize == held.microbatchSize && p.recompute == held.recompute;
        if (options && e.baselineThroughputSamplesPerSecond > 0)
            b.chipOnly = {true, {}, e.baselineThroughputSamplesPerSecond, p, e.baselinePlan};
        if (!e.feasible()) continue;
        const BaselineOutcome placed{true, {}, e.throughputSamplesPerSecond, p, e.plan};
        if (options) b.chipAndPlacement = placed;
        // The first of equals in option order, as the single-model chain keeps it.
        if (!b.sameHbm.available ||
            e.throughputSamplesPerSecond > b.sameHbm.throughputSamplesPerSecond)
            b.sameHbm = placed;
    }
}

}  // namespace tandem::core::search
