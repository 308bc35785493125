#include "core/placement/strategy_choice.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

#include "core/placement/cost_model.h"
#include "core/placement/fixed_strategy.h"
#include "core/placement/plan_builder.h"
#include "core/placement/strategy_evaluation.h"
#include "core/placement/width_graph.h"

namespace tandem::core::placement {

using hardware::kInterleaveChosen;
using hardware::kZeroChosen;

bool choosesInterleaveOrZero(const hardware::TrainingConfig& training) {
    return training.interleave == kInterleaveChosen || training.zero == kZeroChosen;
}

bool leavesChoicesToPlacement(const hardware::TrainingConfig& training) {
    return choosesInterleaveOrZero(training) ||
           training.sequenceParallel == hardware::SequenceParallel::Auto;
}

bool solverCanPrice(const hardware::TrainingConfig& training) {
    return (training.interleave == 1 || training.interleave == kInterleaveChosen) &&
           (training.zero == 0 || training.zero == kZeroChosen) && !training.overlapParamGather;
}

hardware::TrainingConfig givenOrPlain(const hardware::TrainingConfig& training) {
    hardware::TrainingConfig out = training;
    if (out.interleave == kInterleaveChosen) out.interleave = 1;
    if (out.zero == kZeroChosen) out.zero = 0;
    return out;
}

std::string noStrategyFitsReason() {
    return "no Megatron-style strategy (P stages of equal layer counts, T-way tensor "
           "parallelism, D replicas) with the interleaving and ZeRO stage asked for fits in "
           "HBM; allow more devices, recomputation, a larger ZeRO stage or a smaller microbatch";
}

namespace {

std::vector<std::int64_t> divisorsOf(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t k = 1; k * k <= n; ++k)
        if (n % k == 0) {
            out.push_back(k);
            if (k != n / k) out.push_back(n / k);
        }
    std::sort(out.begin(), out.end());
    return out;
}

// The ZeRO stages to try: the given one, or (left to the placement) every stage the cost model
// prices that the training's other settings allow (a parameter gather needs a sharded optimizer).
std::vector<std::int64_t> zeroStages(const StrategyChoiceInput& input) {
    if (input.zero != kZeroChosen) return {input.zero};
    if (input.costModel == CostModelKind::PhazeCompat) return {0};
    if (input.problem->training.overlapParamGather) return {1, 2, 3};
    return {0, 1, 2, 3};
}

// The interleavings to try: the given V, or every divisor of the layer count (V must divide the
// layers of each of the P stages; checked per P).
std::vector<std::int64_t> interleavings(const StrategyChoiceInput& input, std::int64_t L) {
    if (input.interleave != kInterleaveChosen) return {input.interleave};
    if (input.costModel == CostModelKind::PhazeCompat) return {1};
    return divisorsOf(L);
}

// The replica counts to try for P·T devices per pipeline: the given D, or every D that divides
// the batch's microbatches evenly (`divisors`; no replica idles in the last round) and the most
// that fit the cluster.
std::vector<std::int64_t> replicaCounts(const std::optional<StrategySpec>& fixed,
                                        std::int64_t maxReplicas, std::int64_t microbatches,
                                        const std::vector<std::int64_t>& divisors) {
    if (fixed) return {fixed->data};
    std::vector<std::int64_t> out;
    for (std::int64_t D : divisors)
        if (D <= maxReplicas) out.push_back(D);
    const std::int64_t most = std::min(maxReplicas, microbatches);
    if (most >= 1 && (out.empty() || out.back() != most)) out.push_back(most);
    return out;
}

// The layer work every stage of P equal stages on `graph` does at least, whatever ZeRO stage and
// interleaving: forward and backward, and the rerun forward pass where the recomputation asked
// for leaves no stage a choice (on: every stage, or PHAZE's every stage but the last, which
// reruns all of its forward pass; selective: the attention cores). Every cost model adds
// transfers, collectives and memory-driven reruns to exactly these sums. Work sums over
// positions are kept as prefixes for every P of one width; parameter bytes are summed per stage
// in position order, as the stage costs sum them.
struct StageFloor {
    double work = 0;            // of the stage with the most
    double totalWork = 0;       // of all stages
    double parameterBytes = 0;  // that size the synchronisation (syncRule)
    // Per stage, its members' parameter bytes summed in position order (as the stage costs sum
    // them, so bit for bit) and the most one member holds; with the largest of each over the
    // stages, which bound every stage's state from above.
    std::vector<std::pair<double, double>> stageParameters;
    double mostParameters = 0, mostInOneLayer = 0;
};

// True when some stage of the floor cannot hold one microbatch under `model` (its state alone
// exceeds HBM): the strategy does not fit, whatever it recomputes. The state grows with both
// sums, so the stages are checked one by one only when the largest of both could exceed.
bool someStageTooLarge(const StageFloor& floor, const CostModel& model) {
    if (!model.stateExceedsCapacity(floor.mostParameters, floor.mostInOneLayer)) return false;
    for (const auto& [parameters, largest] : floor.stageParameters)
        if (model.stateExceedsCapacity(parameters, largest)) return true;
    return false;
}

class FloorSums {
public:
    FloorSums(const WidthGraph& graph, const CostModel& model) {
        using hardware::Recompute;
        const Recompute mode = model.problem().training.recompute;
        const bool phaze = model.kind() == CostModelKind::PhazeCompat;
        const auto n = std::size_t(graph.size());
        work_.assign(n + 1, 0.0);
        rerun_.assign(n + 1, 0.0);
        parameters_.reserve(n);
        for (int p = 0; p < graph.size(); ++p) {
            double work = graph.forward(p) + graph.backward(p);
            if (mode == Recompute::Selective) work += graph.selectiveForward(p);
            const double rerun = mode != Recompute::On ? 0.0
                                 : phaze               ? graph.forward(p)
                                                       : graph.recomputeForward(p);
            const auto i = std::size_t(p);
            work_[i + 1] = work_[i] + work;
            rerun_[i + 1] = rerun_[i] + rerun;
            parameters_.push_back(graph.parameters(p));
        }
        if (model.holdsTiedWeightsOnce()) tied_ = graph.tiedParameters();
        lastReruns_ = model.lastStageRecomputes();
        largestStage_ = model.syncRule() == SyncRule::LargestStage;
    }

