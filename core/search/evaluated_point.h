#pragma once
// What an evaluator returns for one search point (ARCHITECTURE.md §2.9): the point, its
// outcome, the throughput and the objective explorers maximise, the placement plan and the
// baseline plan it was compared with, a summary of the layer schedules behind it and the time
// spent per phase. For a single model `objective` is the search objective's value of the point's
// plan (search_objective.h: the throughput by default); a multi-model evaluator sets it to the
// geometric mean of each model's objective over that model's reference-chip baseline, so that no
// model dominates by size. A plain value; plans are shared immutable
// snapshots, so copies are cheap and cross threads freely.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/placement/plan.h"
#include "core/search/search_point.h"

namespace tandem::core::search {

enum class PointStatus {
    Feasible,    // a plan fits: throughput and objective are > 0
    Infeasible,  // no plan fits in HBM (or the model cannot run on this chip): a valid answer, 0
    Error,       // the evaluation failed on its input; `message` says why; a valid answer, 0
    Cancelled,   // interrupted by RunControl: not an answer; explorers drop it
};

std::string_view toString(PointStatus status);  // "feasible", "infeasible", "error", "cancelled"

// Layer schedules (unique layer × direction × t) behind the point, by ScheduleStatus.
struct ScheduleSummary {
    int schedules = 0;
    int optimal = 0;
    int feasible = 0;  // stopped at the requested gap
    int timedOut = 0;
    int cancelled = 0;
    double maxGap = 0;  // largest relative gap over all of them (0 when all are optimal)
    bool operator==(const ScheduleSummary&) const = default;
};

// Wall time per phase, seconds (work done on cache hits is not counted again).
struct PhaseSeconds {
    double estimate = 0;
    double schedule = 0;
    double placement = 0;
    double total = 0;  // the whole evaluation, including what the phases leave out
    bool operator==(const PhaseSeconds&) const = default;
};

// The shape of the point's plan, kept even when the plan itself is not (see ModelEvaluator's
// keepPlans): enough for a result table, the design-space view and the point's objective.
// `interleave`, `zero` and `sequenceParallel` are what the plan runs (1, 0 and false when there is
// no plan, as for a plain plan); `devicesUsed`, `joulesPerIteration` and `averagePowerWatts` are
// the plan's (0 when there is no plan or its energy is not known).
struct PlanShape {
    std::int64_t tensorParallel = 0;  // 0 when there is no plan
    std::int64_t dataParallel = 0;
    int stages = 0;
    double timePerBatchSeconds = 0;
    std::int64_t interleave = 1;
    std::int64_t zero = 0;
    bool sequenceParallel = false;
    std::int64_t devicesUsed = 0;
    double joulesPerIteration = 0;
    double averagePowerWatts = 0;
    bool operator==(const PlanShape&) const = default;
};

struct EvaluatedPoint {
    SearchPoint point;  // explorers stamp the point they asked for
    PointStatus status = PointStatus::Infeasible;
    std::string message;  // why not feasible; empty when feasible
    double throughputSamplesPerSecond = 0;
    double objective = 0;  // what explorers maximise (see above); 0 unless feasible
    // The model's fixed strategy on this point (0 when it does not fit or the model names none).
    double baselineThroughputSamplesPerSecond = 0;
    PlanShape planShape;  // of the best plan; zeros unless feasible
    // Multi-model search: each model's throughput at this point (model order); empty otherwise.
    std::vector<double> modelThroughputsSamplesPerSecond;
    std::shared_ptr<const placement::Plan> plan;          // the best plan; null unless feasible
    std::shared_ptr<const placement::Plan> baselinePlan;  // the fixed strategy, when computed
    ScheduleSummary schedules;
    PhaseSeconds seconds;

    bool feasible() const { return status == PointStatus::Feasible; }
};

// Adds what evaluating `other` cost (its schedule summary and phase seconds) to `into`: for a
// point made of several evaluations (models of a multi-model search, sequence parallelism off
// and on).
void addEvaluationCosts(EvaluatedPoint& into, const EvaluatedPoint& other);

}  // namespace tandem::core::search
