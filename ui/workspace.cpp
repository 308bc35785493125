#include "ui/workspace.h"

#include <QUndoStack>

#include "ui/charts/design_space_chart.h"
#include "ui/editors/search_space_editor.h"
#include "ui/jobs/estimate_job.h"
#include "ui/jobs/job_runner.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/jobs/project_file_job.h"
#include "ui/jobs/results_file_job.h"
#include "ui/jobs/search_job.h"
#include "ui/panels/current_point_bar.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/setup_history.h"
#include "ui/view_tabs.h"
#include "ui/widgets/status_readout.h"

namespace tandem::ui {

Workspace::Workspace(SetupPanel* setup, ViewTabs* views, CurrentPointBar* bar,
                     StatusReadout* readout, QObject* parent)
    : QObject(parent),
      setup_(setup),
      views_(views),
      bar_(bar),
      readout_(readout),
      session_(new ProjectSession(this)),
      history_(new SetupHistory(this)),
      pointJob_(new PointEvaluationJob(this)),
      setupJob_(new PointEvaluationJob(this)),
      estimateJob_(new EstimateJob(this)),
      searchJob_(new SearchJob(this)),
      filesJob_(new ResultsFileJob(this)),
      projectFiles_(new ProjectFileJob(this)),
      ranking_(new JobRunner(JobRunner::Answers::LatestOnly, 1, this)) {
    connectSetup();
    connectProjectFiles();
    connectPointJobs();
    connectSearchAndFiles();
    history_->reset(setup_->project());
}

Workspace::~Workspace() = default;

// Edits of the set-up: each one an undo step, and the set-up becomes the current point.
void Workspace::connectSetup() {
    connect(setup_, &SetupPanel::pointChanged, this, &Workspace::setupChanged);
    connect(setup_, &SetupPanel::validityChanged, this, [this] {
        if (!loadingProject_ && shownPoint_ < 0) requestPoint();
    });
    connect(setup_, &SetupPanel::searchChanged, this, [this] {
        if (loadingProject_) return;
        history_->record(setup_->project(), tr("Edit search space"));
        refreshResultsState();
    });
    connect(setup_, &SetupPanel::modelLoadFailed, this, [this](const QString& message) {
        lastError_ = message;
        emit transientMessage(message, kTransientMessageMs);
    });
    connect(bar_, &CurrentPointBar::useAsSetUp, this, &Workspace::usePointAsSetUp);
    connect(bar_, &CurrentPointBar::compareWithSetUp, this, &Workspace::compareWithSetUp);
    connect(bar_, &CurrentPointBar::backToSetUp, this, &Workspace::showSetUp);
    connect(views_->designSpace(), &DesignSpaceChart::objectiveChosen, this,
            [this](core::search::SearchObjective objective) {
                if (objective != setup_->project().objective) {
                    setup_->searchSpaceEditor()->setObjective(objective);  // the set-up's Rank by
                    history_->record(setup_->project(), tr("Rank by"));
                }
                refreshResultsState();  // also when the set-up already ranked by it
            });
    connect(bar_, &CurrentPointBar::modelChosen, this, [this](int model) {
        shownModel_ = std::size_t(std::max(0, model));
        if (shownPoint_ >= 0) selectSearchPoint(shownPoint_);
    });
    connect(history_, &SetupHistory::restoreRequested, this,
            [this](const core::io::ProjectFile& project) {
                loadingProject_ = true;
                setup_->applyProject(project);
                loadingProject_ = false;
                showSetUp();
            });
    // Modified means "not at the saved step": undoing back to it is no change (saveProject
    // marks the step, New and Open start clean). (The session is the context: the stack's
    // destructor emits cleanChanged after it is gone.)
    connect(history_->stack(), &QUndoStack::cleanChanged, session_,
            [this](bool clean) { session_->setModified(!clean); });
}

bool Workspace::setModel(const QString& nameOrPath) {
    QString error;
    if (!setup_->setModel(nameOrPath, &error)) {
        lastError_ = error;
        return false;
    }
    lastError_.clear();
    return true;
}

bool Workspace::setHardware(const QString& nameOrPath) {
    QString error;
    if (!setup_->setHardware(nameOrPath, &error)) {
        lastError_ = error;
        return false;
    }
    lastError_.clear();
    return true;
}

void Workspace::setupChanged() {
    if (loadingProject_) return;
    history_->record(setup_->project(),
                     nextEditName_.isEmpty() ? tr("Edit set-up") : nextEditName_);
    showSetUp();
}

void Workspace::useCalibratedHardware(const core::hardware::HardwarePoint& point) {
    nextEditName_ = tr("Use calibrated hardware");
    setup_->useHardware(point);  // pointChanged → setupChanged: one undo step of that name
    nextEditName_.clear();
    emit transientMessage(tr("The set-up now uses %1").arg(QString::fromStdString(point.name)),
                          kTransientMessageMs);
}

}  // namespace tandem::ui
