// The Workspace's search results as documents: a finished search or a results file becomes the
// shown report (design space, Comparison), exports write it in the background, a saved project
// keeps it next to itself ("<project>.results.json") and reopening shows it again, and File ▸
// Open results… loads any `tandem-cli search --json` file (e.g. from a cluster run). Results
// remember the set-up they answer and fade, named, when it changes.
#include <QDir>
#include <QFileInfo>
#include <utility>

#include "core/common/units.h"
#include "ui/charts/design_space_chart.h"
#include "ui/editors/search_space_editor.h"
#include "ui/jobs/job_runner.h"
#include "ui/jobs/results_file_job.h"
#include "ui/jobs/search_job.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/setup_panel.h"
#include "ui/view_tabs.h"
#include "ui/widgets/status_readout.h"
#include "ui/workspace.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

void Workspace::startSearch(core::search::SearchRequest request) {
    DesignSpaceChart* designSpace = views_->designSpace();
    searchedGrid_.reset();
    designSpace->clear();
    designSpace->setSpace(request.space);
    QStringList modelNames;  // several: a multi-model search, plotted by its objective
    for (const auto& model : request.models) modelNames << text(model->name());
    designSpace->setObjective(request.objective);
    designSpace->setModelNames(modelNames);
    designSpace->setReferencePoint(request.space.base.accelerator);
    results_.reset();
    baselines_.reset();
    report_.reset();
    searchedSpace_ = request.space;
    shownModel_ = 0;
    refusedFingerprint_.clear();
    ranking_->cancel();  // a ranking of the results before these is not wanted
    rankingFingerprint_.clear();
    const core::io::ProjectFile project = setup_->project();
    std::vector<std::string> specs{project.model};
    specs.insert(specs.end(), project.searchModels.begin(), project.searchModels.end());
    auto run = core::io::describeSearchRun(specs, request);
    searchedRun_.reset();
    if (run) searchedRun_ = std::move(*run);  // else the export says nothing of its run
    resultsFingerprint_ = project.searchFingerprint();
    resultsOwner_ = describe(setup_->pointRequest());
    if (modelNames.size() > 1)
        resultsOwner_ += tr(" with %1").arg(modelNames.mid(1).join(QStringLiteral(", ")));
    designSpace->setOwner(resultsOwner_);
    designSpace->setStale({});
    views_->comparisonView()->setStale({});
    unpinComparison();
    QString why;
    if (!searchJob_->start(std::move(request), &why)) {
        lastError_ = why;
        readout_->setText(why);
        emit information(tr("Cannot start the search"), why);
        return;
    }
    views_->setCurrentIndex(0);
    readout_->setText(tr("Search started…"));
}

void Workspace::cancelSearch() {
    searchJob_->cancel();
}

void Workspace::refreshResultsState() {
    DesignSpaceChart* designSpace = views_->designSpace();
    ComparisonView* comparison = views_->comparisonView();
    if (designSpace->pointCount() == 0) {
        designSpace->setStale({});
        comparison->setStale({});
        return;
    }
    const bool stale = setup_->project().searchFingerprint() != resultsFingerprint_;
    if (stale && rankResultsAsSetUp()) {  // only Rank by changed: ranked again, not stale
        designSpace->setStale({});
        comparison->setStale({});
        return;
    }
    const bool refused = stale && setup_->project().searchFingerprint() == refusedFingerprint_;
    designSpace->setStale(!stale    ? QString()
                          : refused ? tr("set-up changed: %1").arg(rankingProblem_)
                                    : tr("set-up changed"));
    comparison->setStale(
        stale && baselines_
            ? tr("these are the results for %1; the set-up changed since").arg(resultsOwner_)
            : QString());
}

void Workspace::searchFinished(std::shared_ptr<const core::search::SearchResults> results,
                               std::shared_ptr<const core::search::SearchBaselines> baselines) {
    if (const auto outcome = searchJob_->lastOutcome()) {
        core::io::SearchReport report = core::io::makeSearchReport(*outcome, searchedSpace_.base);
        report.run = searchedRun_;
        report_ = std::make_shared<const core::io::SearchReport>(std::move(report));
    }
    adoptResults(std::move(results), std::move(baselines));
    const auto& s = results_->statistics();
    // The views stay on what the user is looking at: the best point is the star, one click away.
    readout_->setText(tr("Search %1: %2 points in %3%4")
                          .arg(s.cancelled ? tr("cancelled") : tr("finished"))
                          .arg(text(core::formatCount(double(s.evaluated))))
                          .arg(text(core::formatSeconds(s.wallSeconds)))
                          .arg(results_->best() ? tr(" · click the star in the Design space to "
                                                     "show the best point")
                                                : QString()));
}

