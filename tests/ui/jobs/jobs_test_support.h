#pragma once
// Shared by the job tests: zoo models, the TPUv4-like point, a slow single-point request, two
// search spaces (seconds and minutes to search) and a recorder of what a SearchJob emits.
#include <QElapsedTimer>
#include <QObject>
#include <algorithm>
#include <memory>
#include <vector>

#include "tests/core/search/search_test_support.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "core/search/search_grid.h"
#include "ui/jobs/search_job.h"

namespace jobs_test {

using namespace tandem::core;
using tandem::ui::SearchJob;
using tandem::ui::SearchRequest;

using namespace search_test;

inline hardware::HardwarePoint tpuv4() {
    auto h = hardware::PresetLibrary::resolveHardware("tpuv4-like");
    if (!h) qFatal("%s", h.message().c_str());
    return *h;
}

inline placement::ModelPlacementRequest pointRequest(const char* model, std::int64_t microbatch) {
    placement::ModelPlacementRequest r;
    r.model = zoo(model);
    r.hardware = tpuv4();
    r.training.microbatch = microbatch;
    return r;
}

// PHAZE's ILP with a cold cache: one backward layer alone runs into the time limit, so an
// uncancelled evaluation takes over a minute.
inline placement::ModelPlacementRequest slowRequest() {
    placement::ModelPlacementRequest r = pointRequest("opt-1.3b", 1);
    r.scheduleOptions.formulation = schedule::Formulation::Reference;
    r.scheduleOptions.useCache = false;
    r.scheduleOptions.timeLimitSeconds = 60;
    return r;
}

// A few dozen chips × 8 options: seconds to search.
inline search::SearchSpace smallSpace() {
    search::SearchSpace s = search::SearchSpace::phaze();
    s.name = "small";
    s.numTensorCores = {1, 4, 16};
    s.tensorCoreRows = {32, 128};
    s.tensorCoreCols = {64, 128};
    s.numVectorCores = {1, 4};
    s.globalBufferBytes = {16 * kMiB, 64 * kMiB};
    s.microbatchSizes = {1, 2};
    s.hbmCapacityBytes = {32 * kGiB, 80 * kGiB};
    s.recompute = {hardware::Recompute::Off, hardware::Recompute::On};
    return s;
}

// Thousands of points: minutes to search, so it is still running when the test cancels it.
inline search::SearchSpace largeSpace() {
    search::SearchSpace s = search::SearchSpace::phaze();
    s.name = "large";
    s.numTensorCores = search::SearchSpace::powersOfTwo(1, 64);
    s.tensorCoreRows = search::SearchSpace::powersOfTwo(8, 256);
    s.tensorCoreCols = search::SearchSpace::powersOfTwo(8, 256);
    s.numVectorCores = search::SearchSpace::powersOfTwo(1, 64);
    s.globalBufferBytes = {16 * kMiB, 64 * kMiB};
    s.microbatchSizes = {1, 2, 4, 8};
    s.hbmCapacityBytes = {32 * kGiB, 80 * kGiB};
    s.recompute = {hardware::Recompute::Off, hardware::Recompute::On};
    return s;
}

inline SearchRequest searchRequest(const char* model, search::SearchSpace space, int threads = 2) {
    SearchRequest r;
    r.model = zoo(model);
    r.space = std::move(space);
    r.threads = threads;
    return r;
}

// Collects what a SearchJob emits.
struct SearchRecorder {
    explicit SearchRecorder(SearchJob& job) {
        clock.start();
        QObject::connect(&job, &SearchJob::pointsReady,
                         [this](const std::vector<search::EvaluatedPoint>& batch) {
                             batchTimes.push_back(clock.elapsed());
                             batchSizes.push_back(batch.size());
                             points.insert(points.end(), batch.begin(), batch.end());
                         });
        QObject::connect(&job, &SearchJob::progress,
                         [this](const search::SearchProgress& p) { progress.push_back(p); });
        QObject::connect(&job, &SearchJob::finished,
                         [this](std::shared_ptr<const search::SearchResults> r,
                                std::shared_ptr<const search::SearchBaselines> b) {
                             results = std::move(r);
                             baselines = std::move(b);
                             finishedAt = clock.elapsed();
                         });
        QObject::connect(&job, &SearchJob::failed, [this](const QString& m) { error = m; });
    }
    bool done() const { return results || !error.isEmpty(); }

    QElapsedTimer clock;
    std::vector<qint64> batchTimes;
    std::vector<std::size_t> batchSizes;
    std::vector<search::EvaluatedPoint> points;
    std::vector<search::SearchProgress> progress;
    std::shared_ptr<const search::SearchResults> results;
    std::shared_ptr<const search::SearchBaselines> baselines;
    qint64 finishedAt = -1;
    QString error;
};

}  // namespace jobs_test
