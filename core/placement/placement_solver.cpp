#include "core/placement/placement_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <sstream>

#include "core/common/units.h"
#include "core/placement/cost_model.h"
#include "core/placement/downset_lattice.h"
#include "core/placement/native_selector.h"
#include "core/placement/phaze_selector.h"
#include "core/placement/plan_builder.h"
#include "core/placement/stage_candidate_cache.h"
#include "core/placement/stage_candidates.h"
#include "core/placement/width_graph.h"

namespace tandem::core::placement {
namespace {

// Why nothing fits: a layer too big for one device at every width, or else the pipeline depth.
std::string diagnose(const PlacementProblem& problem, const CostModel& model,
                     const std::vector<int>& order) {
    std::string tooBig;
    for (const LayerCostSet& set : problem.widths) {
        const WidthGraph graph(set, order);
        std::string here;
        for (int p = 0; p < graph.size() && here.empty(); ++p) {
            const int single[] = {p};
            const StageCost cost = model.evaluateStage(graph, single);
            if (cost.maxInFlight == 0 && cost.maxInFlightRecompute == 0 &&
                cost.maxInFlightSelective == 0) {
                std::ostringstream out;
                out << "layer '" << set.layers[std::size_t(graph.layerAt(p))].name
                    << "' alone needs "
                    << core::formatBytes(model.memory(cost, 1, StageRecompute::None).totalBytes)
                    << " at tensor-parallel width " << set.tensorParallel;
                here = out.str();
            }
        }
        if (here.empty())
            return "no partition of the layers fits in HBM (" +
                   core::formatBytes(problem.hbmCapacityBytes) + " per device) within " +
                   std::to_string(problem.cluster.devices) +
                   " devices: earlier stages hold more microbatches in flight; "
                   "try recompute, more devices or more HBM";
        tooBig = here;
    }
    return tooBig + ", more than the HBM capacity of " +
           core::formatBytes(problem.hbmCapacityBytes);
}

}  // namespace

Expected<PlacementResult> PlacementSolver::solve(const PlacementProblem& problem,
                                                 RunControl* control) const {
    const auto started = std::chrono::steady_clock::now();
    if (Status status = problem.validate(); !status) return Error{status.message()};
    if (Status status = supportsTraining(options_.costModel, problem.training); !status)
        return Error{status.message()};
    if (problem.training.interleave > 1)
        return Error{"interleaved 1F1B (" + std::to_string(problem.training.interleave) +
                     " chunks per device) is evaluated for a fixed strategy only: fix one "
                     "(tandem-cli place --strategy P,T,D, or the training fields "
                     "strategyPipeline, strategyTensor and strategyData), or set interleave to "
                     "1 for a search"};
    if (problem.training.zero > 0)
        return Error{"ZeRO stage " + std::to_string(problem.training.zero) +
                     " is evaluated for a fixed strategy only: fix one (tandem-cli place "
                     "--strategy P,T,D, or the training fields strategyPipeline, strategyTensor "
                     "and strategyData), or set zero to 0 for a search"};
    const std::unique_ptr<CostModel> model = makeCostModel(options_.costModel, problem);
    const std::vector<int> order = WidthGraph::topologicalOrder(problem.widths.front());

    std::vector<std::size_t> widths(problem.widths.size());
    std::iota(widths.begin(), widths.end(), std::size_t(0));
    std::sort(widths.begin(), widths.end(), [&](std::size_t a, std::size_t b) {
        return problem.widths[a].tensorParallel < problem.widths[b].tensorParallel;
    });

    PlacementResult result;
    std::optional<DownsetLattice> lattice;
    std::optional<WidthGraph> bestGraph;
    std::vector<std::vector<int>> bestStages;
    double bestValue = std::numeric_limits<double>::infinity();
    std::int64_t bestD = 0;

    for (std::size_t w = 0; w < widths.size(); ++w) {
        const LayerCostSet& set = problem.widths[widths[w]];
        if (control) {
            if (control->cancelled()) return Error{"placement cancelled"};
            control->report(
                double(w), double(widths.size()),
                "placing at tensor-parallel width " + std::to_string(set.tensorParallel));
        }
        WidthGraph graph(set, order);
        const int maxOneDevice = set.tensorParallel > 1 ? graph.nonTensorParallelLayers() : 0;
        // Native: a width must beat the widths before it and the caller's time to beat.
        const double mustBeat = std::min(bestValue, options_.mustBeatSeconds);
        if (options_.pruneByBound && options_.costModel == CostModelKind::Native &&
            mustBeat < std::numeric_limits<double>::infinity()) {
            double work = 0;
            for (int p = 0; p < graph.size(); ++p) work += graph.forward(p) + graph.backward(p);
            const double bound = timePerBatchLowerBound(
                work, problem.cluster.devices, problem.microbatchesPerBatch(), set.tensorParallel,
                maxOneDevice, graph.size());
            // The margin covers the different summation orders of the bound and the loads.
            if (bound * (1.0 - 1e-9) > mustBeat) {
                ++result.statistics.widthsPruned;
                continue;
            }
        }
        const bool chain = graph.chainLike() && !options_.forceDownsets;
        result.statistics.chainFastPath = chain;
        std::shared_ptr<const StageCandidates> candidates;
        const StageCandidateCache::Key key{options_.costModel, set.tensorParallel,
                                           problem.hbmCapacityBytes};
        if (chain && options_.candidateCache) {
            candidates = options_.candidateCache->find(key);
            if (candidates) ++result.statistics.candidateReuses;
        }
        if (!candidates) {
            Expected<StageCandidates> priced = Error{};
            if (chain) {
                priced =
                    StageCandidates::forChain(graph, *model, options_.maxStageCandidates, control);
            } else {
                if (!lattice) {
                    auto enumerated =
                        DownsetLattice::enumerate(graph, options_.maxDownsets, control);
                    if (!enumerated) return enumerated.error();
                    lattice.emplace(std::move(*enumerated));
                }
                priced = StageCandidates::forDag(graph, *model, *lattice,
                                                 options_.maxStageCandidates, control);
            }
            if (!priced) return priced.error();
            candidates = std::make_shared<const StageCandidates>(std::move(priced).value());
            if (chain && options_.candidateCache)
                candidates = options_.candidateCache->insert(key, std::move(candidates));
        }
        result.statistics.downsets = candidates->nodeCount();
        result.statistics.stageCandidates += candidates->transitionCount();

        SelectionInput input{*candidates, *model};
        input.tensorParallel = set.tensorParallel;
        input.devices = problem.cluster.devices;
        input.microbatches = problem.microbatchesPerBatch();
        input.maxStages = graph.size();
        input.maxOneDevice = maxOneDevice;
        input.maxStages = input.maxStagesWithin(problem.cluster.devices);
        input.recompute = problem.training.recompute;
        input.maxDpStates = options_.maxDpStates;
        input.control = control;
        if (options_.pruneByBound && options_.costModel == CostModelKind::Native)
            input.mustBeatSeconds = mustBeat;
        if (input.maxStages == 0) continue;  // t > D and every stage needs t devices

        auto choice = options_.costModel == CostModelKind::PhazeCompat
                          ? PhazeSelector::select(input)
                          : NativeSelector::select(input);
        if (!choice) return choice.error();
        result.statistics.dpStates += choice->dpStates;
        result.statistics.dpTables += choice->dpTables;
        if (choice->found && choice->timePerBatch < mustBeat) {
            bestValue = choice->timePerBatch;
            bestD = choice->dataParallel;
            bestStages.clear();
            for (int tr : choice->stages) bestStages.push_back(candidates->members(tr));
            bestGraph.emplace(graph);
        }
    }
    if (control) control->report(double(widths.size()), double(widths.size()), "placement done");

    if (bestGraph) {
        BuiltPlan built = PlanBuilder::build(*model, *bestGraph, bestD, bestStages);
        if (!built.fits)
            return Error{"internal error: the chosen placement does not re-evaluate as feasible (" +
                         built.reason + ")"};
        result.plan = std::move(built.plan);
    } else if (options_.costModel == CostModelKind::Native &&
               std::isfinite(options_.mustBeatSeconds)) {
        result.infeasibleReason = "no placement that fits is faster than the time to beat (" +
                                  core::formatSeconds(options_.mustBeatSeconds) + ")";
    } else {
        result.infeasibleReason = diagnose(problem, *model, order);
    }
    result.statistics.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

}  // namespace tandem::core::placement