void Workspace::adoptResults(std::shared_ptr<const core::search::SearchResults> results,
                             std::shared_ptr<const core::search::SearchBaselines> baselines) {
    results_ = std::move(results);
    baselines_ = std::move(baselines);
    searchedGrid_.reset();
    views_->designSpace()->setResults(results_);
    if (baselines_) {
        comparisonPinned_ = false;
        views_->comparisonView()->setBaselines(*baselines_);
        // A multi-model chart plots objectives: one model's reference throughput has no place.
        if (!baselines_->referenceInSpace && !(report_ && report_->models.size() > 1))
            views_->designSpace()->setReferenceOutcome(baselines_->referencePlaced,
                                                       tr("reference chip"));
    }
    refreshResultsState();
}

void Workspace::showReport(std::shared_ptr<const core::io::SearchReport> report,
                           const QString& owner) {
    report_ = std::move(report);
    shownModel_ = 0;
    refusedFingerprint_.clear();
    ranking_->cancel();  // a ranking of the results before these is not wanted
    rankingFingerprint_.clear();
    searchedSpace_ = core::search::SearchSpace{};
    searchedSpace_.base = report_->baseHardware;
    searchedRun_ = report_->run;  // a re-export keeps saying which run it was
    resultsOwner_ = owner;
    if (report_->run && report_->run->shard.count > 0)  // `search --shard K/N`: a part only
        resultsOwner_ += tr(" — shard %1/%2 of the search")
                             .arg(report_->run->shard.index)
                             .arg(report_->run->shard.count);
    // The set-up as searched: ranked as the results are (Rank by alone differing, they are
    // ranked again rather than stale).
    core::io::ProjectFile searched = setup_->project();
    searched.objective = report_->objective;
    resultsFingerprint_ = searched.searchFingerprint();
    DesignSpaceChart* designSpace = views_->designSpace();
    designSpace->clear();
    designSpace->clearSpace();  // an earlier search's values are not these results' values
    QStringList modelNames;
    for (const auto& model : report_->models) modelNames << text(model.name);
    designSpace->setObjective(report_->objective);
    designSpace->setModelNames(modelNames);
    designSpace->setOwner(resultsOwner_);
    designSpace->setStale({});
    designSpace->setReferencePoint(report_->baseHardware.accelerator);
    adoptResults(report_->results, report_->models.empty()
                                       ? nullptr
                                       : std::make_shared<const core::search::SearchBaselines>(
                                             report_->models.front().baselines));
    views_->showPage(designSpace);
}

void Workspace::openResults(const QString& path) {
    projectResultsLoad_ = 0;
    resultsLoad_ = filesJob_->load(path);
    readout_->showFileActivity(tr("Reading %1…").arg(QFileInfo(path).fileName()));
}

