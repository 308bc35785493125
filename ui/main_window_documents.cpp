// MainWindow's document side: projects (new, open, save, recent files) and exports (charts,
// results, schedule traces). Kept apart from the view wiring in main_window.cpp. Project files
// are read and written by ProjectFileJob and their models loaded by the set-up's ModelChooser,
// off the GUI thread; openProject() and saveProject() wait for them (command-line arguments,
// tests, "Save" before discarding changes).
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

#include "core/io/search_results_json.h"
#include "ui/charts/chart_widget.h"
#include "ui/charts/design_space_chart.h"
#include "ui/charts/device_map_chart.h"
#include "ui/charts/gantt_chart.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/charts/point_text.h"
#include "ui/jobs/project_file_job.h"
#include "ui/jobs/results_file_job.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/panels/pipeline_view.h"
#include "ui/panels/placement_view.h"
#include "ui/panels/schedule_view.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/setup_history.h"

namespace tandem::ui {

namespace {
const QString kProjectFilter = QObject::tr("Tandem projects (*.tandem *.json);;All files (*)");
}

void MainWindow::refreshTitle() {
    setWindowTitle(tr("%1[*] — Tandem").arg(session_->displayName()));
    setWindowModified(session_->isModified());
}

void MainWindow::refreshRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = session_->recentFiles();
    for (const QString& path : recent)
        recentMenu_
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (session_->confirmDiscard(
                                    this, [this] { return saveProjectInteractively(false); }))
                                openProjectInBackground(path);
                        })
            ->setToolTip(path);
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::newProject() {
    if (!session_->confirmDiscard(this, [this] { return saveProjectInteractively(false); })) return;
    abandonProjectOpen();
    const core::io::ProjectFile fresh = SetupPanel::defaultProject();
    loadingProject_ = true;
    setup_->applyProject(fresh);
    loadingProject_ = false;
    session_->reset();
    history_->reset(setup_->project());
    evaluate();
}

void MainWindow::connectProjectFiles() {
    connect(projectFiles_, &ProjectFileJob::loaded, this, &MainWindow::projectRead);
    connect(projectFiles_, &ProjectFileJob::saved, this, &MainWindow::projectSaved);
    connect(projectFiles_, &ProjectFileJob::failed, this, &MainWindow::projectFileFailed);
    connect(setup_, &SetupPanel::projectAboutToApply, this, [this](quint64 id) {
        if (id == projectApply_) loadingProject_ = true;
    });
    connect(setup_, &SetupPanel::loadEnded, this, &MainWindow::setupLoadEnded);
}

bool MainWindow::openProject(const QString& path) {
    abandonProjectOpen();
    auto project = core::io::ProjectFile::load(path.toStdString());
    QString error;
    if (project) {
        loadingProject_ = true;
        const bool applied = setup_->applyProject(*project, &error);
        loadingProject_ = false;
        if (applied) {
            projectOpened(path, *project);
            return true;
        }
    } else {
        error = QString::fromStdString(project.message());
        session_->forgetRecent(path);
    }
    lastError_ = error;
    QMessageBox::warning(this, tr("Cannot open project"), error);
    return false;
}

void MainWindow::openProjectInBackground(const QString& path) {
    abandonProjectOpen();
    projectRead_ = projectFiles_->load(path);
    statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()),
                             kTransientMessageMs);
}

void MainWindow::abandonProjectOpen() {
    if (projectRead_) projectFiles_->abandon(std::exchange(projectRead_, 0));
    if (std::exchange(projectApply_, 0)) setup_->cancelLoading();
    openingProject_.reset();
}

void MainWindow::projectRead(quint64 id, const QString& path,
                             std::shared_ptr<const core::io::ProjectFile> project) {
    if (id != projectRead_) return;
    projectRead_ = 0;
    openingPath_ = path;
    openingProject_ = std::move(project);
    projectApply_ = setup_->applyProjectInBackground(*openingProject_);
}

void MainWindow::setupLoadEnded(quint64 id, bool adopted, const QString& error) {
    if (id == modelOpen_) {  // File ▸ Open model…: a failure gets a dialog
        modelOpen_ = 0;
        if (!adopted && !error.isEmpty()) {
            lastError_ = error;
            QMessageBox::warning(this, tr("Cannot open model"), error);
        }
        return;
    }
    if (id != projectApply_) return;
    projectApply_ = 0;
    loadingProject_ = false;
    const std::shared_ptr<const core::io::ProjectFile> project = std::move(openingProject_);
    openingProject_.reset();
    if (adopted) {
        projectOpened(openingPath_, *project);
    } else if (!error.isEmpty()) {  // its model cannot be loaded: the open project stays
        lastError_ = error;
        QMessageBox::warning(this, tr("Cannot open project"), error);
    } else {
        statusBar()->showMessage(tr("Opening %1 cancelled").arg(QFileInfo(openingPath_).fileName()),
                                 kTransientMessageMs);
    }
}

