// ModelEvaluator's placement phase (model_evaluator.h): one point's schedules placed at its HBM
// and recompute by the partition solver, the model's fixed strategy priced beside it, and V, the
// ZeRO stage (and the time to beat) handed to the strategy choice as placeModel() does.
#include "core/placement/placement_solver.h"
#include "core/placement/strategy_choice.h"
#include "core/search/model_evaluator.h"

namespace tandem::core::search {
namespace {

// The stored plans leave out the per-device map (see the header).
std::shared_ptr<const placement::Plan> compactPlan(placement::Plan plan) {
    plan.devices.clear();
    plan.devices.shrink_to_fit();
    return std::make_shared<const placement::Plan>(std::move(plan));
}

}  // namespace

void ModelEvaluator::fillPlacement(EvaluatedPoint& out, const ChipSchedules& chip,
                                   const SearchPoint& point, RunControl* control, bool keepPlans,
                                   double mustBeatSeconds) const {
    auto stamp = [&](const placement::PlacementProblem& base) {
        placement::PlacementProblem p = base;
        p.hbmCapacityBytes = double(point.hbmCapacityBytes());
        p.training.recompute = point.recompute;
        return p;
    };
    const placement::PlacementProblem problem = stamp(chip.problem);
    placement::SolverOptions solverOptions;
    solverOptions.costModel = options_.costModel;
    solverOptions.candidateCache = chip.stageCandidates.get();
    // Only a plan strictly faster than mustBeatSeconds can replace the caller's: the solver need
    // not find the others (a slower solver plan would only raise the strategies' bar below).
    solverOptions.mustBeatSeconds = mustBeatSeconds;
    RunControl inner(RunControl::SilentChildOf{control});
    placement::PlacementResult solved;
    if (placement::solverCanPrice(training_)) {
        auto result = placement::PlacementSolver(solverOptions).solve(problem, &inner);
        if (!result) {
            out.status = inner.cancelled() ? PointStatus::Cancelled : PointStatus::Error;
            out.message = result.message();
            return;
        }
        solved = std::move(result).value();
    }
    std::optional<placement::Plan> fixedPlan;
    if (hasBaseline_ && chip.baselineError.empty()) {
        std::optional<placement::PlacementProblem> own;
        if (chip.baselineProblem) own = stamp(*chip.baselineProblem);
        auto fixed = placement::evaluateFixedStrategy(own ? *own : problem, baselineStrategy_,
                                                      options_.costModel);
        if (fixed && fixed->fits && fixed->plan) {
            out.baselineThroughputSamplesPerSecond = fixed->plan->throughputSamplesPerSecond;
            fixedPlan = std::move(fixed->plan);
        }
    }
    // What the training leaves to the placement (V, the ZeRO stage) or the solver cannot price
    // (a given V > 1 or ZeRO stage): chosen among strategies of equal stages, as placeModel()
    // chooses them, replacing the solver's plan when strictly faster.
    std::optional<placement::Plan> best = std::move(solved.plan);
    if (placement::choosesInterleaveOrZero(training_) || !placement::solverCanPrice(training_)) {
        // The solver, when it ran, validated `problem`.
        auto chosen = placement::chooseAgainst(
            problem, options_.costModel, training_, model_->transformerLayers(), std::nullopt, best,
            &inner, mustBeatSeconds, placement::solverCanPrice(training_));
        if (!chosen) {
            out.status = inner.cancelled() ? PointStatus::Cancelled : PointStatus::Error;
            out.message = chosen.message();
            return;
        }
        if (chosen->found) {
            best = std::move(chosen->plan);
            solved.infeasibleReason.clear();
        } else if (!best && solved.infeasibleReason.empty()) {
            solved.infeasibleReason = placement::noStrategyFitsReason();
        }
    }
    // The fixed strategy is one more candidate placement: when the solver cannot express it (its
    // width is not a search width) and it is faster, the point keeps it.
    if (fixedPlan &&
        (!best || fixedPlan->throughputSamplesPerSecond > best->throughputSamplesPerSecond))
        best = *fixedPlan;
    if (!best) {
        out.status = PointStatus::Infeasible;
        out.message = solved.infeasibleReason;
    } else {
        out.status = PointStatus::Feasible;
        out.throughputSamplesPerSecond = best->throughputSamplesPerSecond;
        out.objective = objectiveValue(options_.objective, *best);
        out.planShape = {best->tensorParallel,
                         best->dataParallel,
                         int(best->stages.size()),
                         best->timePerBatchSeconds,
                         best->interleave,
                         best->zero,
                         best->sequenceParallel,
                         best->devicesUsed,
                         best->energy.known ? best->energy.totalJoules() : 0.0,
                         best->energy.known ? best->energy.averagePowerWatts : 0.0};
        if (keepPlans) out.plan = compactPlan(std::move(*best));
    }
    if (keepPlans && fixedPlan) out.baselinePlan = compactPlan(std::move(*fixedPlan));
}

}  // namespace tandem::core::search