    StageFloor floor(std::int64_t P, std::int64_t L, CostModelKind kind) const {
        const int n = int(work_.size()) - 1;
        StageFloor out;
        const std::vector<int> starts = fixedStrategyStageStarts(n, P, L, kind);
        for (std::int64_t stage = 0; stage < P; ++stage) {
            const auto a = std::size_t(starts[std::size_t(stage)]);
            const auto b = std::size_t(starts[std::size_t(stage) + 1]);
            const bool exempt = stage == P - 1 && !lastReruns_;
            const double work = (work_[b] - work_[a]) + (exempt ? 0.0 : rerun_[b] - rerun_[a]);
            double parameters = 0.0, largest = 0.0;
            for (std::size_t p = a; p < b; ++p) {
                parameters += parameters_[p];
                largest = std::max(largest, parameters_[p]);
            }
            if (a == 0 && b == std::size_t(n)) parameters -= tied_;
            out.stageParameters.emplace_back(parameters, largest);
            out.mostParameters = std::max(out.mostParameters, parameters);
            out.mostInOneLayer = std::max(out.mostInOneLayer, largest);
            out.work = std::max(out.work, work);
            out.totalWork += work;
            if (largestStage_)
                out.parameterBytes = std::max(out.parameterBytes, parameters);
            else if (stage == 0)
                out.parameterBytes = parameters;
        }
        return out;
    }

private:
    std::vector<double> work_, rerun_;
    std::vector<double> parameters_;  // each position's
    double tied_ = 0;                 // subtracted from a stage of every position
    bool lastReruns_ = true;
    bool largestStage_ = true;
};

// A candidate strategy: its place in the canonical order (T, V, ZeRO stage, P, D), which breaks
// ties, and a lower bound on its time per batch.
struct Candidate {
    std::int64_t T = 1, P = 1, D = 1, V = 1, Z = 0, L = 1;
    std::size_t graph = 0;  // its width's WidthGraph among candidates()' graphs
    std::int64_t index = 0;
    double bound = 0;
};

// Every candidate that can be formed, with its bound: the pipeline time of the floor's loads, plus
// the synchronisation after the last backward pass as the cost model prices it when nothing
// hides it (with an overlap asked for, the optimizer step alone). The margin keeps the bound
// below the price where the two sum in another order. Kept are only those that might win:
// `skipped` counts the rest, whose bound is not below mustBeatSeconds (no tie beats it) or one
// of whose stages cannot hold its weights and optimizer state (someStageTooLarge).
struct Candidates {
    std::vector<Candidate> kept;
    std::int64_t skipped = 0;
};

// The cost models of the candidates, by (ZeRO stage, D), built on the choice's own problem.
using Models = std::map<std::pair<std::int64_t, std::int64_t>, std::unique_ptr<CostModel>>;

Candidates candidates(const StrategyChoiceInput& input, PlacementProblem& problem,
                      std::vector<WidthGraph>& graphs, Models& models) {
    const std::int64_t devices = problem.cluster.devices;
    const std::int64_t microbatches = problem.microbatchesPerBatch();
    const std::optional<StrategySpec>& fixed = input.fixed;
    const bool chosenZero = input.zero == kZeroChosen;
    const bool overlap = problem.training.overlapGradReduce || problem.training.overlapParamGather;
    const std::vector<int> order = WidthGraph::topologicalOrder(problem.widths.front());
    const std::vector<std::int64_t> divisors = divisorsOf(microbatches);
    constexpr double kMargin = 1.0 - 1e-9;  // prefix differences round differently
    Candidates out;
    std::int64_t formed = 0;  // the canonical index of the next candidate
    for (const LayerCostSet& set : problem.widths) {
        const std::int64_t T = set.tensorParallel;
        if ((fixed && T != fixed->tensor) || T > devices) continue;
        graphs.emplace_back(set, order);
        const WidthGraph& graph = graphs.back();
        const std::int64_t L =
            input.transformerLayers > 0 ? input.transformerLayers : std::int64_t(graph.size());
        const std::vector<std::int64_t> pipelines = divisorsOf(L);
        const auto plain = makeCostModel(input.costModel, problem, 1);
        const FloorSums sums(graph, *plain);
        std::vector<StageFloor> floors;
        for (const std::int64_t P : pipelines) floors.push_back(sums.floor(P, L, input.costModel));
        // What does not depend on V, per ZeRO stage, P and D: formed once, read for every V.
        struct Replicas {
            std::int64_t D = 1, perPipeline = 1;
            double sync = 0;
            bool tooLarge = false;
        };
        const std::vector<std::int64_t> zeros = zeroStages(input);
        std::vector<std::vector<std::vector<Replicas>>> replicas(zeros.size());
        for (std::size_t z = 0; z < zeros.size(); ++z) {
            const std::int64_t Z = zeros[z];
            replicas[z].resize(pipelines.size());
            for (std::size_t i = 0; i < pipelines.size(); ++i) {
                const std::int64_t P = pipelines[i];
                if ((fixed && P != fixed->pipeline) || P * T > devices) continue;
                for (const std::int64_t D :
                     replicaCounts(fixed, devices / (P * T), microbatches, divisors)) {
                    if (D > microbatches || (chosenZero && Z > 0 && D < 2)) continue;
                    auto& model = models[{Z, D}];
                    if (!model) {
                        problem.training.zero = Z;
                        model = makeCostModel(input.costModel, problem, D);
                    }
                    const double bytes = floors[i].parameterBytes;
                    const double sync =
                        overlap ? model->stepSeconds(bytes) : model->syncSeconds(D, T, bytes, {});
                    replicas[z][i].push_back({D, (microbatches + D - 1) / D, sync,
                                              someStageTooLarge(floors[i], *model)});
                }
            }
        }
        for (const std::int64_t V : interleavings(input, L))
            for (std::size_t z = 0; z < zeros.size(); ++z)
                for (std::size_t i = 0; i < pipelines.size(); ++i) {
                    const std::int64_t P = pipelines[i];
                    for (const Replicas& r : replicas[z][i]) {
                        if (!canInterleave(P, V, L, r.perPipeline)) continue;
                        const double bound =
                            CostModel::pipelineSeconds(input.costModel, floors[i].work * kMargin,
                                                       floors[i].totalWork * kMargin, r.perPipeline,
                                                       P, V) +
                            r.sync * kMargin;
                        const std::int64_t index = formed++;
                        if (!(bound < input.mustBeatSeconds) || r.tooLarge) {
                            ++out.skipped;
                            continue;
                        }
                        out.kept.push_back(
                            {T, P, r.D, V, zeros[z], L, graphs.size() - 1, index, bound});
                    }
                }
    }
    return out;
}

}  // namespace

