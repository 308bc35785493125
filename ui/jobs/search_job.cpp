#include "ui/jobs/search_job.h"

#include <QMetaObject>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>

#include "core/common/run_control.h"
#include "core/search/search_run.h"
#include "ui/jobs/background_priority.h"

namespace tandem::ui {

namespace cs = core::search;
using Clock = std::chrono::steady_clock;

struct SearchJob::Outcome {
    std::shared_ptr<const cs::SearchOutcome> whole;    // the run's report (plans, layer names)
    std::shared_ptr<const cs::SearchResults> results;  // null on failure
    std::shared_ptr<const cs::SearchBaselines> baselines;
    QString error;
    QString baselineMessage;
};

// State shared by the GUI thread and the search thread (and the explorer's workers, which append
// points and report progress). Everything but `control` is guarded by `mutex`.
struct SearchJob::Run {
    Run() : control([this](const core::Progress& p) { onProgress(p); }) {}

    // Called by RunControl, already throttled to one report per 100 ms (final reports always
    // pass): the explorer's points done out of the grid's.
    void onProgress(const core::Progress& p) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        std::lock_guard lock(mutex);
        cs::SearchProgress out;
        out.done = std::int64_t(p.done);
        out.total = std::int64_t(p.total);
        out.elapsedSeconds = elapsed;
        if (out.done > 0 && elapsed > 0) {
            out.pointsPerSecond = double(out.done) / elapsed;
            out.etaSeconds = double(out.total - out.done) / out.pointsPerSecond;
        }
        progress = out;
    }

    core::RunControl control;
    std::mutex mutex;
    std::vector<cs::EvaluatedPoint> pending;     // finished, not yet handed to the GUI thread
    std::atomic<std::int64_t> finished{0};       // points finished so far (pending or emitted)
    std::optional<cs::SearchProgress> progress;  // newest report, not yet emitted
    std::shared_ptr<Outcome> outcome;            // set by the search thread as its last act
    Clock::time_point start = Clock::now();
};

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

SearchJob::SearchJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::vector<cs::EvaluatedPoint>>();
    qRegisterMetaType<cs::SearchProgress>();
    qRegisterMetaType<std::shared_ptr<const cs::SearchResults>>();
    qRegisterMetaType<std::shared_ptr<const cs::SearchBaselines>>();
    // Single-shot, re-armed after each flush: batches are then at least one interval apart even
    // when a tick was delayed (a periodic timer would catch up with a short gap).
    flushTimer_.setSingleShot(true);
    flushTimer_.setTimerType(Qt::PreciseTimer);
    flushTimer_.setInterval(batchIntervalMs_);
    // The GUI thread also learns here that the search thread is done: it takes the outcome
    // from the shared state (under its mutex) rather than from a queued call, so that the
    // hand-off is ordered by a mutex that ThreadSanitizer sees (Qt's event queue is not).
    connect(&flushTimer_, &QTimer::timeout, this, [this] {
        flush();
        if (!run_) return;
        std::shared_ptr<Outcome> outcome;
        {
            std::lock_guard lock(run_->mutex);
            outcome = run_->outcome;
        }
        if (outcome)
            complete(run_, std::move(outcome));
        else
            flushTimer_.start();
    });
}

SearchJob::~SearchJob() {
    if (run_) run_->control.cancel();
    // The thread leaves its outcome in the shared state as its last act; nobody collects it.
    if (driver_.joinable()) driver_.join();
}

std::int64_t SearchJob::pointsFinished() const {
    return run_ ? run_->finished.load(std::memory_order_relaxed) : 0;
}

void SearchJob::setBatchIntervalMs(int milliseconds) {
    batchIntervalMs_ = std::clamp(milliseconds, 10, 1000);
    flushTimer_.setInterval(batchIntervalMs_);
}

bool SearchJob::start(cs::SearchRequest request, QString* whyNot, SearchJobOptions options) {
    auto refuse = [&](const QString& reason) {
        if (whyNot) *whyNot = reason;
        return false;
    };
    if (run_)
        return refuse(
            tr("A search is already running; cancel it or wait for it to finish "
               "before starting another."));
    if (request.models.empty() ||
        std::find(request.models.begin(), request.models.end(), nullptr) != request.models.end())
        return refuse(tr("Choose a model before starting a search."));
    if (driver_.joinable()) driver_.join();  // a finished search's thread, already exiting

    auto run = std::make_shared<Run>();
    run_ = run;
    lastProgress_ = {};
    baselineMessage_.clear();
    driver_ = std::thread([this, run, request = std::move(request), options] {
        lowerCurrentThreadPriority();  // before the pool exists: its workers inherit it
        auto outcome = std::make_shared<Outcome>();
        try {
            runSearch(*run, request, options, *outcome);
        } catch (const std::exception& e) {
            // core reports errors as values; this is resource exhaustion and the like, which
            // must not terminate the application from a background thread.
            outcome->results.reset();
            outcome->error =
                tr("Internal error during the search: %1").arg(QString::fromUtf8(e.what()));
        }
        std::lock_guard lock(run->mutex);
        run->outcome = std::move(outcome);
    });
    flushTimer_.start();
    emit started();
    emit runningChanged(true);
    return true;
}

void SearchJob::cancel() {
    if (run_) run_->control.cancel();
}

void SearchJob::flush() {
    if (!run_) return;
    std::vector<cs::EvaluatedPoint> points;
    std::optional<cs::SearchProgress> latest;
    {
        std::lock_guard lock(run_->mutex);
        points.swap(run_->pending);
        latest.swap(run_->progress);
    }
    if (!points.empty()) emit pointsReady(std::move(points));
    if (latest) {
        lastProgress_ = *latest;
        emit progress(*latest);
    }
}

void SearchJob::complete(std::shared_ptr<Run> run, std::shared_ptr<Outcome> outcome) {
    if (run != run_) return;
    flushTimer_.stop();
    flush();  // the last batch and the final progress come before finished()
    if (driver_.joinable()) driver_.join();
    run_.reset();
    baselineMessage_ = outcome->baselineMessage;
    lastOutcome_ = outcome->whole;
    emit runningChanged(false);
    if (outcome->results)
        emit finished(outcome->results, outcome->baselines);
    else
        emit failed(outcome->error);
}

void SearchJob::runSearch(Run& run, const cs::SearchRequest& request,
                          const SearchJobOptions& options, Outcome& out) {
    // The same run as `tandem-cli search` (core/search/search_run.h): the reference chip first
    // (baselines), then the explorer, then full plans for the Pareto points and the best.
    const cs::PointCallback onPoint = [&run](const cs::EvaluatedPoint& point) {
        std::lock_guard lock(run.mutex);
        run.pending.push_back(point);
        run.finished.fetch_add(1, std::memory_order_relaxed);
    };
    auto outcome = cs::runSearch(request, &run.control, onPoint);
    if (!outcome) {
        out.error = text(outcome.message());
        return;
    }
    out.results = outcome->results;
    out.whole = std::make_shared<const cs::SearchOutcome>(*outcome);
    if (options.baselines)
        out.baselines =
            std::make_shared<const cs::SearchBaselines>(outcome->models.front().baselines);
    else
        out.baselineMessage = tr("Baselines were not requested for this search.");
}

}  // namespace tandem::ui
