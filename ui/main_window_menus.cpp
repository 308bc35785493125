// MainWindow's menus and toolbar (File, Edit, Hardware, Search, View, Help), the guide to the
// tabs, the calibration dialog, the size check before a search starts, and the question a long
// search asks once its measured rate says it will take more than five minutes.
#include <QAbstractButton>
#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

#include "core/common/system_memory.h"
#include "core/common/units.h"
#include "core/search/search_footprint.h"
#include "ui/about_dialog.h"
#include "ui/calibration/calibrate_dialog.h"
#include "ui/editors/search_space_editor.h"
#include "ui/guide_text.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/setup_history.h"
#include "ui/widgets/elided_label.h"

namespace tandem::ui {

void MainWindow::buildActions() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New project"), QKeySequence::New, this, &MainWindow::newProject);
    file->addAction(tr("&Open project…"), QKeySequence::Open, this,
                    &MainWindow::openProjectInteractively);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Save project"), QKeySequence::Save, this,
                    [this] { saveProjectInteractively(false, false); });
    // Spelled out: QKeySequence::SaveAs and ::Quit have no binding on some platforms (X11 without
    // a desktop theme, offscreen), where the README's Ctrl+Shift+S and Ctrl+Q would do nothing.
    file->addAction(tr("Save project &as…"), QKeySequence(tr("Ctrl+Shift+S")), this,
                    [this] { saveProjectInteractively(true, false); });
    file->addSeparator();
    file->addAction(tr("Open &model…"), QKeySequence(tr("Ctrl+M")), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open model"), session_->lastFolder(),
                                         tr("Models (*.json *.onnx);;All files (*)"));
        if (!path.isEmpty()) openModelInBackground(path);
    });
    file->addSeparator();
    auto* exportChart = file->addAction(tr("&Export chart…"), QKeySequence(tr("Ctrl+E")), this,
                                        &MainWindow::exportCurrentChart);
    file->addAction(tr("Open res&ults…"), QKeySequence(tr("Ctrl+Shift+O")), this,
                    &MainWindow::openResultsInteractively)
        ->setToolTip(tr("Show the points of a tandem-cli search --json file in the design space"));
    file->addAction(tr("Export results as &CSV…"), this, [this] { exportResults(false); });
    file->addAction(tr("Export results as &JSON…"), this, [this] { exportResults(true); });
    file->addAction(tr("Export schedule &trace…"), this, &MainWindow::exportTrace);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(tr("Ctrl+Q")), this, &QWidget::close);  // as above

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = history_->stack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcuts(QKeySequence::Undo);             // every binding of the platform
    undo->setObjectName(QStringLiteral("undoAction"));  // its text names the step
    QAction* redo = history_->stack()->createRedoAction(this, tr("&Redo"));
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
    auto* evaluateAction = search->addAction(tr("&Evaluate point"), QKeySequence(Qt::Key_F5), this,
                                             &MainWindow::evaluate);
    evaluateAction->setToolTip(
        tr("Evaluate the set-up's point now (F5); edits re-evaluate it "
           "automatically"));
    startSearch_ = search->addAction(tr("&Start search"), QKeySequence(tr("Ctrl+R")), this,
                                     &MainWindow::startSearch);
    startSearch_->setToolTip(tr("Search the design space of the Search space section (Ctrl+R)"));
    cancelSearch_ = search->addAction(tr("&Cancel search"), QKeySequence(Qt::Key_Escape), this,
                                      &MainWindow::cancelSearch);
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
    for (int i = 0; i < tabs_->count() && i < 9; ++i)
        view->addAction(tabs_->tabText(i), QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)), this,
                        [this, i] { tabs_->setCurrentIndex(i); });

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Guide to the tabs"), QKeySequence::HelpContents, this,
                    &MainWindow::showGuide);
    help->addAction(tr("&About Tandem"), this, [this] { showAboutDialog(this); });

    auto* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName("mainToolbar");
    toolbar->addAction(evaluateAction);
    toolbar->addAction(startSearch_);
    toolbar->addAction(cancelSearch_);
    toolbar->addSeparator();
    toolbar->addAction(exportChart);
}

