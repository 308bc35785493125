#include "core/search/search_baselines.h"

#include <algorithm>

#include "core/hardware/parameter_registry.h"

namespace tandem::core::search {
namespace {

bool sameChip(const hardware::AcceleratorConfig& a, const hardware::AcceleratorConfig& b) {
    hardware::AcceleratorConfig x = a, y = b;
    x.hbmCapacityBytes = y.hbmCapacityBytes = 0;  // a per-point option, not part of the chip
    return x == y;
}

// Which points a step of the attribution chain may choose from: any, or those holding a given
// point's HBM capacity (and, with `options`, its microbatch size and recompute too).
struct Held {
    const SearchPoint* point = nullptr;
    bool options = false;
    bool admits(const SearchPoint& p) const {
        if (!point) return true;
        if (p.hbmCapacityBytes() != point->hbmCapacityBytes()) return false;
        return !options ||
               (p.microbatchSize == point->microbatchSize && p.recompute == point->recompute);
    }
};

// The point with the highest `value` among `points` (ties: lowest index), optionally only the
// points on `chip` and those `held` admits.
template <typename Value>
const EvaluatedPoint* bestBy(const std::vector<EvaluatedPoint>& points, Value value,
                             const hardware::AcceleratorConfig* chip = nullptr, Held held = {}) {
    const EvaluatedPoint* best = nullptr;
    for (const EvaluatedPoint& p : points) {
        if (chip && !sameChip(p.point.accelerator, *chip)) continue;
        if (!held.admits(p.point)) continue;
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
    // Every searched field at the chip's value: a required field lists it, an optional one is
    // not searched (the base's value is the chip's).
    for (const SearchedField& f : kSearchedFields)
        ref.*f.values = f.optional
                            ? std::vector<std::int64_t>{}
                            : std::vector<std::int64_t>{std::int64_t(parameterOf(f).get(chip))};
    ref.vectorLanes = VectorLanesRule::Free;
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
    if (const EvaluatedPoint* rf = bestBy(refPoints, fixed, &chip)) {
        const Held options{&rf->point, true}, hbm{&rf->point, false};
        const std::string atOptions = " at the reference baseline's HBM, microbatch and recompute";
        b.placementOnly = outcome(bestBy(refPoints, placed, &chip, options), false,
                                  "reference chip: no placement fits" + atOptions);
        b.chipOnly = outcome(bestBy(searched.points(), fixed, nullptr, options), true,
                             "searched chips: the fixed strategy fits on none" + atOptions);
        b.chipAndPlacement = outcome(bestBy(searched.points(), placed, nullptr, options), false,
                                     "searched chips: no placement fits" + atOptions);
        b.sameHbm = outcome(bestBy(searched.points(), placed, nullptr, hbm), false,
                            "searched chips: no placement fits at the reference baseline's HBM");
    } else {
        for (BaselineOutcome* o : {&b.placementOnly, &b.chipOnly, &b.chipAndPlacement, &b.sameHbm})
            o->message =
                "the fixed strategy fits on the reference chip at no option, so there "
                "are no options to hold";
    }
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

const BaselineOutcome& baselineOutcome(const SearchBaselines& b, int which) {
    const BaselineOutcome* all[kBaselineCount] = {
        &b.referenceFixed, &b.referencePlaced, &b.searchedFixed,    &b.joint,
        &b.placementOnly,  &b.chipOnly,        &b.chipAndPlacement, &b.sameHbm};
    return *all[std::clamp(which, 0, kBaselineCount - 1)];
}

std::string_view baselineKey(int which) {
    static constexpr std::string_view keys[kBaselineCount] = {
        "reference_fixed", "reference_placed", "searched_fixed",     "joint",
        "placement_only",  "chip_only",        "chip_and_placement", "same_hbm"};
    return keys[std::clamp(which, 0, kBaselineCount - 1)];
}

}  // namespace tandem::core::search
