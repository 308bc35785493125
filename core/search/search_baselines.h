#pragma once
// The four-way comparison of ARCHITECTURE.md §2.9: what co-searching chip and placement buys
// over fixing either. For one model:
//   referenceFixed  — the reference chip (the space's base accelerator) with the model's fixed
//                     Megatron-style strategy, best over the space's per-chip options
//                     (microbatch size × recompute × HBM);
//   referencePlaced — the reference chip with Tandem's placement, best over the same options;
//   searchedFixed   — the best chip of the search with the fixed strategy;
//   joint           — the best point of the search (chip, options and placement together).
// Each comes with the point (chip, microbatch, recompute, HBM) and, when the evaluator kept it,
// the plan.
//
// The attribution chain says what each freedom adds, one freedom per step, so no factor mixes
// two changes (e.g. a placement gain measured against a baseline with less HBM). Every step keeps
// referenceFixed's per-chip options (HBM capacity, microbatch size, recompute) unless it names
// the option it frees:
//   placementOnly    — the reference chip at referenceFixed's options, with Tandem's placement;
//   chipOnly         — the best searched chip at those options, with the fixed strategy;
//   chipAndPlacement — the best searched chip at those options, with Tandem's placement;
//   sameHbm          — the best searched point at referenceFixed's HBM, microbatch and
//                      recompute free, with Tandem's placement;
// and joint then frees the HBM as well. The reference chip is evaluated on its own one-chip grid
// (referenceSpace()) so that the comparison exists even when the reference chip lies outside the
// searched space — in that case (a smaller budget, a user space) the joint optimum can fall below a
// reference baseline, and `referenceInSpace` says so. When the reference chip is one of the space's
// chips the joint optimum is never below any baseline: every point's plan is at least as fast as
// its fixed strategy (ModelEvaluator keeps the better of the two), and the reference chip's points
// are among the searched ones.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/expected.h"
#include "core/placement/plan.h"
#include "core/search/search_point.h"
#include "core/search/search_results.h"
#include "core/search/search_space.h"

namespace tandem::core::search {

struct BaselineOutcome {
    bool available = false;  // false: nothing fits (or no fixed strategy); `message` says why
    std::string message;
    double throughputSamplesPerSecond = 0;
    SearchPoint point;                            // where it was found (valid when available)
    std::shared_ptr<const placement::Plan> plan;  // null unless the evaluator kept plans
};

struct SearchBaselines {
    BaselineOutcome referenceFixed;
    BaselineOutcome referencePlaced;
    BaselineOutcome searchedFixed;
    BaselineOutcome joint;
    BaselineOutcome placementOnly;
    BaselineOutcome chipOnly;
    BaselineOutcome chipAndPlacement;
    BaselineOutcome sameHbm;
    bool referenceInSpace = false;  // the reference chip is one of the space's chips
    bool partial = false;  // the search was cancelled: the baselines cover the points it reached

    // joint throughput / the given baseline's; 0 when either is unavailable.
    double factorOver(const BaselineOutcome& baseline) const;
};

inline constexpr int kBaselineCount = 8;  // the outcomes baselineKey() names
// The outcome baselineKey(which) names: 0 referenceFixed … 3 joint, 4 placementOnly … 7 sameHbm.
const BaselineOutcome& baselineOutcome(const SearchBaselines& b, int which);

// The one-chip space of the reference chip: `space` with every searched accelerator list
// reduced to the base accelerator's value, the lanes rule set to Free with the base's lanes and
// the area window opened to contain the chip. Per-chip options (HBM, microbatch, recompute,
// widths) are kept.
SearchSpace referenceSpace(const SearchSpace& space);

// Derives the four baselines from the search results and the results of the reference space.
// `space` is the searched space (to tell whether the reference chip is one of its chips).
SearchBaselines computeBaselines(const SearchSpace& space, const SearchResults& searched,
                                 const SearchResults& reference);

// 0…7 → "reference_fixed", "reference_placed", "searched_fixed", "joint", "placement_only",
// "chip_only", "chip_and_placement", "same_hbm".
std::string_view baselineKey(int which);

}  // namespace tandem::core::search
