#include "ui/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QMenu>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/calibration/calibrate_dialog.h"
#include "ui/charts/design_space_chart.h"
#include "ui/file_actions.h"
#include "ui/jobs/project_file_job.h"
#include "ui/jobs/search_job.h"
#include "ui/panels/current_point_bar.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/search_questions.h"
#include "ui/view_tabs.h"
#include "ui/widgets/field_undo_filter.h"
#include "ui/widgets/status_readout.h"
#include "ui/workspace.h"

namespace tandem::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    resize(1400, 880);
    setup_ = new SetupPanel;
    dock_ = new QDockWidget(tr("Set-up"), this);
    dock_->setObjectName("setupDock");
    dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                       QDockWidget::DockWidgetClosable);
    dock_->setWidget(setup_);
    dock_->setMinimumWidth(340);
    addDockWidget(Qt::LeftDockWidgetArea, dock_);

    views_ = new ViewTabs(this);
    bar_ = new CurrentPointBar(this);
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(2);
    centralLayout->addWidget(bar_);
    centralLayout->addWidget(views_, 1);
    setCentralWidget(central);
    readout_ = new StatusReadout(statusBar());
    workspace_ = new Workspace(setup_, views_, bar_, readout_, this);
    files_ = new FileActions(this, workspace_, views_);
    questions_ = new SearchQuestions(this, setup_->searchSpaceEditor(), readout_);
    buildActions();
    connectWorkspace();
    qApp->installEventFilter(new FieldUndoFilter(this));

    defaultLayout_ = saveState();
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    fitToScreen();
    views_->setCurrentIndex(settings.value("window/tab", 1).toInt());
    refreshTitle();
    files_->fillRecentMenu(recentMenu_);
    workspace_->evaluate();
}

MainWindow::~MainWindow() = default;

// The Workspace's messages, questions and state, as the window shows them.
void MainWindow::connectWorkspace() {
    connect(workspace_, &Workspace::transientMessage, statusBar(), &QStatusBar::showMessage);
    connect(workspace_, &Workspace::warning, this,
            [this](const QString& title, const QString& text) {
                // Before the window is shown (a file given on the command line, which then exits
                // with an error) a modal box would wait for a user who may not be there.
                if (!isVisible()) {
                    qWarning("%s: %s", qPrintable(title), qPrintable(text));
                    return;
                }
                QMessageBox::warning(this, title, text);
            });
    connect(workspace_, &Workspace::information, this,
            [this](const QString& title, const QString& text) {
                QMessageBox::information(this, title, text);
            });
    connect(workspace_, &Workspace::exportPlanRequested, files_, &FileActions::exportPlan);
    connect(workspace_, &Workspace::setUpShown, this, [this] {
        if (calibrateDialog_) calibrateDialog_->setProjectHardware(setup_->hardware());
    });
    connect(bar_, &CurrentPointBar::exportPlan, files_, &FileActions::exportPlan);
    connect(views_->designSpace(), &DesignSpaceChart::pointMenuRequested, this,
            [this](qint64 index, const QPoint& at) { pointMenu(index)->popup(at); });
    SearchJob* search = workspace_->searchJob();
    connect(search, &SearchJob::progress, questions_, &SearchQuestions::progressed);
    connect(questions_, &SearchQuestions::stopRequested, workspace_, &Workspace::cancelSearch);
    connect(search, &SearchJob::runningChanged, this, [this](bool running) {
        startSearch_->setEnabled(!running);
        cancelSearch_->setEnabled(running);
    });
    connect(workspace_->session(), &ProjectSession::changed, this, [this] {
        refreshTitle();
        files_->fillRecentMenu(recentMenu_);
    });
}

// The default 1,400 × 880 (or a size saved on a larger monitor) shrinks to the screen the window
// opens on, leaving room for the title bar and frame, and moves inside it.
void MainWindow::fitToScreen() {
    const QScreen* shown = screen();
    if (!shown) return;
    constexpr int kFrameWidth = 16, kFrameHeight = 48;  // decorations a window manager adds
    const QRect room = shown->availableGeometry();
    const QSize fitted =
        size().boundedTo(QSize(std::max(room.width() - kFrameWidth, minimumSizeHint().width()),
                               std::max(room.height() - kFrameHeight, minimumSizeHint().height())));
    if (fitted != size()) resize(fitted);
    QRect frame = frameGeometry();
    if (!room.contains(frame)) {
        frame.moveLeft(std::clamp(frame.left(), room.left(),
                                  std::max(room.left(), room.right() + 1 - frame.width())));
        frame.moveTop(std::clamp(frame.top(), room.top(),
                                 std::max(room.top(), room.bottom() + 1 - frame.height())));
        move(frame.topLeft());
    }
}

void MainWindow::refreshTitle() {
    const ProjectSession* session = workspace_->session();
    setWindowTitle(tr("%1[*] — Tandem").arg(session->displayName()));
    setWindowModified(session->isModified());
}

bool MainWindow::openModelPath(const QString& path) {
    if (workspace_->setModel(path)) return true;
    QMessageBox::warning(this, tr("Cannot open model"), workspace_->lastError());
    return false;
}

void MainWindow::startSearch() {
    core::search::SearchRequest request = setup_->searchRequest();
    if (!workspace_->searchJob()->running() && !questions_->confirmStart(request)) return;
    workspace_->startSearch(std::move(request));
}

QMenu* MainWindow::pointMenu(qint64 pointIndex) {
    using Action = Workspace::PointAction;
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const auto then = [this, pointIndex](Action action) {
        return [this, pointIndex, action] { workspace_->actOnPoint(pointIndex, action); };
    };
    menu->addAction(tr("Show point %1").arg(pointIndex), this,
                    [this, pointIndex] { workspace_->selectSearchPoint(pointIndex); });
    menu->addAction(tr("Use as set-up"), this, then(Action::UseAsSetUp));
    menu->addAction(tr("Compare with set-up"), this, then(Action::Compare));
    menu->addAction(tr("Export plan…"), this, then(Action::ExportPlan));
    return menu;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    workspace_->projectFiles()->finish();  // a save still running counts: saved or reported
    if (!files_->confirmDiscard()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("window/tab", views_->currentIndex());
    workspace_->cancelSearch();
    event->accept();
}

}  // namespace tandem::ui
