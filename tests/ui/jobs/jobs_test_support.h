#pragma once
// Shared by the job tests: zoo models, the TPUv4-like point, a slow single-point request, two
// search spaces (seconds and minutes to search), a recorder of what a SearchJob emits and a
// watchdog against hangs.
#include <QObject>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "core/search/search_grid.h"
#include "tests/core/search/search_test_support.h"
#include "ui/jobs/search_job.h"

namespace jobs_test {

using namespace tandem::core;
using tandem::core::search::SearchRequest;
using tandem::ui::SearchJob;

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
// uncancelled evaluation takes over ten minutes; a test that sees it end within its watchdog
// (a minute) has seen it cancelled.
inline placement::ModelPlacementRequest slowRequest() {
    placement::ModelPlacementRequest r = pointRequest("opt-1.3b", 1);
    r.scheduleOptions.formulation = schedule::Formulation::Reference;
    r.scheduleOptions.useCache = false;
    r.scheduleOptions.timeLimitSeconds = 600;
    return r;
}

// Ends the test run with a message if it is still alive after `seconds`: a guard against a hang
// (e.g. a destructor waiting for work that was never cancelled), not a measurement. The limit
// is generous; tests assert what happened, never how long it took.
class Watchdog {
public:
    Watchdog(const char* what, int seconds)
        : thread_([this, what, seconds] {
              std::unique_lock lock(mutex_);
              if (!cv_.wait_for(lock, std::chrono::seconds(seconds), [this] { return done_; }))
                  qFatal("watchdog: %s did not finish within %d s", what, seconds);
          }) {}
    ~Watchdog() {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;  // last: starts after the members it uses
};

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
    r.models = {zoo(model)};
    r.space = std::move(space);
    r.threads = threads;
    return r;
}

// Collects what a SearchJob emits.
struct SearchRecorder {
    explicit SearchRecorder(SearchJob& job) {
        QObject::connect(&job, &SearchJob::pointsReady,
                         [this](const std::vector<search::EvaluatedPoint>& batch) {
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
                         });
        QObject::connect(&job, &SearchJob::failed, [this](const QString& m) { error = m; });
    }
    bool done() const { return results || !error.isEmpty(); }

    std::vector<std::size_t> batchSizes;
    std::vector<search::EvaluatedPoint> points;
    std::vector<search::SearchProgress> progress;
    std::shared_ptr<const search::SearchResults> results;
    std::shared_ptr<const search::SearchBaselines> baselines;
    QString error;
};

}  // namespace jobs_test
