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

// State shared by the GUI thread and the search (the explorer's workers append points). Guarded
// by `mutex` but for the counter.
struct SearchJob::Run {
    std::mutex mutex;
    std::vector<cs::EvaluatedPoint> pending;  // finished, not yet handed to the GUI thread
    std::atomic<std::int64_t> finished{0};    // points finished so far (pending or emitted)
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
    connect(&flushTimer_, &QTimer::timeout, this, [this] {
        flush();
        if (run_) flushTimer_.start();
    });
    connect(&runner_, &JobRunner::progress, this,
            [this](quint64 id, double done, double total, const QString&) {
                progressed(id, done, total);
            });
}

// The runner's destructor cancels the search and waits for it; its answer is dropped.
SearchJob::~SearchJob() = default;

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
    auto run = std::make_shared<Run>();
    run_ = run;
    lastProgress_ = {};
    pendingProgress_.reset();
    baselineMessage_.clear();
    // Work::Always: a search stopped before it began still answers (with no points).
    runId_ = runner_.start(
        [run, request = std::move(request), options](core::RunControl& control) {
            lowerCurrentThreadPriority();  // before the search's pool: its workers inherit it
            auto outcome = std::make_shared<Outcome>();
            try {
                runSearch(*run, control, request, options, *outcome);
            } catch (const std::exception& e) {
                // core reports errors as values; this is resource exhaustion and the like,
                // which must not terminate the application from a background thread.
                outcome->results.reset();
                outcome->error =
                    tr("Internal error during the search: %1").arg(QString::fromUtf8(e.what()));
            }
            return outcome;
        },
        [this, run](quint64, std::shared_ptr<Outcome> outcome) {
            complete(run, std::move(outcome));
        },
        JobRunner::Work::Always);
    flushTimer_.start();
    emit started();
    emit runningChanged(true);
    return true;
}

void SearchJob::cancel() {
    if (run_) runner_.stop(runId_);  // stops early; the finished points still arrive
}

// JobRunner's progress (RunControl throttles it to one report per 100 ms): the explorer's points
// done out of the grid's, with rate and ETA, emitted with the next batch.
void SearchJob::progressed(quint64 id, double done, double total) {
    if (!run_ || id != runId_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - run_->start).count();
    cs::SearchProgress out;
    out.done = std::int64_t(done);
    out.total = std::int64_t(total);
    out.elapsedSeconds = elapsed;
    if (out.done > 0 && elapsed > 0) {
        out.pointsPerSecond = double(out.done) / elapsed;
        out.etaSeconds = double(out.total - out.done) / out.pointsPerSecond;
    }
    pendingProgress_ = out;
}

void SearchJob::flush() {
    if (!run_) return;
    std::vector<cs::EvaluatedPoint> points;
    {
        std::lock_guard lock(run_->mutex);
        points.swap(run_->pending);
    }
    if (!points.empty()) emit pointsReady(std::move(points));
    if (pendingProgress_) {
        lastProgress_ = *pendingProgress_;
        pendingProgress_.reset();
        emit progress(lastProgress_);
    }
}

void SearchJob::complete(std::shared_ptr<Run> run, std::shared_ptr<Outcome> outcome) {
    if (run != run_) return;
    flushTimer_.stop();
    flush();  // the last batch and the final progress come before finished()
    run_.reset();
    baselineMessage_ = outcome->baselineMessage;
    lastOutcome_ = outcome->whole;
    emit runningChanged(false);
    if (outcome->results)
        emit finished(outcome->results, outcome->baselines);
    else
        emit failed(outcome->error);
}

void SearchJob::runSearch(Run& run, core::RunControl& control, const cs::SearchRequest& request,
                          const SearchJobOptions& options, Outcome& out) {
    // The same run as `tandem-cli search` (core/search/search_run.h): the reference chip first
    // (baselines), then the explorer, then full plans for the Pareto points and the best.
    const cs::PointCallback onPoint = [&run](const cs::EvaluatedPoint& point) {
        std::lock_guard lock(run.mutex);
        run.pending.push_back(point);
        run.finished.fetch_add(1, std::memory_order_relaxed);
    };
    auto outcome = cs::runSearch(request, &control, onPoint);
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
