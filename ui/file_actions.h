#pragma once
// The File menu's actions as a user meets them (ARCHITECTURE.md §1.10): the file dialogs, the
// "save changes?" question before anything that would lose them, and the dialogs that report a
// failed export. What is opened, saved or exported is the Workspace's (in the background); this
// class only asks where, and says what went wrong.
#include <QObject>

class QMenu;
class QWidget;

namespace tandem::ui {

class ViewTabs;
class Workspace;

class FileActions : public QObject {
    Q_OBJECT
public:
    FileActions(QWidget* window, Workspace* workspace, ViewTabs* views);

    // Asks Save / Discard / Cancel when the project is modified; true when it is safe to go on.
    bool confirmDiscard();
    void newProject();
    void openProject();
    // `wait`: returns once the file is written (true: saved); else starts the save.
    bool saveProject(bool saveAs, bool wait = true);
    void openModel();
    void openResults();
    void exportResults(bool json);
    void exportPlan();
    void exportReport();
    void exportChart();
    void exportTrace();
    // File ▸ Open recent: the session's recent projects.
    void fillRecentMenu(QMenu* menu);

private:
    // A save dialog starting in the last folder used with `fileName`; empty when cancelled.
    QString savePath(const QString& title, const QString& fileName, const QString& filter);
    void reportExport(const QString& title, const QString& error, const QString& done);

    QWidget* window_;
    Workspace* workspace_;
    ViewTabs* views_;
};

}  // namespace tandem::ui
