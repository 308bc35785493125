#include "core/search/search_baselines.h"

#include <algorithm>

namespace tandem::core::search {
namespace {

bool sameChip(const hardware::AcceleratorConfig& a, const hardware::AcceleratorConfig& b) {
    hardware::AcceleratorConfig x = a, y = b;
    x.hbmCapacityBytes = y.hbmCapacityBytes = 0;  // a per-point option, not part of the chip
    return x == y;
}

// The point with the highest `value` among `points` (ties: lowest index), optionally only the
// points on `chip`.
template <typename Value>
const EvaluatedPoint* bestBy(const std::vector<EvaluatedPoint>& points, Value value,
                             const hardware::AcceleratorConfig* chip = nullptr) {
    const EvaluatedPoint* best = nullptr;
    for (const EvaluatedPoint& p : points) {
        if (chip && !sameChip(p.point.accelerator, *chip)) continue;
        const double v = value(p);
        if (!(v > 0)) continue;
        if (!best || v > value(*best)) best = &p;
    }
    return best;
}

BaselineOutcome outcome(const EvaluatedPoint* p, bool fixed, const std::string& missing) {
    BaselineOutcome out;
    if (!p) {
        out.message = missing;
        return out;
    }
    out.available = true;
    out.point = p->point;
    out.throughputSamplesPerSecond =
        fixed ? p->baselineThroughputSamplesPerSecond : p->throughputSamplesPerSecond;
    out.plan = fixed ? p->baselinePlan : p->plan;
    return out;
}

double placed(const EvaluatedPoint& p) {
    return p.feasible() ? p.throughputSamplesPerSecond : 0;
}
double fixed(const EvaluatedPoint& p) {
    return p.baselineThroughputSamplesPerSecond;
}

}  // namespace

double SearchBaselines::factorOver(const BaselineOutcome& baseline) const {
    if (!joint.available || !baseline.available || !(baseline.throughputSamplesPerSecond > 0))
        return 0;
    return joint.throughputSamplesPerSecond / baseline.throughputSamplesPerSecond;
}

SearchSpace referenceSpace(const SearchSpace& space) {
    SearchSpace ref = space;
    const hardware::AcceleratorConfig& chip = space.base.accelerator;
    ref.name = space.name + " (reference chip)";
    ref.numTensorCores = {chip.numTensorCores};
    ref.tensorCoreRows = {chip.tensorCoreRows};
    ref.tensorCoreCols = {chip.tensorCoreCols};
    ref.numVectorCores = {chip.numVectorCores};
    ref.vectorLanes = VectorLanesRule::Free;
    ref.vectorCoreLanes = {chip.vectorCoreLanes};
    ref.globalBufferBytes = {chip.globalBufferBytes};
    // The reference chip is the yardstick whatever the window: open it around the chip.
    ref.minAreaFraction = 0;
    ref.allowAreaExtrapolation = true;
    if (auto area = hardware::AreaModel(true).areaSquareMillimetres(chip))
        ref.areaBudgetSquareMillimetres = std::max(ref.areaBudgetSquareMillimetres, *area);
    return ref;
}

SearchBaselines computeBaselines(const SearchSpace& space, const SearchResults& searched,
                                 const SearchResults& reference) {
    SearchBaselines b;
    const auto& chip = space.base.accelerator;
    const auto& refPoints = reference.points();
    const std::string noFixed =
        "the model's fixed strategy fits on no point (or the model names none)";
    b.referenceFixed = outcome(bestBy(refPoints, fixed, &chip), true, "reference chip: " + noFixed);
    b.referencePlaced = outcome(bestBy(refPoints, placed, &chip), false,
                                "reference chip: no placement fits in HBM at any option");
    b.searchedFixed = outcome(bestBy(searched.points(), fixed), true, "searched chips: " + noFixed);
    const EvaluatedPoint* joint = searched.best() ? &searched.points()[*searched.best()] : nullptr;
    b.joint = outcome(joint, false, "no searched point fits");
    // Whether the chip is one of the space's, not whether the run got to it: a cancelled or
    // pruned search evaluates only some chips.
    b.partial = searched.statistics().cancelled || reference.statistics().cancelled;
    b.referenceInSpace =
        std::any_of(searched.points().begin(), searched.points().end(),
                    [&](const EvaluatedPoint& p) { return sameChip(p.point.accelerator, chip); });
    if (!b.referenceInSpace) {
        if (const auto chips = space.enumerateChips(); chips.ok())
            b.referenceInSpace = std::any_of(chips->begin(), chips->end(), [&](const auto& c) {
                return sameChip(c.accelerator, chip);
            });
    }
    return b;
}

std::string_view baselineKey(int which) {
    switch (which) {
        case 0:
            return "reference_fixed";
        case 1:
            return "reference_placed";
        case 2:
            return "searched_fixed";
        default:
            return "joint";
    }
}

}  // namespace tandem::core::search
