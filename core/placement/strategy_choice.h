#pragma once
// The placement choices the partition solver cannot make (ARCHITECTURE.md §2.5): the interleaving
// V and the ZeRO stage. The solver prices plain 1F1B without ZeRO over every partition into
// contiguous stages; interleaving needs stages of equal layer counts and ZeRO's memory depends on
// the replicas d, so both are chosen among Megatron-style strategies instead: P stages of equal
// layer counts (P dividing the layers), T-way tensor parallelism on each built width, D replicas,
// every V dividing the layers per stage (Megatron-LM's interleaved schedule also needs the
// microbatches per pipeline to be a multiple of P) and every ZeRO stage, each priced exactly as
// `place --strategy P,T,D --interleave V --zero Z` prices it. The fastest that fits wins; among
// equals the one found first (smaller T, then V, ZeRO stage, P and D). D ranges over the replica
// counts that divide the batch's microbatches (no replica idles in the last round) and the most
// that fit the cluster.
//
// A training field left to the placement (`interleave = kInterleaveChosen`, `zero =
// kZeroChosen`) ranges over every value; a value that is given stays as given. Recomputation
// keeps its own setting (auto: per stage, the fastest that fits). phaze-compat has neither
// interleaving nor ZeRO: its choice is always V = 1, ZeRO 0.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/placement/model_placement.h"
#include "core/placement/strategy_spec.h"

namespace tandem::core::placement {

// Whether the training leaves V or the ZeRO stage to the placement.
bool choosesInterleaveOrZero(const hardware::TrainingConfig& training);
// Whether it leaves anything to placeModel(): V, the ZeRO stage or sequence parallelism.
bool leavesChoicesToPlacement(const hardware::TrainingConfig& training);
// Whether the partition solver can price the training as it stands: plain 1F1B (V = 1 or left
// to the placement) without ZeRO (0 or left to the placement), and no parameter gather (which
// needs ZeRO).
bool solverCanPrice(const hardware::TrainingConfig& training);

// The training with V and the ZeRO stage that are left to the placement set to plain 1F1B and
// ZeRO 0 (what the partition solver prices); given values stay.
hardware::TrainingConfig givenOrPlain(const hardware::TrainingConfig& training);

// Why nothing fits when only strategies of equal stages can price the training (or none of
// them fits either).
std::string noStrategyFitsReason();

struct StrategyChoice {
    bool found = false;  // a strategy fits and beats mustBeatSeconds; the fields below describe it
    StrategySpec strategy;
    std::int64_t interleave = 1;
    std::int64_t zero = 0;
    Plan plan;
    std::int64_t strategiesPriced = 0;  // candidates that were formed and priced
    // Candidates a lower bound showed could not win: on the time, or on the memory (a stage's
    // weights and optimizer state alone exceed HBM).
    std::int64_t strategiesBounded = 0;
};

// What the choice ranges over.
struct StrategyChoiceInput {
    // The assembled problem: every width T is chosen from (only `fixed`'s T when a strategy is
    // fixed), its training with V = 1 and ZeRO 0 where they are left to the placement.
    const PlacementProblem* problem = nullptr;
    CostModelKind costModel = CostModelKind::Native;
    std::int64_t interleave = hardware::kInterleaveChosen;  // a given V, or left to the placement
    std::int64_t zero = hardware::kZeroChosen;              // a given stage, or left to it
    std::int64_t transformerLayers = 0;                     // L; 0: every layer of the graph
    std::optional<StrategySpec> fixed;
    // Only strategies strictly faster than this are of interest (the partition solver's plan):
    // a candidate whose lower bound (below) is not is skipped unpriced.
    double mustBeatSeconds = std::numeric_limits<double>::infinity();
    // The caller has validated *problem as it is (PlacementSolver::solve did, on the same
    // problem): not validated again. A search asks this at every point.
    bool problemValidated = false;
};

// The fastest Megatron-style strategy of the input (found = false when none fits or none is
// faster than mustBeatSeconds). Candidates are priced in the order T, V, ZeRO stage, P, D and the
// first of equals is kept. Before pricing one, its lower bound — the stages' layer work without
// recomputation, transfers or collectives, max over stages × (m + (P − 1)/V), no
// synchronisation — is compared with the best time so far; a candidate that cannot beat it is
// skipped, and so is one with a stage whose weights, gradients and optimizer state alone exceed
// HBM (CostModel::stateExceedsCapacity: it fits under no recomputation), so the result equals
// pricing every candidate. Errors: no problem, an invalid problem, cancellation (polled between
// strategies).
Expected<StrategyChoice> chooseStrategy(const StrategyChoiceInput& input,
                                        RunControl* control = nullptr);

// The choice for `training`'s V and ZeRO stage (given or left to the placement) on `problem`
// (assembled with givenOrPlain(training)), against the partition solver's plan `current` when
// there is one: what placeModel() and the design-space search's evaluator both ask.
// `alsoMustBeatSeconds`: a time found elsewhere that only a strictly faster strategy matters
// against (the search's plan without sequence parallelism, when it also tries it on).
// `problemValidated`: StrategyChoiceInput::problemValidated.
Expected<StrategyChoice> chooseAgainst(
    const PlacementProblem& problem, CostModelKind costModel,
    const hardware::TrainingConfig& training, std::int64_t transformerLayers,
    const std::optional<StrategySpec>& fixed, const std::optional<Plan>& current,
    RunControl* control = nullptr,
    double alsoMustBeatSeconds = std::numeric_limits<double>::infinity(),
    bool problemValidated = false);

}  // namespace tandem::core::placement
