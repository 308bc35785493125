// The whole search as the CLI and GUI run it (core/search/search_run.h) and its JSON report.
// Oracles: the four baselines recomputed by brute force over the evaluated points, the
// reference chip's numbers recomputed with placeModel() (an independent pipeline), multi-model
// objectives recomputed as geometric means from single-model evaluations, and the JSON read
// back with nlohmann/json and compared value by value with the results.
#include <QtTest>
#include <atomic>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "core/io/search_results_json.h"
#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "core/search/model_evaluator.h"
#include "core/search/multi_model_evaluator.h"
#include "core/search/point_placement_request.h"
#include "core/search/search_grid.h"
#include "core/search/search_run.h"
#include "tests/core/search/search_test_support.h"

using namespace tandem::core;
using namespace tandem::core::search;

namespace {

using namespace search_test;

SearchOutcome run(const SearchRequest& request, RunControl* control = nullptr,
                  const PointCallback& onPoint = {}) {
    auto outcome = runSearch(request, control, onPoint);
    if (!outcome) qFatal("%s", outcome.message().c_str());
    return std::move(outcome).value();
}

bool sameChip(hardware::AcceleratorConfig a, hardware::AcceleratorConfig b) {
    a.hbmCapacityBytes = b.hbmCapacityBytes = 0;
    return a == b;
}

}  // namespace

class TestSearchRun : public QObject {
    Q_OBJECT
private slots:
    void baselinesAgainstBruteForceAndPlaceModel();
    void jointNeverBelowABaseline();
    void attributionChainFreesOneThingPerStep();
    void referenceOutsideTheSpaceIsReported();
    void multiModelRanksByNormalisedGeometricMean();
    void cancelKeepsValidPartialResults();
    void reportJsonMatchesTheResults();
    void badRequestsAreErrors();
    void everyPointReplaysThroughPlaceModel();
};