CalibrateDialog* MainWindow::calibrateDialog() const {
    return calibrateDialog_.data();
}

void MainWindow::showCalibrateDialog() {
    if (!calibrateDialog_) {
        calibrateDialog_ = new CalibrateDialog(setup_->hardware(), this);
        calibrateDialog_->setAttribute(Qt::WA_DeleteOnClose);
        calibrateDialog_->setFolder(session_->lastFolder());
        connect(calibrateDialog_, &CalibrateDialog::hardwareChosen, this,
                &MainWindow::useCalibratedHardware);
    } else {
        calibrateDialog_->setProjectHardware(setup_->hardware());
    }
    calibrateDialog_->show();
    calibrateDialog_->raise();
    calibrateDialog_->activateWindow();
}

void MainWindow::showGuide() {
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Guide to the tabs — Tandem"));
    auto* layout = new QVBoxLayout(dialog);
    auto* browser = new QTextBrowser(dialog);
    browser->setHtml(guideText(tabs_->tabText(tabs_->currentIndex())));
    layout->addWidget(browser);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(560, 620);
    dialog->show();
}

bool MainWindow::confirmSearchSize(const core::search::SearchRequest& request) {
    namespace cs = core::search;
    const SearchSpaceEditor* editor = setup_->searchSpaceEditor();
    const std::int64_t chips = editor->chipCount();
    if (chips <= 0 || editor->isCounting()) return true;
    const cs::SearchFootprint footprint = cs::estimateSearchFootprint(
        chips, editor->pointCount() / chips, std::int64_t(request.models.size()), request.threads);
    if (auto fits = cs::checkSearchMemory(footprint, core::availableMemoryBytes()); !fits) {
        const QString why = QString::fromStdString("This search cannot start: " + fits.message());
        lastError_ = why;
        status_->setFullText(why);
        QMessageBox::information(this, tr("Search too large for this computer"), why);
        return false;
    }
    const std::string warning = cs::longSearchWarning(footprint);
    if (warning.empty()) return true;
    QMessageBox box(QMessageBox::Question, tr("Long search"),
                    tr("Before it starts, an estimate: %1.\n\nStart the search anyway?")
                        .arg(QString::fromStdString(warning)),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("searchSizeQuestion"));
    box.addButton(tr("Start the search"), QMessageBox::AcceptRole);
    QAbstractButton* cancel = box.addButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() != cancel;
}

namespace {
// The question's text, from the same figures and formatting as the status bar's readout.
QString longSearchText(const core::search::SearchProgress& p) {
    using core::search::ProgressMeter;
    return QObject::tr(
               "At its measured rate (%1) this search needs about %2 more for %3 "
               "points. Keep searching? If you stop, the points found so far are kept.")
        .arg(QString::fromStdString(ProgressMeter::formatRate(p)),
             QString::fromStdString(ProgressMeter::formatEta(p)),
             QString::fromStdString(core::formatCount(double(p.total - p.done))));
}
}  // namespace

void MainWindow::askAboutLongSearch(const core::search::SearchProgress& p) {
    if (longSearchBox_) {  // asked and still open: it follows the readout, one rate and ETA
        longSearchBox_->setText(longSearchText(p));
        return;
    }
    if (longSearchAsked_ || p.etaSeconds <= kLongSearchSeconds || p.done < 2 * 64) return;
    longSearchAsked_ = true;
    auto* box = new QMessageBox(QMessageBox::Question, tr("Long search"), longSearchText(p),
                                QMessageBox::NoButton, this);
    longSearchBox_ = box;
    box->addButton(tr("Keep searching"), QMessageBox::AcceptRole);
    auto* stop = box->addButton(tr("Stop now"), QMessageBox::RejectRole);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("longSearchQuestion"));
    // Not modal: the search and the views keep going while the question waits.
    connect(box, &QMessageBox::buttonClicked, this, [this, stop](QAbstractButton* b) {
        if (b == static_cast<QAbstractButton*>(stop)) cancelSearch();
    });
    box->open();
}

}  // namespace tandem::ui
