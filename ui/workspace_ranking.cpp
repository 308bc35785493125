// Workspace: the shown search results ranked again by another objective when the set-up's Rank
// by (or the Design space's) changes and nothing else of the searched set-up has (issue 27 item
// 12). core's rankResults gives what a search with that objective stores, bit for bit; it runs
// on its own JobRunner so 700,000 points never hold the GUI thread, the latest request winning.
#include <QFileInfo>

#include "core/common/units.h"
#include "core/search/ranking.h"
#include "ui/charts/design_space_chart.h"
#include "ui/jobs/job_runner.h"
#include "ui/jobs/search_job.h"
#include "ui/panels/setup_panel.h"
#include "ui/view_tabs.h"
#include "ui/widgets/status_readout.h"
#include "ui/workspace.h"

namespace tandem::ui {

namespace {

struct Ranked {
    std::shared_ptr<const core::search::SearchResults> results;
    QString problem;
};

}  // namespace

bool Workspace::rankResultsAsSetUp() {
    if (!report_ || !results_ || searchJob_->running()) return false;
    core::io::ProjectFile project = setup_->project();
    const std::string wanted = project.searchFingerprint();
    const core::search::SearchObjective objective = project.objective;
    if (objective == report_->objective) return false;
    project.objective = report_->objective;  // all else as searched?
    if (project.searchFingerprint() != resultsFingerprint_) return false;
    if (wanted == refusedFingerprint_) return false;  // rankingProblem_ says why
    if (wanted == rankingFingerprint_ && ranking_->hasCurrentRun()) return true;
    rankingFingerprint_ = wanted;
    const auto results = results_;
    const std::int64_t batch = setup_->pointRequest().training.globalBatch;
    ranking_->start(
        [results, objective, batch](core::RunControl&) {
            Ranked answer;
            auto ranked = core::search::rankResults(*results, objective, batch);
            if (ranked)
                answer.results =
                    std::make_shared<const core::search::SearchResults>(std::move(*ranked));
            else
                answer.problem = QString::fromStdString(ranked.message());
            return answer;
        },
        [this, objective, wanted](quint64, Ranked answer) {
            rankingFinished(objective, wanted, std::move(answer.results), answer.problem);
        });
    readout_->setText(
        tr("Ranking %1 points by %2…")
            .arg(QString::fromStdString(core::formatCount(double(results_->points().size()))))
            .arg(QString::fromUtf8(core::search::objectiveTitle(objective))));
    return true;
}

void Workspace::rankingFinished(core::search::SearchObjective objective,
                                const std::string& fingerprint,
                                std::shared_ptr<const core::search::SearchResults> ranked,
                                const QString& problem) {
    rankingFingerprint_.clear();
    if (!report_) return;
    DesignSpaceChart* designSpace = views_->designSpace();
    if (!ranked) {
        refusedFingerprint_ = fingerprint;
        rankingProblem_ = problem;
        lastError_ = problem;
        designSpace->setObjective(report_->objective);  // what the points still show
        refreshResultsState();
        readout_->setText(problem);
        emit transientMessage(problem, kTransientMessageMs);
        return;
    }
    if (setup_->project().searchFingerprint() != fingerprint) return;  // asked for another since
    auto report = std::make_shared<core::io::SearchReport>(*report_);
    report->results = std::move(ranked);
    report->objective = objective;
    report_ = std::move(report);
    resultsFingerprint_ = fingerprint;
    const qint64 selected = shownPoint_;
    designSpace->setObjective(objective);
    adoptResults(report_->results, baselines_);
    if (selected >= 0) designSpace->selectPoint(selected);
    QString text = tr("Ranked by %1 without searching again")
                       .arg(QString::fromUtf8(core::search::objectiveTitle(objective)));
    if (const auto best = results_->best())
        text += tr(": the best point is %1 (%2)")
                    .arg(results_->points()[*best].point.index)
                    .arg(QString::fromStdString(core::search::formatObjective(
                        objective, results_->points()[*best].objective)));
    readout_->setText(text);
}

}  // namespace tandem::ui
