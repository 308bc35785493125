#include "ui/file_actions.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

#include "ui/charts/chart_widget.h"
#include "ui/charts/design_space_chart.h"
#include "ui/panels/schedule_view.h"
#include "ui/project_session.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

namespace tandem::ui {

namespace {
const QString kProjectFilter = QObject::tr("Tandem projects (*.tandem *.json);;All files (*)");
}

FileActions::FileActions(QWidget* window, Workspace* workspace, ViewTabs* views)
    : QObject(window), window_(window), workspace_(workspace), views_(views) {}

bool FileActions::confirmDiscard() {
    return workspace_->session()->confirmDiscard(window_, [this] { return saveProject(false); });
}

void FileActions::newProject() {
    if (confirmDiscard()) workspace_->newProject();
}

void FileActions::openProject() {
    if (!confirmDiscard()) return;
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Open project"), workspace_->session()->lastFolder(), kProjectFilter);
    if (!path.isEmpty()) workspace_->openProjectInBackground(path);
}

bool FileActions::saveProject(bool saveAs, bool wait) {
    QString path = workspace_->session()->path();
    if (saveAs || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(window_, tr("Save project"),
                                            workspace_->session()->lastFolder() + "/project.tandem",
                                            kProjectFilter);
        if (path.isEmpty()) return false;
    }
    if (wait) return workspace_->saveProject(path);
    workspace_->saveProjectInBackground(path);
    return true;
}

void FileActions::openModel() {
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Open model"), workspace_->session()->lastFolder(),
                                     tr("Models (*.json *.onnx);;All files (*)"));
    if (!path.isEmpty()) workspace_->openModelInBackground(path);
}

void FileActions::openResults() {
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open results"),
                                                      workspace_->session()->lastFolder(),
                                                      tr("Search results (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    workspace_->session()->rememberFolder(path);
    workspace_->openResults(path);
}

void FileActions::fillRecentMenu(QMenu* menu) {
    menu->clear();
    const QStringList recent = workspace_->session()->recentFiles();
    for (const QString& path : recent)
        menu->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (confirmDiscard()) workspace_->openProjectInBackground(path);
                        })
            ->setToolTip(path);
    menu->setEnabled(!recent.isEmpty());
}

QString FileActions::savePath(const QString& title, const QString& fileName,
                              const QString& filter) {
    const QString path = QFileDialog::getSaveFileName(
        window_, title, workspace_->session()->lastFolder() + "/" + fileName, filter);
    if (!path.isEmpty()) workspace_->session()->rememberFolder(path);
    return path;
}

void FileActions::reportExport(const QString& title, const QString& error, const QString& done) {
    if (!error.isEmpty())
        QMessageBox::warning(window_, title, error);
    else
        emit workspace_->transientMessage(done, 4000);
}

void FileActions::exportResults(bool json) {
    if (!workspace_->results()) {
        QMessageBox::information(window_, tr("Export results"),
                                 tr("There are no search results yet: run a search first "
                                    "(Search ▸ Start search, Ctrl+R)."));
        return;
    }
    const QString path = savePath(tr("Export results"), json ? "results.json" : "results.csv",
                                  json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (!path.isEmpty()) workspace_->exportResultsTo(path, json);
}

void FileActions::exportPlan() {
    if (!workspace_->placement()) {
        QMessageBox::information(window_, tr("Export plan"),
                                 tr("There is no evaluated point yet: wait for the evaluation "
                                    "(F5 evaluates now)."));
        return;
    }
    const QString path = savePath(tr("Export plan"), "plan.json", tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    reportExport(tr("Cannot export plan"), workspace_->exportPlanTo(path),
                 tr("Exported %1").arg(path));
}

void FileActions::exportReport() {
    const QString path = savePath(tr("Export report"), "report.html",
                                  tr("HTML report (*.html *.htm);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    const bool pdf = QFileInfo(path).suffix().compare("pdf", Qt::CaseInsensitive) == 0;
    reportExport(
        tr("Cannot export report"), workspace_->exportReportTo(path),
        pdf ? tr("Exported %1").arg(path) : tr("Exported %1 (open it in any browser)").arg(path));
}

void FileActions::exportChart() {
    ChartWidget* chart = views_->currentChart();
    if (!chart) {
        QMessageBox::information(
            window_, tr("Export chart"),
            tr("This tab has no chart. Choose Design space, Schedule, "
               "Pipeline, Placement, Roofline, Sensitivity or Scaling first."));
        return;
    }
    const QString path = savePath(tr("Export chart"), "chart.png", ChartWidget::exportFilter());
    if (path.isEmpty()) return;
    const QString caption = workspace_->chartCaption(chart == views_->designSpace());
    reportExport(tr("Cannot export chart"), chart->exportTo(path, 0, 0, caption),
                 tr("Exported %1").arg(path));
}

void FileActions::exportTrace() {
    const QString path =
        savePath(tr("Export schedule trace"), "schedule.trace.json", tr("Chrome trace (*.json)"));
    if (path.isEmpty()) return;
    reportExport(tr("Cannot export trace"), views_->scheduleView()->exportTrace(path, true),
                 tr("Exported %1 (open it in Perfetto)").arg(path));
}

}  // namespace tandem::ui
