// MainWindow's document side: projects (new, open, save, recent files) and exports (charts,
// results, schedule traces). Kept apart from the view wiring in main_window.cpp.
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
                                openProject(path);
                        })
            ->setToolTip(path);
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::newProject() {
    if (!session_->confirmDiscard(this, [this] { return saveProjectInteractively(false); })) return;
    const core::io::ProjectFile fresh = SetupPanel::defaultProject();
    loadingProject_ = true;
    setup_->applyProject(fresh);
    loadingProject_ = false;
    session_->reset();
    history_->reset(setup_->project());
    evaluate();
}

bool MainWindow::openProject(const QString& path) {
    auto project = session_->load(path);
    QString error;
    if (project) {
        loadingProject_ = true;
        const bool applied = setup_->applyProject(*project, &error);
        loadingProject_ = false;
        if (applied) {
            if (auto tab = project->view.find("tab"); tab != project->view.end())
                tabs_->setCurrentIndex(QString::fromStdString(tab->second).toInt());
            session_->setModified(false);
            history_->reset(setup_->project());
            evaluate();
            if (!project->results.empty()) {
                resultsLoad_ = 0;
                projectResultsLoad_ = filesJob_->load(QString::fromStdString(project->results));
            }
            return true;
        }
        session_->reset();
    } else {
        error = QString::fromStdString(project.message());
        session_->forgetRecent(path);
    }
    lastError_ = error;
    QMessageBox::warning(this, tr("Cannot open project"), error);
    return false;
}

bool MainWindow::saveProject(const QString& path) {
    core::io::ProjectFile project = setup_->project();
    project.view["tab"] = std::to_string(tabs_->currentIndex());
    // The results go beside the project when they answer its set-up.
    const bool withResults = report_ && !designSpace_->isStale() && !searchJob_->running();
    if (withResults) project.results = resultsPathFor(path).toStdString();
    const QString error = session_->save(project, path);
    if (error.isEmpty()) {
        history_->stack()->setClean();
        if (withResults) exportResultsTo(resultsPathFor(path), true);
        statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
        return true;
    }
    lastError_ = error;
    QMessageBox::warning(this, tr("Cannot save project"), error);
    return false;
}

void MainWindow::openProjectInteractively() {
    if (!session_->confirmDiscard(this, [this] { return saveProjectInteractively(false); })) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open project"),
                                                      session_->lastFolder(), kProjectFilter);
    if (!path.isEmpty()) openProject(path);
}

bool MainWindow::saveProjectInteractively(bool saveAs) {
    QString path = session_->path();
    if (saveAs || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(
            this, tr("Save project"), session_->lastFolder() + "/project.tandem", kProjectFilter);
        if (path.isEmpty()) return false;
    }
    return saveProject(path);
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