void MainWindow::projectOpened(const QString& path, const core::io::ProjectFile& project) {
    if (auto tab = project.view.find("tab"); tab != project.view.end())
        tabs_->setCurrentIndex(QString::fromStdString(tab->second).toInt());
    session_->markOpened(path);
    history_->reset(setup_->project());
    evaluate();
    if (!project.results.empty()) {
        resultsLoad_ = 0;
        projectResultsLoad_ = filesJob_->load(QString::fromStdString(project.results));
    }
}

void MainWindow::openModelInBackground(const QString& path) {
    modelOpen_ = setup_->pickModel(path);
}

bool MainWindow::saveProject(const QString& path) {
    const quint64 id = saveProjectInBackground(path);
    projectFiles_->finish();  // answered (saved or failed) before it returns
    return failedSave_ != id;
}

quint64 MainWindow::saveProjectInBackground(const QString& path) {
    core::io::ProjectFile project = setup_->project();
    PendingSave pending{setup_->project(), nullptr};
    project.view["tab"] = std::to_string(tabs_->currentIndex());
    // The results go beside the project when they answer its set-up.
    if (report_ && !designSpace_->isStale() && !searchJob_->running()) {
        project.results = resultsPathFor(path).toStdString();
        pending.results = report_;
    }
    const quint64 id = projectFiles_->save(project, path);
    pendingSaves_.emplace(id, std::move(pending));
    statusBar()->showMessage(tr("Saving %1…").arg(path), kTransientMessageMs);
    return id;
}

void MainWindow::projectSaved(quint64 id, const QString& path) {
    const auto it = pendingSaves_.find(id);
    if (it == pendingSaves_.end()) return;
    const PendingSave saved = std::move(it->second);
    pendingSaves_.erase(it);
    session_->markSaved(path);
    // Unmodified when the set-up is still what was saved; edited meanwhile, it stays modified
    // and no step of the history is the saved one.
    if (setup_->project() == saved.setup) {
        history_->stack()->setClean();
    } else {
        history_->stack()->resetClean();
        session_->setModified(true);
    }
    if (saved.results) {
        const QString results = resultsPathFor(path);
        lastResultsSave_ = filesJob_->saveJson(saved.results, results);
        showFileActivity(tr("Writing %1…").arg(QFileInfo(results).fileName()));
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
}

void MainWindow::projectFileFailed(quint64 id, const QString& path, const QString& message) {
    lastError_ = message;
    if (pendingSaves_.erase(id)) {
        failedSave_ = id;
        QMessageBox::warning(this, tr("Cannot save project"), message);
        return;
    }
    if (id != projectRead_) return;
    projectRead_ = 0;
    session_->forgetRecent(path);
    QMessageBox::warning(this, tr("Cannot open project"), message);
}

void MainWindow::openProjectInteractively() {
    if (!session_->confirmDiscard(this, [this] { return saveProjectInteractively(false); })) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open project"),
                                                      session_->lastFolder(), kProjectFilter);
    if (!path.isEmpty()) openProjectInBackground(path);
}

bool MainWindow::saveProjectInteractively(bool saveAs, bool wait) {
    QString path = session_->path();
    if (saveAs || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(
            this, tr("Save project"), session_->lastFolder() + "/project.tandem", kProjectFilter);
        if (path.isEmpty()) return false;
    }
    if (wait) return saveProject(path);
    saveProjectInBackground(path);
    return true;
}

QString MainWindow::chartCaption(bool designSpace) const {
    if (designSpace)
        return resultsOwner_.isEmpty() ? QString()
                                       : tr("Tandem · design space of %1").arg(resultsOwner_);
    QString caption = tr("Tandem · %1").arg(describe(shownRequest_));
    if (shownPoint_ >= 0) caption += tr(" · design-space point %1").arg(shownPoint_);
    if (placement_ && placement_->result.plan)
        caption += tr(" · %1").arg(planShapeText(*placement_->result.plan));
    return caption;
}

void MainWindow::exportCurrentChart() {
    QWidget* page = currentPage();
    ChartWidget* chart = nullptr;
    if (page == schedule_)
        chart = schedule_->chart();
    else if (page == pipeline_)
        chart = pipeline_->chart();
    else if (page == placementView_)
        chart = placementView_->deviceMap();
    else if (page == designSpace_)
        chart = designSpace_;
    if (!chart) {
        QMessageBox::information(this, tr("Export chart"),
                                 tr("This tab has no chart. Choose Design space, Schedule, "
                                    "Pipeline or Placement first."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"),
                                                      session_->lastFolder() + "/chart.png",
                                                      ChartWidget::exportFilter());
    if (path.isEmpty()) return;
    session_->rememberFolder(path);
    const QString error = chart->exportTo(path, 0, 0, chartCaption(chart == designSpace_));
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot export chart"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
}

void MainWindow::exportTrace() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export schedule trace"), session_->lastFolder() + "/schedule.trace.json",
        tr("Chrome trace (*.json)"));
    if (path.isEmpty()) return;
    session_->rememberFolder(path);
    const QString error = schedule_->exportTrace(path, true);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot export trace"), error);
    else
        statusBar()->showMessage(tr("Exported %1 (open it in Perfetto)").arg(path), 4000);
}

}  // namespace tandem::ui
