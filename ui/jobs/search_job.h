#pragma once
// Runs an architecture × placement search in the background (ARCHITECTURE.md §4): start() copies
// the core::search::SearchRequest to a run of the job's own JobRunner (at background priority,
// which the search's worker threads inherit) that runs core::search::runSearch — the same run as
// `tandem-cli search`: the reference chip first (the Comparison baselines), then the explorer, then
// full plans for the Pareto points and the best. Finished points are collected on the workers and
// handed to the GUI thread in batches by a timer (pointsReady, at most once per batch interval, 100
// ms by default — never one queued signal per point); progress (the explorer's points done / total,
// rate, ETA) is emitted at the same rate at most. cancel() returns at once; the explorer starts no
// new point, and finished() arrives with the points that completed (statistics().cancelled set) and
// the baselines over that subset. Evaluated points keep their plan's shape but not the plan (a
// search may hold 700,000 of them); re-evaluate the selected point with PointEvaluationJob to show
// its plan. One search at a time: start() refuses while one runs (the caller shows the reason), so
// a search is never lost by a stray click. Destroying the job cancels the search and waits for it
// (the runner's destructor).
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <optional>
#include <vector>

#include "core/search/evaluated_point.h"
#include "core/search/progress_meter.h"
#include "core/search/search_baselines.h"
#include "core/search/search_results.h"
#include "core/search/search_run.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

// What the job does beyond core's request.
struct SearchJobOptions {
    // Hand the Comparison view's baselines to finished(). runSearch() derives them either way;
    // for a multi-model search they are the first model's (its throughput on the chosen chip).
    bool baselines = true;
};

class SearchJob : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultBatchIntervalMs = 100;

    explicit SearchJob(QObject* parent = nullptr);
    ~SearchJob() override;  // cancels a running search and waits for it

    // Starts a search and emits started(); false (with the reason in `whyNot`) when a search
    // already runs or the request has no model (or a null one). Errors in the space arrive
    // later through failed(), since checking them means enumerating the space.
    bool start(core::search::SearchRequest request, QString* whyNot = nullptr,
               SearchJobOptions options = {});
    // Asks the running search to stop; returns immediately. No-op when nothing runs.
    void cancel();

    bool running() const { return run_ != nullptr; }
    // Points the running search has finished so far, handed over or still waiting for the next
    // batch (0 when no search runs). Safe to call at any time; it reads one atomic counter.
    std::int64_t pointsFinished() const;
    // The latest progress emitted (zeros before the first search).
    core::search::SearchProgress lastProgress() const { return lastProgress_; }
    // The last finished search's whole outcome (its models' plans, layer names and baselines,
    // as core::io::makeSearchReport takes it), set before finished(); null before the first.
    std::shared_ptr<const core::search::SearchOutcome> lastOutcome() const { return lastOutcome_; }
    // Why the last finished search came without baselines (empty when it had them).
    QString baselineMessage() const { return baselineMessage_; }

    void setBatchIntervalMs(int milliseconds);  // clamped to [10, 1000] ms
    int batchIntervalMs() const { return batchIntervalMs_; }

signals:
    void started();
    void pointsReady(std::vector<tandem::core::search::EvaluatedPoint> points);
    void progress(tandem::core::search::SearchProgress progress);
    // `baselines` is null when the request did not ask for them or they could not be computed
    // (baselineMessage() says why).
    void finished(std::shared_ptr<const tandem::core::search::SearchResults> results,
                  std::shared_ptr<const tandem::core::search::SearchBaselines> baselines);
    void failed(QString message);
    void runningChanged(bool running);

private:
    struct Run;
    struct Outcome;
    // The whole search, on the runner's thread: fills `out` with the results or the error.
    static void runSearch(Run& run, core::RunControl& control,
                          const core::search::SearchRequest& request,
                          const SearchJobOptions& options, Outcome& out);
    void flush();
    void progressed(quint64 id, double done, double total);
    void complete(std::shared_ptr<Run> run, std::shared_ptr<Outcome> outcome);

    JobRunner runner_{JobRunner::Answers::LatestOnly, 1};
    quint64 runId_ = 0;
    std::shared_ptr<Run> run_;
    QTimer flushTimer_;
    int batchIntervalMs_ = kDefaultBatchIntervalMs;
    std::optional<core::search::SearchProgress> pendingProgress_;  // not yet emitted
    core::search::SearchProgress lastProgress_;
    QString baselineMessage_;
    std::shared_ptr<const core::search::SearchOutcome> lastOutcome_;
};

}  // namespace tandem::ui

Q_DECLARE_METATYPE(std::vector<tandem::core::search::EvaluatedPoint>)
Q_DECLARE_METATYPE(tandem::core::search::SearchProgress)
Q_DECLARE_METATYPE(std::shared_ptr<const tandem::core::search::SearchResults>)
Q_DECLARE_METATYPE(std::shared_ptr<const tandem::core::search::SearchBaselines>)