void Workspace::resultsLoaded(quint64 id, const QString& path,
                              std::shared_ptr<const core::io::SearchReport> report) {
    if (id == projectResultsLoad_) {  // the saved project's own results: its set-up
        showReport(std::move(report), describe(setup_->pointRequest()));
        // As it was saved: the selected point (of the model the views showed) and the tab.
        if (const qint64 point = std::exchange(reopenPoint_, -1); point >= 0) {
            shownModel_ = reopenModel_;
            selectSearchPoint(point);
        }
        if (reopenTab_ >= 0) views_->setCurrentIndex(std::exchange(reopenTab_, -1));
        return;
    }
    if (id != resultsLoad_) return;
    // The file names its model: show the set-up on it when it is another loadable one.
    const QString model = report->models.empty() ? QString() : text(report->models.front().name);
    const QString before = setup_->model() ? text(setup_->model()->name()) : QString();
    const QStringList extrasBefore = setup_->extraModels();
    if (!model.isEmpty() && before != model)
        setModel(model);  // a zoo name; a file's model stays as it is when it cannot be loaded
    if (report->models.size() > 1) {  // a multi-model file: its other models become the extras
        QStringList extra;
        for (std::size_t m = 1; m < report->models.size(); ++m)
            extra << text(report->models[m].name);
        setup_->setExtraModels(extra);  // one that cannot be loaded is reported and left out
    }
    // What opening them changed in the set-up, said where the user looks (issue 27, item 6).
    QStringList changed;
    if (report->objective != setup_->project().objective) {
        setup_->searchSpaceEditor()->setObjective(report->objective);
        changed << tr("the set-up ranks by %1 as they are")
                       .arg(QString::fromUtf8(core::search::objectiveTitle(report->objective)));
    }
    const QString after = setup_->model() ? text(setup_->model()->name()) : QString();
    if (after != before)
        changed << tr("the set-up's model is now %1 (was %2)")
                       .arg(after, before.isEmpty() ? tr("none") : before);
    if (setup_->extraModels() != extrasBefore)
        changed << tr("the models searched beside it are now %1")
                       .arg(setup_->extraModels().isEmpty() ? tr("none")
                                                            : setup_->extraModels().join(", "));
    showReport(std::move(report), tr("%1 (%2)").arg(model.isEmpty() ? tr("unnamed model") : model,
                                                    QFileInfo(path).fileName()));
    QString opened = tr("Opened %1: %2 points")
                         .arg(QFileInfo(path).fileName(),
                              text(core::formatCount(double(results_->points().size()))));
    if (!changed.isEmpty()) {
        opened += tr("; to match them, ") + changed.join(tr("; "));
        readout_->setText(opened);  // stays until the next activity, unlike the message
    }
    emit transientMessage(opened, kTransientMessageMs);
}

void Workspace::resultsFileFailed(quint64 id, const QString& path, const QString& message) {
    lastError_ = message;
    if (id != resultsLoad_ && id != lastResultsSave_) {  // not asked for by a dialog
        emit transientMessage(tr("Results file not read: %1").arg(message), kTransientMessageMs);
        return;
    }
    emit warning(tr("Results file"), tr("%1\n\n(%2)").arg(message, QDir::toNativeSeparators(path)));
}

QString Workspace::resultsPathFor(const QString& projectPath) {
    const QFileInfo info(projectPath);
    return info.absolutePath() + "/" + info.completeBaseName() + ".results.json";
}

void Workspace::exportResultsTo(const QString& path, bool json) {
    if (json && report_)
        lastResultsSave_ = filesJob_->saveJson(report_, path);
    else if (results_)
        lastResultsSave_ = filesJob_->saveCsv(results_, path);
    readout_->showFileActivity(tr("Writing %1…").arg(QFileInfo(path).fileName()));
}

// The search's batches, progress and end; the results files' answers and busy state; points
// picked in the design space.
void Workspace::connectSearchAndFiles() {
    DesignSpaceChart* designSpace = views_->designSpace();
    connect(searchJob_, &SearchJob::pointsReady, designSpace, &DesignSpaceChart::addPoints);
    connect(searchJob_, &SearchJob::progress, readout_, &StatusReadout::showSearchProgress);
    connect(searchJob_, &SearchJob::finished, this, &Workspace::searchFinished);
    connect(searchJob_, &SearchJob::failed, this, [this](const QString& message) {
        lastError_ = message;
        readout_->setText(tr("Search failed: %1").arg(message));
        emit warning(tr("Search failed"), message);
    });
    connect(searchJob_, &SearchJob::runningChanged, readout_, &StatusReadout::setSearchRunning);
    connect(readout_, &StatusReadout::cancelClicked, this, &Workspace::cancelSearch);
    connect(designSpace, &DesignSpaceChart::pointSelected, this, &Workspace::selectSearchPoint);
    connect(filesJob_, &ResultsFileJob::loaded, this, &Workspace::resultsLoaded);
    connect(filesJob_, &ResultsFileJob::failed, this, &Workspace::resultsFileFailed);
    connect(filesJob_, &ResultsFileJob::saved, this, [this](quint64, const QString& path) {
        emit transientMessage(tr("Wrote %1").arg(path), kTransientMessageMs);
    });
    connect(filesJob_, &ResultsFileJob::busyChanged, readout_, &StatusReadout::setFilesBusy);
}

}  // namespace tandem::ui