void TestSearchRun::baselinesAgainstBruteForceAndPlaceModel() {
    SearchRequest request;
    request.models = {zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    const SearchOutcome outcome = run(request);
    const SearchResults& r = *outcome.results;
    QCOMPARE(r.points().size(), std::size_t(SearchGrid::create(request.space)->pointCount()));
    const SearchBaselines& b = outcome.models.front().baselines;
    QVERIFY(b.referenceInSpace);

    // Brute force over the evaluated points.
    const auto& ref = request.space.base.accelerator;
    double refFixed = 0, refPlaced = 0, searchedFixed = 0, joint = 0;
    for (const EvaluatedPoint& p : r.points()) {
        searchedFixed = std::max(searchedFixed, p.baselineThroughputSamplesPerSecond);
        if (p.feasible()) joint = std::max(joint, p.throughputSamplesPerSecond);
        if (!sameChip(p.point.accelerator, ref)) continue;
        refFixed = std::max(refFixed, p.baselineThroughputSamplesPerSecond);
        if (p.feasible()) refPlaced = std::max(refPlaced, p.throughputSamplesPerSecond);
    }
    QVERIFY(joint > 0 && refFixed > 0);
    QCOMPARE(b.joint.throughputSamplesPerSecond, joint);
    QCOMPARE(b.searchedFixed.throughputSamplesPerSecond, searchedFixed);
    // The reference chip's own grid gives the same numbers as its points inside the search.
    QCOMPARE(b.referenceFixed.throughputSamplesPerSecond, refFixed);
    QCOMPARE(b.referencePlaced.throughputSamplesPerSecond, refPlaced);

    // placeModel() at the reference baselines' options: its fixed baseline and its plan.
    for (const BaselineOutcome* o : {&b.referenceFixed, &b.referencePlaced}) {
        placement::ModelPlacementRequest pr;
        pr.model = request.models.front();
        pr.hardware = request.space.base;
        pr.hardware.accelerator = o->point.accelerator;
        pr.training.microbatch = o->point.microbatchSize;
        pr.training.recompute = o->point.recompute;
        pr.widths = request.space.widthsFor(*pr.model);
        auto placed = placement::placeModel(pr);
        QVERIFY(placed.ok());
        QVERIFY(placed->result.plan);
        // The fastest placed point's options need not fit the fixed strategy too.
        const bool fixedFits = placed->baseline && placed->baseline->plan;
        QVERIFY(fixedFits || o == &b.referencePlaced);
        const double fixed = fixedFits ? placed->baseline->plan->throughputSamplesPerSecond : 0.0;
        const double best = std::max(fixed, placed->result.plan->throughputSamplesPerSecond);
        QCOMPARE(o->throughputSamplesPerSecond, o == &b.referenceFixed ? fixed : best);
        QVERIFY(o->plan);  // the reference grid keeps its plans
        QCOMPARE(o->plan->throughputSamplesPerSecond, o->throughputSamplesPerSecond);
    }
    // Plans for every Pareto point and the best, matching the points' numbers.
    std::set<std::size_t> shown(r.paretoByArea().begin(), r.paretoByArea().end());
    shown.insert(*r.best());
    const auto& plans = outcome.models.front().plans;
    QCOMPARE(plans.size(), shown.size());
    for (const auto& [position, plan] : plans) {
        QVERIFY(shown.count(position));
        QCOMPARE(plan->throughputSamplesPerSecond, r.points()[position].throughputSamplesPerSecond);
        QCOMPARE(plan->tensorParallel, r.points()[position].planShape.tensorParallel);
        QCOMPARE(std::int64_t(plan->stages.size()),
                 std::int64_t(r.points()[position].planShape.stages));
    }
    QVERIFY(b.joint.plan && b.searchedFixed.plan);
    QCOMPARE(b.searchedFixed.plan->throughputSamplesPerSecond, searchedFixed);
}

void TestSearchRun::jointNeverBelowABaseline() {
    for (const char* name : {"bert-large", "gpt2-xl", "opt-350m"}) {
        SearchRequest request;
        request.models = {zoo(name)};
        request.space = smallReferenceSpace();
        request.space.hbmCapacityBytes = {8 * kGiB, 32 * kGiB};
        const SearchOutcome outcome = run(request);
        const SearchBaselines& b = outcome.models.front().baselines;
        QVERIFY2(b.joint.available, name);
        for (const BaselineOutcome* o : {&b.referenceFixed, &b.referencePlaced, &b.searchedFixed}) {
            if (!o->available) continue;
            QVERIFY2(b.joint.throughputSamplesPerSecond >= o->throughputSamplesPerSecond, name);
            QVERIFY(b.factorOver(*o) >= 1.0);
        }
        // Every point: its plan is at least its own fixed strategy.
        for (const EvaluatedPoint& p : outcome.results->points())
            QVERIFY(p.throughputSamplesPerSecond >= p.baselineThroughputSamplesPerSecond);
        if (b.referencePlaced.available && b.referenceFixed.available)
            QVERIFY(b.referencePlaced.throughputSamplesPerSecond >=
                    b.referenceFixed.throughputSamplesPerSecond);
    }
}

// Each step of the attribution chain against a brute force over the points with its filter, and
// the steps nest: each frees one thing, so none is below the step before it.
void TestSearchRun::attributionChainFreesOneThingPerStep() {
    SearchRequest request;
    request.models = {zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.space.hbmCapacityBytes = {8 * kGiB, 32 * kGiB};
    request.space.recompute = {hardware::Recompute::Off, hardware::Recompute::On};
    const SearchOutcome outcome = run(request);
    const SearchBaselines& b = outcome.models.front().baselines;
    QVERIFY(b.referenceFixed.available && b.referenceInSpace);
    const SearchPoint& o = b.referenceFixed.point;
    const auto sameOptions = [&](const SearchPoint& p) {
        return p.hbmCapacityBytes() == o.hbmCapacityBytes() &&
               p.microbatchSize == o.microbatchSize && p.recompute == o.recompute;
    };
    double placementOnly = 0, chipOnly = 0, chipAndPlacement = 0, sameHbm = 0;
    for (const EvaluatedPoint& p : outcome.results->points()) {
        const double placed = p.feasible() ? p.throughputSamplesPerSecond : 0;
        if (p.point.hbmCapacityBytes() == o.hbmCapacityBytes()) sameHbm = std::max(sameHbm, placed);
        if (!sameOptions(p.point)) continue;
        chipOnly = std::max(chipOnly, p.baselineThroughputSamplesPerSecond);
        chipAndPlacement = std::max(chipAndPlacement, placed);
        if (sameChip(p.point.accelerator, request.space.base.accelerator))
            placementOnly = std::max(placementOnly, placed);
    }
    QCOMPARE(b.placementOnly.throughputSamplesPerSecond, placementOnly);
    QCOMPARE(b.chipOnly.throughputSamplesPerSecond, chipOnly);
    QCOMPARE(b.chipAndPlacement.throughputSamplesPerSecond, chipAndPlacement);
    QCOMPARE(b.sameHbm.throughputSamplesPerSecond, sameHbm);
    // One freedom per step: the options held are the reference baseline's.
    QVERIFY(sameChip(b.placementOnly.point.accelerator, request.space.base.accelerator));
    for (const BaselineOutcome* step : {&b.placementOnly, &b.chipOnly, &b.chipAndPlacement})
        QVERIFY(sameOptions(step->point));
    QCOMPARE(b.sameHbm.point.hbmCapacityBytes(), o.hbmCapacityBytes());
    QVERIFY(b.placementOnly.throughputSamplesPerSecond >=
            b.referenceFixed.throughputSamplesPerSecond);
    QVERIFY(b.chipAndPlacement.throughputSamplesPerSecond >=
            b.placementOnly.throughputSamplesPerSecond);
    QVERIFY(b.chipAndPlacement.throughputSamplesPerSecond >= b.chipOnly.throughputSamplesPerSecond);
    QVERIFY(b.sameHbm.throughputSamplesPerSecond >= b.chipAndPlacement.throughputSamplesPerSecond);
    QVERIFY(b.joint.throughputSamplesPerSecond >= b.sameHbm.throughputSamplesPerSecond);
    // The searched steps come with their plans, as the other baselines do.
    for (const BaselineOutcome* step : {&b.chipOnly, &b.chipAndPlacement, &b.sameHbm}) {
        QVERIFY(step->plan);
        QCOMPARE(step->plan->throughputSamplesPerSecond, step->throughputSamplesPerSecond);
    }
    for (int i = 0; i < kBaselineCount; ++i) QVERIFY(!baselineKey(i).empty());
    QCOMPARE(&baselineOutcome(b, 6), &b.chipAndPlacement);
}

void TestSearchRun::referenceOutsideTheSpaceIsReported() {
    SearchRequest request;
    request.models = {zoo("bert-large")};
    request.space = smallReferenceSpace();
    request.space.numTensorCores = {2, 4};  // the reference chip has 8
    const SearchOutcome outcome = run(request);
    const SearchBaselines& b = outcome.models.front().baselines;
    QVERIFY(!b.referenceInSpace);
    QVERIFY(!b.partial);
    QVERIFY(b.referenceFixed.available);  // evaluated on its own grid all the same
    QCOMPARE(b.referenceFixed.point.accelerator.numTensorCores, std::int64_t(8));
}

void TestSearchRun::multiModelRanksByNormalisedGeometricMean() {
    SearchRequest request;
    request.models = {zoo("bert-large"), zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.space.globalBufferBytes = {128 * kMiB};
    const SearchOutcome multi = run(request);
    QCOMPARE(multi.models.size(), std::size_t(2));

    // Oracle: each model alone, normalised by its own reference-chip fixed baseline.
    std::vector<SearchOutcome> singles;
    for (const auto& m : request.models) {
        SearchRequest one = request;
        one.models = {m};
        singles.push_back(run(one));
    }
    const auto& points = multi.results->points();
    double bestObjective = 0;
    std::size_t bestPosition = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        double logSum = 0;
        bool all = true;
        for (std::size_t m = 0; m < singles.size(); ++m) {
            const EvaluatedPoint& p = singles[m].results->points()[i];
            QCOMPARE(p.point.index, points[i].point.index);
            if (!p.feasible()) {
                all = false;
                break;
            }
            const double norm =
                singles[m].models.front().baselines.referenceFixed.throughputSamplesPerSecond;
            QCOMPARE(multi.models[m].normaliser, norm);
            QCOMPARE(points[i].modelThroughputsSamplesPerSecond[m], p.throughputSamplesPerSecond);
            logSum += std::log(p.throughputSamplesPerSecond / norm);
        }
        QCOMPARE(points[i].feasible(), all);
        if (!all) continue;
        const double objective = std::exp(logSum / 2);
        QVERIFY(std::abs(points[i].objective - objective) <= 1e-12 * objective);
        if (objective > bestObjective) {
            bestObjective = objective;
            bestPosition = i;
        }
    }
    QVERIFY(multi.results->best());
    QCOMPARE(*multi.results->best(), bestPosition);
    // Each model's "joint" is its throughput at the shared chip: never above its own optimum.
    for (std::size_t m = 0; m < 2; ++m)
        QVERIFY(multi.models[m].baselines.joint.throughputSamplesPerSecond <=
                singles[m].models.front().baselines.joint.throughputSamplesPerSecond);
}

void TestSearchRun::cancelKeepsValidPartialResults() {
    SearchRequest request;
    request.models = {zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.threads = 2;
    RunControl control;
    std::atomic<int> seen{0};
    const SearchOutcome outcome = run(request, &control, [&](const EvaluatedPoint&) {
        if (++seen == 20) control.cancel();
    });
    const SearchResults& r = *outcome.results;
    QVERIFY(r.statistics().cancelled);
    QVERIFY(r.points().size() >= 20);
    QVERIFY(r.points().size() < std::size_t(SearchGrid::create(request.space)->pointCount()));
    for (const EvaluatedPoint& p : r.points()) QVERIFY(p.status != PointStatus::Cancelled);
    const SearchBaselines& b = outcome.models.front().baselines;
    if (r.best()) QCOMPARE(b.joint.throughputSamplesPerSecond, r.points()[*r.best()].objective);
    QVERIFY(b.referenceFixed.available);
}

void TestSearchRun::reportJsonMatchesTheResults() {
    SearchRequest request;
    request.models = {zoo("bert-large")};
    request.space = smallReferenceSpace();
    const SearchOutcome outcome = run(request);
    io::SearchReport report;
    report.results = outcome.results;
    report.baseHardware = request.space.base;
    for (const auto& m : outcome.models)
        report.models.push_back({m.name, m.layerNames, m.baselines, m.plans});
    const auto json = nlohmann::json::parse(io::searchReportToJson(report));
    const SearchResults& r = *outcome.results;
    QCOMPARE(json["points"].size(), r.points().size());
    QCOMPARE(json["evaluated"].get<std::int64_t>(), std::int64_t(r.points().size()));
    for (std::size_t i = 0; i < r.points().size(); ++i) {
        const auto& j = json["points"][i];
        const EvaluatedPoint& p = r.points()[i];
        QCOMPARE(j["throughput_samples_per_s"].get<double>(), p.throughputSamplesPerSecond);
        QCOMPARE(j["area_mm2"].get<double>(), p.point.areaSquareMillimetres);
        QCOMPARE(j["hbm_bytes"].get<std::int64_t>(), p.point.hbmCapacityBytes());
        QCOMPARE(j["hardware"]["numTensorCores"].get<std::int64_t>(),
                 p.point.accelerator.numTensorCores);
        if (p.feasible())
            QCOMPARE(j["plan"]["tensor_parallel"].get<std::int64_t>(), p.planShape.tensorParallel);
        else
            QVERIFY(j["plan"].is_null());
    }
    QCOMPARE(json["pareto"].get<std::vector<std::size_t>>(), r.paretoByArea());
    QCOMPARE(json["best"].get<std::size_t>(), *r.best());
    QCOMPARE(json["plans"].size(), outcome.models.front().plans.size());
    for (const auto& [position, plan] : outcome.models.front().plans)
        QCOMPARE(json["plans"][std::to_string(position)]["throughput_samples_per_s"].get<double>(),
                 plan->throughputSamplesPerSecond);
    const auto& b = outcome.models.front().baselines;
    QCOMPARE(json["baselines"]["reference_fixed"]["throughput_samples_per_s"].get<double>(),
             b.referenceFixed.throughputSamplesPerSecond);
    QCOMPARE(json["baselines"]["joint"]["throughput_samples_per_s"].get<double>(),
             b.joint.throughputSamplesPerSecond);
    QCOMPARE(json["baselines"]["reference_fixed"]["joint_factor"].get<double>(),
             b.factorOver(b.referenceFixed));
}

void TestSearchRun::badRequestsAreErrors() {
    SearchRequest request;
    QVERIFY(!runSearch(request).ok());  // no model
    request.models = {zoo("bert-large")};
    request.space = smallReferenceSpace();
    request.explorer = ExplorerKind(99);  // only by a cast: every named kind runs
    auto unknown = runSearch(request);
    QVERIFY(!unknown.ok());
    QVERIFY(unknown.message().find("explorer") != std::string::npos);
    request.explorer = ExplorerKind::Exhaustive;
    request.space.microbatchSizes = {};
    QVERIFY(!runSearch(request).ok());
    request.space = smallReferenceSpace();
    // A cancel before the search began is not an error: no points, marked cancelled, and the
    // reference chip's baselines all the same.
    RunControl cancelled;
    cancelled.cancel();
    auto early = runSearch(request, &cancelled);
    QVERIFY(early.ok());
    QVERIFY(early->results->points().empty());
    QVERIFY(early->results->statistics().cancelled);
    QVERIFY(early->models.front().baselines.referenceFixed.available);
    QVERIFY(!early->models.front().baselines.joint.available);
    // Not reached is not outside: the reference chip is one of the space's chips, and the
    // baselines say they are partial.
    QVERIFY(early->models.front().baselines.partial);
    QVERIFY(early->models.front().baselines.referenceInSpace);
}

void TestSearchRun::everyPointReplaysThroughPlaceModel() {
    // placementRequestFor() (what the app evaluates when a point is selected) run through
    // placeModel(), an independent pipeline, gives every point's throughput and plan shape, with
    // the clock searched so that the point's accelerator, not the base's, must reach it.
    SearchRequest request;
    request.models = {zoo("gpt2-xl")};
    request.space = smallReferenceSpace();
    request.space.numTensorCores = {8};
    request.space.numVectorCores = {2};
    request.space.globalBufferBytes = {128 * kMiB};
    request.space.clockHz = {700'000'000, 1'050'000'000};
    request.space.hbmCapacityBytes = {32 * kGiB};
    request.space.recompute = {hardware::Recompute::Off};
    request.training.globalBatch = 64;
    const SearchOutcome outcome = run(request);
    QCOMPARE(outcome.results->points().size(), std::size_t(2 * 2 * 2));  // rows × clocks × mbs
    std::set<double> throughputs;
    for (const EvaluatedPoint& p : outcome.results->points()) {
        const placement::ModelPlacementRequest pr = placementRequestFor(request, p.point);
        QCOMPARE(pr.hardware.accelerator.clockHz, p.point.accelerator.clockHz);
        QCOMPARE(pr.training.microbatch, p.point.microbatchSize);
        QCOMPARE(pr.hardware.cluster.devices, request.space.base.cluster.devices);
        auto placed = placement::placeModel(pr);
        QVERIFY2(placed.ok(), placed.ok() ? "" : placed.message().c_str());
        QCOMPARE(p.feasible(), bool(placed->result.plan));
        if (!p.feasible()) continue;
        QCOMPARE(placed->result.plan->throughputSamplesPerSecond, p.throughputSamplesPerSecond);
        QCOMPARE(placed->result.plan->tensorParallel, p.planShape.tensorParallel);
        QCOMPARE(std::int64_t(placed->result.plan->stages.size()),
                 std::int64_t(p.planShape.stages));
        throughputs.insert(p.throughputSamplesPerSecond);
    }
    QVERIFY(throughputs.size() > 2);  // the clocks and microbatch sizes change the answer
}

QTEST_GUILESS_MAIN(TestSearchRun)
#include "test_search_run.moc"
