#pragma once
// The main window (ARCHITECTURE.md §1.10): layout, menus and actions only. The set-up dock on the
// left, the views as central tabs (ViewTabs) under the bar that names the current point
// (CurrentPointBar), a toolbar to evaluate and to start or cancel a search, and a status bar
// with the live readout, progress and Cancel (StatusReadout). What the window works on — the
// set-up, the current point, the search results, the jobs — is the Workspace's; the File menu's
// dialogs are FileActions', the search's questions SearchQuestions'.
#include <QMainWindow>
#include <QPointer>

class QDockWidget;
class QMenu;

namespace tandem::ui {

class CalibrateDialog;
class CurrentPointBar;
class FileActions;
class SearchQuestions;
class SetupPanel;
class StatusReadout;
class ViewTabs;
class Workspace;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Workspace* workspace() const { return workspace_; }
    SetupPanel* setup() const { return setup_; }
    ViewTabs* views() const { return views_; }
    CurrentPointBar* currentPointBar() const { return bar_; }
    FileActions* fileActions() const { return files_; }

    // As the Workspace's setModel, with the error in a dialog when the model is refused (the
    // Workspace's own refusals and failures are dialogs already).
    bool openModelPath(const QString& path);
    // Search ▸ Start search: asks first when the space is large (SearchQuestions).
    void startSearch();
    // The design-space point's context menu (Show, Use as set-up, Compare with set-up, Export
    // plan…); deletes itself when closed.
    QMenu* pointMenu(qint64 pointIndex);
    // Hardware ▸ Calibrate from measurements…: opens the dialog (one at a time, non-modal), or
    // raises it; its "Use in project" applies the fitted hardware as one undoable set-up edit.
    void showCalibrateDialog();
    CalibrateDialog* calibrateDialog() const;  // null when closed

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildActions();
    QAction* buildFileMenu();  // its Export chart… goes on the toolbar too
    void connectWorkspace();
    void fitToScreen();
    void refreshTitle();

    SetupPanel* setup_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QByteArray defaultLayout_;  // the window state before QSettings restored it
    ViewTabs* views_ = nullptr;
    CurrentPointBar* bar_ = nullptr;
    StatusReadout* readout_ = nullptr;
    Workspace* workspace_ = nullptr;
    FileActions* files_ = nullptr;
    SearchQuestions* questions_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QAction* startSearch_ = nullptr;
    QAction* cancelSearch_ = nullptr;
    QPointer<CalibrateDialog> calibrateDialog_;
};

}  // namespace tandem::ui
