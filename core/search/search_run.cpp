#include "core/search/search_run.h"

#include <chrono>
#include <set>
#include <string>

#include "core/common/system_memory.h"
#include "core/estimate/estimate_cache.h"
#include "core/search/exhaustive_explorer.h"
#include "core/search/model_evaluator.h"
#include "core/search/multi_model_evaluator.h"
#include "core/search/search_footprint.h"
#include "core/search/search_grid.h"
#include "core/search/shared_chip_chain.h"
#include "core/search/stored_point_check.h"
#include "core/search/thread_pool.h"

namespace tandem::core::search {
namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The reference chip's objective a multi-model search divides by: the fixed strategy's when it
// fits (the paper's baseline), else Tandem's placement's on the same chip.
double normaliserOf(const SearchBaselines& b, SearchObjective objective) {
    for (const BaselineOutcome* o : {&b.referenceFixed, &b.referencePlaced}) {
        if (!o->available) continue;
        if (objective == SearchObjective::Throughput) return o->throughputSamplesPerSecond;
        return o->plan ? objectiveValue(objective, *o->plan) : 0.0;
    }
    return 0;
}

}  // namespace

SearchRun::~SearchRun() = default;

int SearchRun::threads() const {
    return pool_->threadCount();
}

Expected<std::unique_ptr<SearchRun>> SearchRun::prepare(const SearchRequest& request,
                                                        std::optional<SearchGrid> given) {
    const auto start = Clock::now();
    if (request.models.empty()) return Error{"search: no model given"};
    // A model listed twice would count twice in a multi-model search's geometric mean, and its
    // results and baselines could not be told apart.
    for (std::size_t i = 0; i < request.models.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (request.models[i] && request.models[j] &&
                request.models[i]->name() == request.models[j]->name())
                return Error{"search: model '" + request.models[i]->name() +
                             "' is listed twice (models " + std::to_string(j + 1) + " and " +
                             std::to_string(i + 1) +
                             "); list each model once (two different files need different "
                             "model names)"};
    if (!makeExplorer(request.explorer))
        return Error{"search: explorer kind " + std::to_string(int(request.explorer)) +
                     " is unknown"};
    Expected<SearchGrid> grid =
        given ? Expected<SearchGrid>(std::move(*given)) : SearchGrid::create(request.space);
    if (!grid) return Error{grid.message()};
    auto refGrid = SearchGrid::create(referenceSpace(request.space));
    if (!refGrid) return Error{"reference chip: " + refGrid.message()};

    std::unique_ptr<SearchRun> run(new SearchRun);
    run->request_ = request;
    run->grid_ = std::make_unique<SearchGrid>(std::move(*grid));
    const auto estimates = std::make_shared<estimate::EstimateCache>();
    ModelEvaluatorOptions options;
    options.costModel = request.costModel;
    options.scheduleOptions = request.scheduleOptions;
    options.estimateCache = estimates;
    options.keepPlans = false;
    options.objective = request.objective;
    auto started = ThreadPool::create(request.threads);
    if (!started) return Error{"search: " + started.message()};
    run->pool_ = std::move(*started);
    ThreadPool& pool = *run->pool_;
    options.chipCacheEntries = std::size_t(std::max(16, 4 * pool.threadCount()));

    // Separate evaluators for the reference grid: its chip indices would collide with the
    // searched grid's in the per-chip schedule cache.
    std::vector<std::unique_ptr<ModelEvaluator>>& evaluators = run->evaluators_;
    std::vector<std::unique_ptr<ModelEvaluator>> refEvaluators;
    for (const model::ModelSourcePtr& model : request.models) {
        if (!model) return Error{"search: a model is missing"};
        for (auto* list : {&evaluators, &refEvaluators}) {
            auto e = ModelEvaluator::create(model, request.space, request.training, options);
            if (!e) return Error{model->name() + ": " + e.message()};
            list->push_back(std::move(*e));
        }
        run->timings_.graphs += evaluators.back()->statistics().graphSeconds +
                                refEvaluators.back()->statistics().graphSeconds;
    }

    // The reference chip, every option, with plans (a few dozen points).
    const std::unique_ptr<Explorer> exhaustive = makeExplorer(ExplorerKind::Exhaustive);
    const auto refStart = Clock::now();
    for (std::size_t m = 0; m < request.models.size(); ++m) {
        class WithPlans final : public PointEvaluator {
        public:
            explicit WithPlans(const ModelEvaluator& e) : e_(e) {}
            EvaluatedPoint evaluate(const SearchPoint& p, RunControl* c) const override {
                return e_.evaluate(p, c, true);
            }
            double upperBound(const SearchPoint& p) const override { return e_.upperBound(p); }

        private:
            const ModelEvaluator& e_;
        } withPlans(*refEvaluators[m]);
        run->refResults_.push_back(
            std::make_shared<const SearchResults>(exhaustive->explore(*refGrid, withPlans, pool)));
        ModelSearchReport report;
        report.name = request.models[m]->name();
        report.layerNames = evaluators[m]->layerNames();
        report.baselines =
            computeBaselines(request.space, SearchResults{}, *run->refResults_.back());
        report.normaliser = normaliserOf(report.baselines, request.objective);
        run->models_.push_back(std::move(report));
    }
    run->timings_.reference = secondsSince(refStart);

    if (request.models.size() > 1) {
        std::vector<const ModelEvaluator*> models;
        std::vector<double> normalisers;
        for (std::size_t m = 0; m < evaluators.size(); ++m) {
            models.push_back(evaluators[m].get());
            normalisers.push_back(run->models_[m].normaliser);
        }
        auto created = MultiModelEvaluator::create(std::move(models), std::move(normalisers));
        if (!created) return Error{created.message()};
        run->multi_ = std::move(*created);
    }
    run->prepareSeconds_ = secondsSince(start);
    return run;
}

SearchResults SearchRun::explore(RunControl* control, const PointCallback& onPoint,
                                 ChunkQueue* work, std::vector<EvaluatedPoint> done,
                                 ProgressMeter* progress) {
    const PointEvaluator& evaluator =
        multi_ ? static_cast<const PointEvaluator&>(*multi_) : *evaluators_.front();
    const auto searchStart = Clock::now();
    SearchResults results =
        work
            ? ExhaustiveExplorer().exploreQueue(*grid_, evaluator, *pool_, *work, std::move(done),
                                                control, onPoint, progress)
            : makeExplorer(request_.explorer)->explore(*grid_, evaluator, *pool_, control, onPoint);
    timings_.search = secondsSince(searchStart);
    return results;
}

std::vector<std::pair<std::size_t, std::string>> SearchRun::rederive(
    const SearchResults& results, const std::vector<std::size_t>& positions) {
    const PointEvaluator& evaluator =
        multi_ ? static_cast<const PointEvaluator&>(*multi_) : *evaluators_.front();
    std::vector<std::string> differences(positions.size());
    pool_->parallelFor(std::int64_t(positions.size()), [&](std::int64_t k) {
        const EvaluatedPoint& stored = results.points()[positions[std::size_t(k)]];
        differences[std::size_t(k)] =
            storedPointDifference(stored, evaluator.evaluate(stored.point, nullptr));
    });
    std::vector<std::pair<std::size_t, std::string>> found;
    for (std::size_t k = 0; k < positions.size(); ++k)
        if (!differences[k].empty()) found.emplace_back(positions[k], std::move(differences[k]));
    return found;
}

SearchOutcome SearchRun::report(std::shared_ptr<const SearchResults> results) {
    SearchOutcome outcome;
    outcome.objective = request_.objective;
    outcome.chips = grid_->chipCount();
    outcome.models = models_;
    outcome.timings = timings_;
    for (const EvaluatedPoint& p : results->points()) {
        outcome.timings.estimateCpu += p.seconds.estimate;
        outcome.timings.scheduleCpu += p.seconds.schedule;
        outcome.timings.placementCpu += p.seconds.placement;
    }

    // Full plans for the points a report shows, and the four baselines. Re-evaluation of a few
    // points is not cancelled: it takes milliseconds per point and keeps partial results whole.
    const auto reportStart = Clock::now();
    const SearchSpace& space = request_.space;
    std::set<std::size_t> shown(results->paretoByArea().begin(), results->paretoByArea().end());
    if (results->best()) shown.insert(*results->best());
    for (std::size_t m = 0; m < evaluators_.size(); ++m) {
        ModelSearchReport& report = outcome.models[m];
        const ModelEvaluator& e = *evaluators_[m];
        // On the pool: a front holds up to a few hundred points, each a full evaluation.
        const std::vector<std::size_t> positions(shown.begin(), shown.end());
        std::vector<EvaluatedPoint> evaluated(positions.size());
        pool_->parallelFor(std::int64_t(positions.size()), [&](std::int64_t k) {
            evaluated[std::size_t(k)] =
                e.evaluate(results->points()[positions[std::size_t(k)]].point, nullptr, true);
        });
        std::map<std::size_t, EvaluatedPoint> full;
        for (std::size_t k = 0; k < positions.size(); ++k) {
            if (evaluated[k].plan) report.plans[positions[k]] = evaluated[k].plan;
            full.emplace(positions[k], std::move(evaluated[k]));
        }
        if (!multi_) {
            report.baselines = computeBaselines(space, *results, *refResults_[m]);
            if (report.baselines.joint.available && results->best())
                report.baselines.joint.plan = full.at(*results->best()).plan;
            if (report.baselines.searchedFixed.available)
                report.baselines.searchedFixed.plan =
                    e.evaluate(report.baselines.searchedFixed.point, nullptr, true).baselinePlan;
            // The attribution chain's searched steps, with their plans too.
            if (report.baselines.chipOnly.available)
                report.baselines.chipOnly.plan =
                    e.evaluate(report.baselines.chipOnly.point, nullptr, true).baselinePlan;
            for (BaselineOutcome* o :
                 {&report.baselines.chipAndPlacement, &report.baselines.sameHbm})
                if (o->available) o->plan = e.evaluate(o->point, nullptr, true).plan;
        } else {
            // One chip for all models: each model's "joint" is its throughput at the chosen
            // point, and "searched fixed" its fixed strategy there.
            SearchBaselines& b = report.baselines;
            const SearchBaselines single = computeBaselines(space, *results, *refResults_[m]);
            b.referenceInSpace = single.referenceInSpace;
            b.partial = single.partial;
            // Without options to hold the chain's messages say so; else they are this model's
            // own evaluations on the chosen chip (below), or there is no chosen chip.
            b.chipOnly = single.chipOnly;
            b.chipAndPlacement = single.chipAndPlacement;
            b.sameHbm = single.sameHbm;
            b.joint = b.searchedFixed = BaselineOutcome{};
            b.joint.message = b.searchedFixed.message = "no searched point fits every model";
            if (b.referenceFixed.available)
                for (BaselineOutcome* o : {&b.chipOnly, &b.chipAndPlacement, &b.sameHbm})
                    o->message = b.joint.message;
            if (results->best()) {
                const EvaluatedPoint& p = full.at(*results->best());
                if (p.feasible()) {
                    b.joint = {true, {}, p.throughputSamplesPerSecond, p.point, p.plan};
                }
                fillSharedChipChain(b, *grid_, p.point.chipIndex, e);
                if (p.baselineThroughputSamplesPerSecond > 0) {
                    b.searchedFixed = {
                        true, {}, p.baselineThroughputSamplesPerSecond, p.point, p.baselinePlan};
                } else {
                    b.searchedFixed.message = "the fixed strategy does not fit on the chosen chip";
                }
            }
        }
    }
    outcome.results = std::move(results);
    outcome.timings.reports = secondsSince(reportStart);
    outcome.timings.total = prepareSeconds_ + outcome.timings.search + outcome.timings.reports;
    return outcome;
}

Expected<SearchOutcome> runSearch(const SearchRequest& request, RunControl* control,
                                  const PointCallback& onPoint) {
    if (request.models.empty()) return Error{"search: no model given"};
    auto grid = SearchGrid::create(request.space);
    if (!grid) return Error{grid.message()};
    if (Status fits =
            checkSearchMemory(estimateSearchFootprint(request, *grid), availableMemoryBytes());
        !fits)
        return Error{"search: " + fits.message()};
    auto run = SearchRun::prepare(request, std::move(*grid));
    if (!run) return Error{run.message()};
    auto results = std::make_shared<const SearchResults>((*run)->explore(control, onPoint));
    return (*run)->report(std::move(results));
}

}  // namespace tandem::core::search