Expected<StrategyChoice> chooseStrategy(const StrategyChoiceInput& input, RunControl* control) {
    if (!input.problem) return Error{"strategy choice without a problem"};
    if (!input.problemValidated)
        if (Status status = input.problem->validate(); !status) return Error{status.message()};
    PlacementProblem problem = *input.problem;  // V and the ZeRO stage set per candidate
    std::vector<WidthGraph> graphs;
    graphs.reserve(problem.widths.size());
    Models models;
    Candidates formed = candidates(input, problem, graphs, models);
    // Each (width, P)'s stages, as evaluateFixedStrategyOn forms them.
    std::map<std::pair<std::size_t, std::int64_t>, std::vector<std::vector<int>>> stagesOf;
    // Each (width, P, ZeRO stage, D)'s first stage as the cost model prices it: V does not
    // change it (only the microbatches the stage holds).
    std::map<std::tuple<std::size_t, std::int64_t, std::int64_t, std::int64_t>, StageCost>
        firstStages;
    std::vector<Candidate>& all = formed.kept;
    // The most promising first, so that the best is found early and bounds the rest.
    std::sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) {
        return a.bound < b.bound || (a.bound == b.bound && a.index < b.index);
    });
    StrategyChoice best;
    best.strategiesBounded = formed.skipped;
    // What a candidate must beat: strictly faster, or as fast and earlier in the canonical order
    // (the time to beat starts as mustBeatSeconds, which no tie beats).
    double beatSeconds = input.mustBeatSeconds;
    std::int64_t beatIndex = -1;
    const Candidate* winner = nullptr;
    for (std::size_t k = 0; k < all.size(); ++k) {
        const Candidate& c = all[k];
        if (c.bound > beatSeconds) {
            best.strategiesBounded += std::int64_t(all.size() - k);
            break;
        }
        if (c.bound == beatSeconds && c.index > beatIndex) {
            ++best.strategiesBounded;
            continue;
        }
        if (control && control->cancelled()) return Error{"placement cancelled"};
        problem.training.interleave = c.V;
        problem.training.zero = c.Z;
        // Most candidates that lose do not fit, and the first stage, which holds the most
        // microbatches, is the one that tells: decided here as the pricing would decide it.
        const WidthGraph& graph = graphs[c.graph];
        const CostModel& model = *models.at({c.Z, c.D});
        auto [first, priced] = firstStages.try_emplace({c.graph, c.P, c.Z, c.D});
        if (priced) {
            auto [at, added] = stagesOf.try_emplace({c.graph, c.P});
            if (added) at->second = fixedStrategyStages(graph.size(), c.P, c.L, input.costModel);
            first->second = model.evaluateStage(graph, at->second.front());
        }
        if (!PlanBuilder::stageFits(model, first->second, c.P, c.P, c.D)) {
            ++best.strategiesPriced;
            continue;
        }
        auto result =
            evaluateFixedStrategyOn(problem, graphs[c.graph], FixedStrategy{c.P, c.T, c.D, c.L, {}},
                                    input.costModel, PlanDetail::TimeOnly);
        if (!result) return result.error();
        ++best.strategiesPriced;
        if (!result->fits || !result->plan) continue;
        const double seconds = result->plan->timePerBatchSeconds;
        if (!(seconds < beatSeconds || (seconds == beatSeconds && c.index < beatIndex))) continue;
        winner = &c;
        beatSeconds = seconds;
        beatIndex = c.index;
    }
    if (winner) {
        // The winner in full: the same time per batch, with the breakdown and device map.
        problem.training.interleave = winner->V;
        problem.training.zero = winner->Z;
        auto result = evaluateFixedStrategyOn(
            problem, graphs[winner->graph],
            FixedStrategy{winner->P, winner->T, winner->D, winner->L, {}}, input.costModel);
        if (!result) return result.error();
        if (!result->fits || !result->plan)
            return Error{"strategy choice: the chosen strategy no longer fits"};
        best.found = true;
        best.strategy = StrategySpec{winner->P, winner->T, winner->D};
        best.interleave = winner->V;
        best.zero = winner->Z;
        best.plan = std::move(*result->plan);
    }
    return best;
}

Expected<StrategyChoice> chooseAgainst(const PlacementProblem& problem, CostModelKind costModel,
                                       const hardware::TrainingConfig& training,
                                       std::int64_t transformerLayers,
                                       const std::optional<StrategySpec>& fixed,
                                       const std::optional<Plan>& current, RunControl* control,
                                       double alsoMustBeatSeconds, bool problemValidated) {
    StrategyChoiceInput input;
    input.problem = &problem;
    input.costModel = costModel;
    input.interleave = training.interleave;
    input.zero = training.zero;
    input.transformerLayers = transformerLayers;
    input.fixed = fixed;
    input.mustBeatSeconds = alsoMustBeatSeconds;
    input.problemValidated = problemValidated;
    if (current)
        input.mustBeatSeconds = std::min(input.mustBeatSeconds, current->timePerBatchSeconds);
    return chooseStrategy(input, control);
}

}  // namespace tandem::core::placement
