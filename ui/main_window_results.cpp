// MainWindow's search results as documents: a finished search or a results file becomes the
// shown report (design space, Comparison), exports write it in the background, a saved project
// keeps it next to itself ("<project>.results.json") and reopening shows it again, and File ▸
// Open results… loads any `tandem-cli search --json` file (e.g. from a cluster run).
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include "core/common/units.h"
#include "ui/charts/design_space_chart.h"
#include "ui/jobs/results_file_job.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/widgets/elided_label.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

void MainWindow::searchFinished(std::shared_ptr<const core::search::SearchResults> results,
                                std::shared_ptr<const core::search::SearchBaselines> baselines) {
    if (const auto outcome = searchJob_->lastOutcome()) {
        core::io::SearchReport report = core::io::makeSearchReport(*outcome, searchedSpace_.base);
        report.run = searchedRun_;
        report_ = std::make_shared<const core::io::SearchReport>(std::move(report));
    }
    adoptResults(std::move(results), std::move(baselines));
    const auto& s = results_->statistics();
    status_->setFullText(tr("Search %1: %2 points in %3")
                             .arg(s.cancelled ? tr("cancelled") : tr("finished"))
                             .arg(text(core::formatCount(double(s.evaluated))))
                             .arg(text(core::formatSeconds(s.wallSeconds))));
    if (results_->best() && shownPoint_ < 0 && viewsUpToDate() && !designSpace_->isStale())
        selectSearchPoint(results_->points()[*results_->best()].point.index);
}

void MainWindow::adoptResults(std::shared_ptr<const core::search::SearchResults> results,
                              std::shared_ptr<const core::search::SearchBaselines> baselines) {
    results_ = std::move(results);
    baselines_ = std::move(baselines);
    searchedGrid_.reset();
    designSpace_->setResults(results_);
    if (baselines_) {
        comparisonPinned_ = false;
        comparison_->setBaselines(*baselines_);
        // A multi-model chart plots objectives: one model's reference throughput has no place.
        if (!baselines_->referenceInSpace && !(report_ && report_->models.size() > 1))
            designSpace_->setReferenceOutcome(baselines_->referencePlaced, tr("reference chip"));
    }
    refreshResultsState();
}

void MainWindow::showReport(std::shared_ptr<const core::io::SearchReport> report,
                            const QString& owner) {
    report_ = std::move(report);
    searchedSpace_ = core::search::SearchSpace{};
    searchedSpace_.base = report_->baseHardware;
    searchedRun_ = report_->run;  // a re-export keeps saying which run it was
    resultsOwner_ = owner;
    if (report_->run && report_->run->shard.count > 0)  // `search --shard K/N`: a part only
        resultsOwner_ += tr(" — shard %1/%2 of the search")
                             .arg(report_->run->shard.index)
                             .arg(report_->run->shard.count);
    resultsFingerprint_ = setup_->project().searchFingerprint();
    designSpace_->clear();
    QStringList modelNames;
    for (const auto& model : report_->models) modelNames << text(model.name);
    designSpace_->setModelNames(modelNames);
    designSpace_->setOwner(resultsOwner_);
    designSpace_->setStale({});
    designSpace_->setReferencePoint(report_->baseHardware.accelerator);
    adoptResults(report_->results, report_->models.empty()
                                       ? nullptr
                                       : std::make_shared<const core::search::SearchBaselines>(
                                             report_->models.front().baselines));
    showPage(designSpace_);
}

void MainWindow::openResultsInteractively() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open results"), session_->lastFolder(),
                                     tr("Search results (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    session_->rememberFolder(path);
    openResults(path);
}

void MainWindow::openResults(const QString& path) {
    projectResultsLoad_ = 0;
    resultsLoad_ = filesJob_->load(path);
    showFileActivity(tr("Reading %1…").arg(QFileInfo(path).fileName()));
}

void MainWindow::resultsLoaded(quint64 id, const QString& path,
                               std::shared_ptr<const core::io::SearchReport> report) {
    if (id == projectResultsLoad_) {  // the saved project's own results: its set-up
        showReport(std::move(report), describe(setup_->pointRequest()));
        return;
    }
    if (id != resultsLoad_) return;
    // The file names its model: show the set-up on it when it is another loadable one.
    const QString model = report->models.empty() ? QString() : text(report->models.front().name);
    if (!model.isEmpty() && (!setup_->model() || text(setup_->model()->name()) != model))
        setModel(model);  // a zoo name; a file's model stays as it is when it cannot be loaded
    if (report->models.size() > 1) {  // a multi-model file: its other models become the extras
        QStringList extra;
        for (std::size_t m = 1; m < report->models.size(); ++m)
            extra << text(report->models[m].name);
        setup_->setExtraModels(extra);  // one that cannot be loaded is reported and left out
    }
    showReport(std::move(report), tr("%1 (%2)").arg(model.isEmpty() ? tr("unnamed model") : model,
                                                    QFileInfo(path).fileName()));
    statusBar()->showMessage(tr("Opened %1: %2 points")
                                 .arg(QFileInfo(path).fileName(),
                                      text(core::formatCount(double(results_->points().size())))),
                             kTransientMessageMs);
}

