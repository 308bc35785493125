// MainWindow's menus and toolbar (File, Edit, Hardware, Search, View, Help), the guide to the
// tabs and the calibration dialog.
#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include "ui/about_dialog.h"
#include "ui/calibration/calibrate_dialog.h"
#include "ui/file_actions.h"
#include "ui/guide_text.h"
#include "ui/main_window.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/setup_history.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

namespace tandem::ui {

void MainWindow::buildActions() {
    QAction* exportChart = buildFileMenu();

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = workspace_->history()->stack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcuts(QKeySequence::Undo);             // every binding of the platform
    undo->setObjectName(QStringLiteral("undoAction"));  // its text names the step
    QAction* redo = workspace_->history()->stack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts(QKeySequence::Redo);  // Ctrl+Shift+Z among them everywhere
    redo->setObjectName(QStringLiteral("redoAction"));
    edit->addAction(undo);
    edit->addAction(redo);

    auto* hardware = menuBar()->addMenu(tr("&Hardware"));
    QAction* calibrate = hardware->addAction(tr("Calibrate from measurements…"), this,
                                             &MainWindow::showCalibrateDialog);
    calibrate->setObjectName(QStringLiteral("calibrateAction"));
    calibrate->setToolTip(
        tr("Fit the hardware's efficiencies and overheads to measured training runs, "
           "cross-validated (tandem-cli calibrate)"));
    calibrate->setStatusTip(
        tr("Fit efficiencies and overheads of the set-up's hardware to your measured runs "
           "(a CSV file or a bundled set), then save the result or use it in the project"));

    auto* search = menuBar()->addMenu(tr("&Search"));
    auto* evaluateAction = search->addAction(tr("&Evaluate point"), QKeySequence(Qt::Key_F5),
                                             workspace_, &Workspace::evaluate);
    evaluateAction->setToolTip(
        tr("Evaluate the set-up's point now (F5); edits re-evaluate it "
           "automatically"));
    startSearch_ = search->addAction(tr("&Start search"), QKeySequence(tr("Ctrl+R")), this,
                                     &MainWindow::startSearch);
    startSearch_->setToolTip(tr("Search the design space of the Search space section (Ctrl+R)"));
    cancelSearch_ = search->addAction(tr("&Cancel search"), QKeySequence(Qt::Key_Escape),
                                      workspace_, &Workspace::cancelSearch);
    cancelSearch_->setToolTip(tr("Stop the search; the points found so far are kept (Esc)"));
    cancelSearch_->setEnabled(false);

    auto* view = menuBar()->addMenu(tr("&View"));
    QAction* dockToggle = dock_->toggleViewAction();
    dockToggle->setText(tr("&Set-up dock"));
    dockToggle->setShortcut(QKeySequence(tr("Ctrl+D")));
    view->addAction(dockToggle);
    view->addAction(tr("&Reset layout"), this, [this] {
        restoreState(defaultLayout_);
        dock_->show();
    });
    view->addSeparator();
    for (int i = 0; i < views_->count() && i < 9; ++i)
        view->addAction(views_->tabText(i), QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)),
                        this, [this, i] { views_->setCurrentIndex(i); });

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Guide to the tabs"), QKeySequence::HelpContents, this,
                    [this] { showGuideDialog(this, views_->tabText(views_->currentIndex())); });
    help->addAction(tr("G&lossary"), QKeySequence(Qt::SHIFT | Qt::Key_F1), this, [this] {
        showGuideDialog(this, views_->tabText(views_->currentIndex()), QStringLiteral("glossary"));
    });
    help->addAction(tr("&About Tandem"), this, [this] { showAboutDialog(this); });

    auto* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName("mainToolbar");
    toolbar->addAction(evaluateAction);
    toolbar->addAction(startSearch_);
    toolbar->addAction(cancelSearch_);
    toolbar->addSeparator();
    toolbar->addAction(exportChart);
}

QAction* MainWindow::buildFileMenu() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New project"), QKeySequence::New, files_, &FileActions::newProject);
    file->addAction(tr("&Open project…"), QKeySequence::Open, files_, &FileActions::openProject);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Save project"), QKeySequence::Save, files_,
                    [this] { files_->saveProject(false, false); });
    // Spelled out: QKeySequence::SaveAs and ::Quit have no binding on some platforms (X11 without
    // a desktop theme, offscreen), where the README's Ctrl+Shift+S and Ctrl+Q would do nothing.
    file->addAction(tr("Save project &as…"), QKeySequence(tr("Ctrl+Shift+S")), files_,
                    [this] { files_->saveProject(true, false); });
    file->addSeparator();
    file->addAction(tr("Open &model…"), QKeySequence(tr("Ctrl+M")), files_,
                    &FileActions::openModel);
    file->addSeparator();
    QAction* exportChart = file->addAction(tr("&Export chart…"), QKeySequence(tr("Ctrl+E")), files_,
                                           &FileActions::exportChart);
    file->addAction(tr("Open res&ults…"), QKeySequence(tr("Ctrl+Shift+O")), files_,
                    &FileActions::openResults)
        ->setToolTip(tr("Show the points of a tandem-cli search --json file in the design space"));
    file->addAction(tr("Export results as &CSV…"), files_,
                    [this] { files_->exportResults(false); });
    file->addAction(tr("Export results as &JSON…"), files_,
                    [this] { files_->exportResults(true); });
    file->addAction(tr("Export schedule &trace…"), files_, &FileActions::exportTrace);
    file->addAction(tr("Export &report…"), QKeySequence(tr("Ctrl+Shift+E")), files_,
                    &FileActions::exportReport)
        ->setToolTip(tr("One HTML file with the set-up, the plan, its energy and time to train, "
                        "the roofline, scaling and the search (tandem-cli report)"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(tr("Ctrl+Q")), this, &QWidget::close);  // as above
    return exportChart;
}

CalibrateDialog* MainWindow::calibrateDialog() const {
    return calibrateDialog_.data();
}

void MainWindow::showCalibrateDialog() {
    if (!calibrateDialog_) {
        calibrateDialog_ = new CalibrateDialog(setup_->hardware(), this);
        calibrateDialog_->setAttribute(Qt::WA_DeleteOnClose);
        calibrateDialog_->setFolder(workspace_->session()->lastFolder());
        connect(calibrateDialog_, &CalibrateDialog::hardwareChosen, workspace_,
                &Workspace::useCalibratedHardware);
    } else {
        calibrateDialog_->setProjectHardware(setup_->hardware());
    }
    calibrateDialog_->show();
    calibrateDialog_->raise();
    calibrateDialog_->activateWindow();
}
}  // namespace tandem::ui
