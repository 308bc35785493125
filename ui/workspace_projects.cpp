// The Workspace's projects: new, open and save. Project files are read and written by
// ProjectFileJob and their models loaded by the set-up's ModelChooser, off the GUI thread;
// openProject() and saveProject() wait for them (command-line arguments, tests, "Save" before
// discarding changes). A saved project keeps the results that answer its set-up beside it.
#include <QFileInfo>
#include <QUndoStack>

#include "ui/charts/design_space_chart.h"
#include "ui/jobs/project_file_job.h"
#include "ui/jobs/results_file_job.h"
#include "ui/jobs/search_job.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/setup_history.h"
#include "ui/view_tabs.h"
#include "ui/widgets/status_readout.h"
#include "ui/workspace.h"

#include "ui/panels/energy_budget_box.h"
#include "ui/panels/summary_panel.h"

namespace tandem::ui {

void Workspace::newProject() {
    abandonProjectOpen();
    const core::io::ProjectFile fresh = SetupPanel::defaultProject();
    loadingProject_ = true;
    setup_->applyProject(fresh);
    loadingProject_ = false;
    session_->reset();
    history_->reset(setup_->project());
    evaluate();
}

void Workspace::connectProjectFiles() {
    connect(projectFiles_, &ProjectFileJob::loaded, this, &Workspace::projectRead);
    connect(projectFiles_, &ProjectFileJob::saved, this, &Workspace::projectSaved);
    connect(projectFiles_, &ProjectFileJob::failed, this, &Workspace::projectFileFailed);
    connect(setup_, &SetupPanel::projectAboutToApply, this, [this](quint64 id) {
        if (id == projectApply_) loadingProject_ = true;
    });
    connect(setup_, &SetupPanel::loadEnded, this, &Workspace::setupLoadEnded);
}

bool Workspace::openProject(const QString& path) {
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
    emit warning(tr("Cannot open project"), error);
    return false;
}

void Workspace::openProjectInBackground(const QString& path) {
    abandonProjectOpen();
    projectRead_ = projectFiles_->load(path);
    emit transientMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()), kTransientMessageMs);
}

void Workspace::abandonProjectOpen() {
    if (projectRead_) projectFiles_->abandon(std::exchange(projectRead_, 0));
    if (std::exchange(projectApply_, 0)) setup_->cancelLoading();
    openingProject_.reset();
}

void Workspace::projectRead(quint64 id, const QString& path,
                            std::shared_ptr<const core::io::ProjectFile> project) {
    if (id != projectRead_) return;
    projectRead_ = 0;
    openingPath_ = path;
    openingProject_ = std::move(project);
    projectApply_ = setup_->applyProjectInBackground(*openingProject_);
}

void Workspace::setupLoadEnded(quint64 id, bool adopted, const QString& error) {
    if (id == modelOpen_) {  // File ▸ Open model…: a failure is a warning
        modelOpen_ = 0;
        if (!adopted && !error.isEmpty()) {
            lastError_ = error;
            emit warning(tr("Cannot open model"), error);
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
        emit warning(tr("Cannot open project"), error);
    } else {
        emit transientMessage(tr("Opening %1 cancelled").arg(QFileInfo(openingPath_).fileName()),
                              kTransientMessageMs);
    }
}

void Workspace::projectOpened(const QString& path, const core::io::ProjectFile& project) {
    reopenTab_ = -1;
    if (auto tab = project.view.find("tab"); tab != project.view.end()) {
        reopenTab_ = QString::fromStdString(tab->second).toInt();
        views_->setCurrentIndex(reopenTab_);
    }
    // The Summary's token budget and price (view state: they price a plan, not search one).
    const auto number = [&](const char* key) {
        const auto it = project.view.find(key);
        bool ok = false;
        const double value =
            it == project.view.end() ? -1.0 : QString::fromStdString(it->second).toDouble(&ok);
        return ok ? value : -1.0;
    };
    views_->summary()->energyBudget()->setBudget(number("tokens"), number("price_per_device_hour"));
    // The point selected when it was saved: selected again once the results load.
    reopenPoint_ = project.results.empty() ? -1 : qint64(number("point"));
    reopenModel_ = std::size_t(std::max(0.0, number("point_model")));
    session_->markOpened(path);
    history_->reset(setup_->project());
    evaluate();
    if (!project.results.empty()) {
        resultsLoad_ = 0;
        projectResultsLoad_ = filesJob_->load(QString::fromStdString(project.results));
    }
}

void Workspace::openModelInBackground(const QString& path) {
    modelOpen_ = setup_->pickModel(path);
}

bool Workspace::saveProject(const QString& path) {
    const quint64 id = saveProjectInBackground(path);
    projectFiles_->finish();  // answered (saved or failed) before it returns
    return failedSave_ != id;
}

quint64 Workspace::saveProjectInBackground(const QString& path) {
    core::io::ProjectFile project = setup_->project();
    PendingSave pending{setup_->project(), nullptr};
    project.view["tab"] = std::to_string(views_->currentIndex());
    const EnergyBudgetBox* budget = views_->summary()->energyBudget();
    project.view["tokens"] = QString::number(budget->tokens(), 'g', 17).toStdString();
    project.view["price_per_device_hour"] =
        QString::number(budget->pricePerDeviceHour(), 'g', 17).toStdString();
    // The results go beside the project when they answer its set-up, with the selected point.
    if (report_ && !views_->designSpace()->isStale() && !searchJob_->running()) {
        project.results = resultsPathFor(path).toStdString();
        pending.results = report_;
        if (shownPoint_ >= 0) {
            project.view["point"] = std::to_string(shownPoint_);
            project.view["point_model"] = std::to_string(shownModel_);
        }
    }
    const quint64 id = projectFiles_->save(project, path);
    pendingSaves_.emplace(id, std::move(pending));
    emit transientMessage(tr("Saving %1…").arg(path), kTransientMessageMs);
    return id;
}

void Workspace::projectSaved(quint64 id, const QString& path) {
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
        readout_->showFileActivity(tr("Writing %1…").arg(QFileInfo(results).fileName()));
    }
    emit transientMessage(tr("Saved %1").arg(path), 4000);
}

void Workspace::projectFileFailed(quint64 id, const QString& path, const QString& message) {
    lastError_ = message;
    if (pendingSaves_.erase(id)) {
        failedSave_ = id;
        emit warning(tr("Cannot save project"), message);
        return;
    }
    if (id != projectRead_) return;
    projectRead_ = 0;
    session_->forgetRecent(path);
    emit warning(tr("Cannot open project"), message);
}

}  // namespace tandem::ui