void MainWindow::resultsFileFailed(quint64 id, const QString& path, const QString& message) {
    lastError_ = message;
    if (id != resultsLoad_ && id != lastResultsSave_) {  // not asked for by a dialog
        statusBar()->showMessage(tr("Results file not read: %1").arg(message), kTransientMessageMs);
        return;
    }
    QMessageBox::warning(this, tr("Results file"),
                         tr("%1\n\n(%2)").arg(message, QDir::toNativeSeparators(path)));
}

QString MainWindow::resultsPathFor(const QString& projectPath) {
    const QFileInfo info(projectPath);
    return info.absolutePath() + "/" + info.completeBaseName() + ".results.json";
}

void MainWindow::exportResults(bool json) {
    if (!results_) {
        QMessageBox::information(this, tr("Export results"),
                                 tr("There are no search results yet: run a search first "
                                    "(Search ▸ Start search, Ctrl+R)."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export results"),
        session_->lastFolder() + (json ? "/results.json" : "/results.csv"),
        json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    session_->rememberFolder(path);
    exportResultsTo(path, json);
}

void MainWindow::exportResultsTo(const QString& path, bool json) {
    if (json && report_)
        lastResultsSave_ = filesJob_->saveJson(report_, path);
    else if (results_)
        lastResultsSave_ = filesJob_->saveCsv(results_, path);
    showFileActivity(tr("Writing %1…").arg(QFileInfo(path).fileName()));
}

void MainWindow::showFileActivity(const QString& activity) {
    if (fileActivity_.isEmpty() || status_->fullText() != fileActivity_)
        readoutBeforeFiles_ = status_->fullText();
    fileActivity_ = activity;
    status_->setFullText(activity);
}

// The search's batches, progress and end; the results files' answers and busy state; points
// picked in the design space.
void MainWindow::connectSearchAndFiles() {
    connect(searchJob_, &SearchJob::pointsReady, this,
            [this](const std::vector<core::search::EvaluatedPoint>& points) {
                designSpace_->addPoints(points);
            });
    connect(searchJob_, &SearchJob::progress, this, [this](const core::search::SearchProgress& p) {
        progress_->setRange(0, 1000);
        progress_->setValue(p.total > 0 ? int(1000.0 * double(p.done) / double(p.total)) : 0);
        status_->setFullText(text(core::search::ProgressMeter::format(p)));
        askAboutLongSearch(p);
    });
    connect(searchJob_, &SearchJob::finished, this, &MainWindow::searchFinished);
    connect(searchJob_, &SearchJob::failed, this, [this](const QString& message) {
        lastError_ = message;
        status_->setFullText(tr("Search failed: %1").arg(message));
        QMessageBox::warning(this, tr("Search failed"), message);
    });
    connect(searchJob_, &SearchJob::runningChanged, this, [this](bool running) {
        startSearch_->setEnabled(!running);
        cancelSearch_->setEnabled(running);
        cancelButton_->setVisible(running);
        progress_->setVisible(running);
    });
    connect(designSpace_, &DesignSpaceChart::pointSelected, this, &MainWindow::selectSearchPoint);
    connect(designSpace_, &DesignSpaceChart::pointMenuRequested, this,
            [this](qint64 index, const QPoint& at) { pointMenu(index)->popup(at); });
    connect(filesJob_, &ResultsFileJob::loaded, this, &MainWindow::resultsLoaded);
    connect(filesJob_, &ResultsFileJob::failed, this, &MainWindow::resultsFileFailed);
    connect(filesJob_, &ResultsFileJob::saved, this, [this](quint64, const QString& path) {
        statusBar()->showMessage(tr("Wrote %1").arg(path), kTransientMessageMs);
    });
    connect(filesJob_, &ResultsFileJob::busyChanged, this, [this](bool busy) {
        if (!busy && !fileActivity_.isEmpty()) {  // done or failed: the readout it replaced
            if (status_->fullText() == fileActivity_) status_->setFullText(readoutBeforeFiles_);
            fileActivity_.clear();
        }
        if (searchJob_->running()) return;        // the search owns the progress bar
        progress_->setRange(0, busy ? 0 : 1000);  // busy: an indeterminate bar
        progress_->setVisible(busy);
    });
}

}  // namespace tandem::ui
