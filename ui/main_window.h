#pragma once
// The main window (ARCHITECTURE.md §1.10): the set-up dock on the left, the views as central tabs
// (Design space, Schedule, Pipeline, Placement, Layers, Comparison, plus Summary and Operators),
// a toolbar to evaluate and to start or cancel a search, and a status bar with progress, rate,
// ETA and Cancel. Wiring only: every number comes from core through the background jobs. One
// current point drives every view: the edited set-up, or a point clicked in the design space;
// the bar above the views (CurrentPointBar) says which (main_window_points.cpp). Search results
// remember the set-up they answer and fade, named, when it changes.
#include <QMainWindow>
#include <QPointer>
#include <map>
#include <memory>
#include <optional>

#include "core/estimate/model_estimate.h"
#include "core/io/project_file.h"
#include "core/io/search_results_json.h"
#include "core/io/search_run_info.h"
#include "core/placement/model_placement.h"
#include "core/search/progress_meter.h"
#include "core/search/search_baselines.h"
#include "core/search/search_grid.h"
#include "core/search/search_results.h"

class QAction;
class QComboBox;
class QDockWidget;
class QMenu;
class QMessageBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace tandem::ui {

class CalibrateDialog;
class ComparisonView;
class CurrentPointBar;
class DesignSpaceChart;
class ElidedLabel;
class EstimateJob;
class ResultsFileJob;
class LayerTableModel;
class OperatorTableModel;
class PipelineView;
class PlacementView;
class PointEvaluationJob;
class ProjectFileJob;
class ProjectSession;
class SetupHistory;
class ScheduleView;
class SearchJob;
class SetupPanel;
class SummaryPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // As the set-up dock: a zoo name or model file, a preset name or hardware file. The point
    // is re-evaluated in the background; false (with lastError()) when the input is refused.
    bool setModel(const QString& nameOrPath);
    bool setHardware(const QString& nameOrPath);
    // As File ▸ Open model…: shows an error dialog when the file cannot be used.
    bool openModelPath(const QString& path);

    // Open and save wait for the file (and the project's models): command-line arguments,
    // tests. Error dialog on failure.
    bool openProject(const QString& path);
    bool saveProject(const QString& path);
    // As File ▸ Open project… and File ▸ Save project: the file is read or written off the GUI
    // thread (ProjectFileJob) and the project's models loaded by the set-up in the background
    // (Cancel there abandons the open: the open project stays); errors open a dialog. After a
    // save the window is unmodified if the set-up is still what was saved. Closing the window
    // first finishes the saves still running.
    void openProjectInBackground(const QString& path);
    quint64 saveProjectInBackground(const QString& path);
    // As File ▸ Open model…: loads in the background; a failure opens a dialog.
    void openModelInBackground(const QString& path);
    ProjectFileJob* projectFiles() const { return projectFiles_; }
    // As File ▸ Open results…: reads a `tandem-cli search --json` file in the background and
    // shows its points (the window's model follows the file's when it is a loadable one).
    void openResults(const QString& path);
    // Writes the shown results in the background (JSON: the CLI's form, plans included).
    void exportResultsTo(const QString& path, bool json);
    // Where a project saved at `projectPath` keeps its results: "<name>.results.json" beside it.
    static QString resultsPathFor(const QString& projectPath);
    std::shared_ptr<const core::io::SearchReport> report() const { return report_; }
    ResultsFileJob* filesJob() const { return filesJob_; }
    // The shown point's placement as `tandem-cli place --json` writes it; the error, or empty.
    QString exportPlanTo(const QString& path);
    // The design-space point's context menu (Show, Use as set-up, Compare with set-up, Export
    // plan…); deletes itself when closed.
    QMenu* pointMenu(qint64 pointIndex);
    void startSearch();
    void cancelSearch();
    // Hardware ▸ Calibrate from measurements…: opens the dialog (one at a time, non-modal), or
    // raises it; its "Use in project" applies the fitted hardware as one undoable set-up edit.
    void showCalibrateDialog();
    CalibrateDialog* calibrateDialog() const;  // null when closed

    // The latest evaluated point (null before the first answer or after an error).
    std::shared_ptr<const core::placement::ModelPlacement> placement() const { return placement_; }
    std::shared_ptr<const core::search::SearchResults> results() const { return results_; }
    QString lastError() const { return lastError_; }

    SetupPanel* setup() const { return setup_; }
    QTabWidget* tabs() const { return tabs_; }
    // The view on tab `index` (each tab holds its view in a scroll area), the current one, and
    // making a view current.
    QWidget* page(int index) const;
    QWidget* currentPage() const;
    void showPage(QWidget* page);
    DesignSpaceChart* designSpace() const { return designSpace_; }
    ScheduleView* scheduleView() const { return schedule_; }
    PipelineView* pipelineView() const { return pipeline_; }
    PlacementView* placementView() const { return placementView_; }
    LayerTableModel* layerModel() const { return layers_; }
    ComparisonView* comparisonView() const { return comparison_; }
    PointEvaluationJob* pointJob() const { return pointJob_; }
    EstimateJob* estimateJob() const { return estimateJob_; }
    SearchJob* searchJob() const { return searchJob_; }
    ProjectSession* session() const { return session_; }
    SetupHistory* history() const { return history_; }
    CurrentPointBar* currentPointBar() const { return bar_; }
    // −1 when the views show the set-up, else the design-space point they show.
    qint64 shownPoint() const { return shownPoint_; }
    // False while a set-up field is invalid: the views show the last valid point, faded.
    bool viewsUpToDate() const;

    // How long a transient status-bar message (an error, "Saved …") stays up.
    static constexpr int kTransientMessageMs = 10000;
    static constexpr double kLongSearchSeconds = 300;

public slots:
    void evaluate();  // the set-up's point, now (no debounce)

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildTabs();
    // The constructor's signal wiring, by what is wired (main_window_points.cpp and
    // main_window_results.cpp).
    void connectPointJobs();
    void connectSearchAndFiles();
    void addPage(QWidget* page, const QString& title);
    void buildActions();
    void buildStatusBar();
    void fitToScreen();
    void showGuide();
    // A search whose measured rate says it needs more than kLongSearchSeconds asks, once,
    // whether to go on (non-modal; Stop keeps the points found so far).
    void askAboutLongSearch(const core::search::SearchProgress& progress);
    // Before a search starts, the core estimate of its size (core/search/search_footprint.h)
    // over the chips the search-space editor counted: a space this computer cannot hold is
    // refused, one estimated at more than an hour asks first. False: do not start. (Not counted
    // yet: true, and runSearch refuses an oversized space on the search thread.)
    bool confirmSearchSize(const core::search::SearchRequest& request);
    enum class PointAction { None, UseAsSetUp, Compare, ExportPlan };
    QString describe(const core::placement::ModelPlacementRequest& request) const;
    void showSetUp();
    void requestPoint();
    void setNotUpdated(const QString& why);
    void refreshResultsState();
    std::optional<core::search::SearchPoint> searchPointAt(qint64 pointIndex);
    void usePointAsSetUp();
    void compareWithSetUp();
    void setupEvaluated(quint64 id, std::shared_ptr<const core::placement::ModelPlacement> p);
    void unpinComparison();
    void exportPlan();
    void showPlacement(quint64 id, std::shared_ptr<const core::placement::ModelPlacement> p);
    void showPointError(quint64 id, const QString& message);
    void selectSearchPoint(qint64 pointIndex);
    void searchFinished(std::shared_ptr<const core::search::SearchResults> results,
                        std::shared_ptr<const core::search::SearchBaselines> baselines);
    void setupChanged();
    void useCalibratedHardware(const core::hardware::HardwarePoint& point);
    void newProject();
    void openProjectInteractively();
    // `wait`: returns once the file is written (true: saved); else starts the save.
    bool saveProjectInteractively(bool saveAs, bool wait = true);
    void connectProjectFiles();
    void abandonProjectOpen();
    void projectRead(quint64 id, const QString& path,
                     std::shared_ptr<const core::io::ProjectFile> project);
    void projectOpened(const QString& path, const core::io::ProjectFile& project);
    void setupLoadEnded(quint64 id, bool adopted, const QString& error);
    void projectSaved(quint64 id, const QString& path);
    void projectFileFailed(quint64 id, const QString& path, const QString& message);
    void refreshTitle();
    void refreshRecentMenu();
    void exportCurrentChart();
    // Under an exported chart: "Tandem · gpt3-175b on 1,024 × tpuv4-like · t = 8 · d = 16 · …".
    QString chartCaption(bool designSpace) const;
    void exportResults(bool json);
    void adoptResults(std::shared_ptr<const core::search::SearchResults> results,
                      std::shared_ptr<const core::search::SearchBaselines> baselines);
    void showReport(std::shared_ptr<const core::io::SearchReport> report, const QString& owner);
    void openResultsInteractively();
    void resultsLoaded(quint64 id, const QString& path,
                       std::shared_ptr<const core::io::SearchReport> report);
    void resultsFileFailed(quint64 id, const QString& path, const QString& message);
    void exportTrace();
    void showFileActivity(const QString& activity);
    void showLayer(int index);
    void showEstimate(quint64 id, std::shared_ptr<const core::model::ModelGraph> graph,
                      std::shared_ptr<const core::estimate::ModelEstimate> estimate);

    SetupPanel* setup_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QByteArray defaultLayout_;  // the window state before QSettings restored it
    bool longSearchAsked_ = false;
    QPointer<QMessageBox> longSearchBox_;  // the long-search question while it is open
    QTabWidget* tabs_ = nullptr;
    DesignSpaceChart* designSpace_ = nullptr;
    ScheduleView* schedule_ = nullptr;
    PipelineView* pipeline_ = nullptr;
    PlacementView* placementView_ = nullptr;
    LayerTableModel* layers_ = nullptr;
    QSortFilterProxyModel* layerProxy_ = nullptr;
    ComparisonView* comparison_ = nullptr;
    SummaryPanel* summary_ = nullptr;
    OperatorTableModel* operatorModel_ = nullptr;
    QComboBox* layerCombo_ = nullptr;
    PointEvaluationJob* pointJob_ = nullptr;
    PointEvaluationJob* setupJob_ = nullptr;
    EstimateJob* estimateJob_ = nullptr;  // Summary and Operators, off the GUI thread
    ResultsFileJob* filesJob_ = nullptr;  // results files, off the GUI thread
    quint64 resultsLoad_ = 0;             // the File ▸ Open results… load shown when it answers
    quint64 projectResultsLoad_ = 0;      // the opened project's own results
    quint64 lastResultsSave_ = 0;         // a failure of it is shown in a dialog  // the
                                          // set-up, for "Compare with set-up"
    SearchJob* searchJob_ = nullptr;
    ProjectFileJob* projectFiles_ = nullptr;  // project files, off the GUI thread
    struct PendingSave {
        core::io::ProjectFile setup;                            // the set-up saved (no view state)
        std::shared_ptr<const core::io::SearchReport> results;  // written beside it once saved
    };
    std::map<quint64, PendingSave> pendingSaves_;
    quint64 failedSave_ = 0;    // the last save that failed
    quint64 projectRead_ = 0;   // the project file being read for File ▸ Open project…
    quint64 projectApply_ = 0;  // the set-up's load of its models
    QString openingPath_;
    std::shared_ptr<const core::io::ProjectFile> openingProject_;
    quint64 modelOpen_ = 0;  // File ▸ Open model…'s load
    ProjectSession* session_ = nullptr;
    SetupHistory* history_ = nullptr;
    QAction* startSearch_ = nullptr;
    QAction* cancelSearch_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    CurrentPointBar* bar_ = nullptr;
    ElidedLabel* status_ = nullptr;  // the live readout
    // "Reading r.json…" / "Writing r.json…" while the files job works, and the readout it
    // replaced, shown again when the job is idle (done or failed).
    QString fileActivity_;
    QString readoutBeforeFiles_;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancelButton_ = nullptr;

    std::shared_ptr<const core::placement::ModelPlacement> placement_;
    core::placement::ModelPlacementRequest shownRequest_;  // what placement_ answers
    quint64 shownId_ = 0;                                  // placement_'s job id
    qint64 shownPoint_ = -1;                               // −1: the set-up
    PointAction pendingPointAction_ = PointAction::None;   // after the shown point arrives
    std::shared_ptr<const core::placement::ModelPlacement> setupPlacement_;
    core::placement::ModelPlacementRequest setupRequest_;  // what setupPlacement_ answers
    bool comparisonPinned_ = false;
    qint64 comparePoint_ = -1;  // the point to compare once setupJob_ answers  // Comparison shows
                                // a pair until the point changes
    std::string resultsFingerprint_;  // ProjectFile::searchFingerprint of the searched set-up
    QString resultsOwner_;            // "gpt3-175b on 1,024 × tpuv4-like"
    std::shared_ptr<const core::estimate::ModelEstimate> estimate_;
    std::shared_ptr<const core::model::ModelGraph> estimateGraph_;
    std::shared_ptr<const core::search::SearchResults> results_;
    std::shared_ptr<const core::search::SearchBaselines> baselines_;
    std::shared_ptr<const core::io::SearchReport> report_;  // results_ with plans, for files
    core::search::SearchSpace searchedSpace_;
    // Which run the search is (written into exported results as "run", like the CLI's).
    std::optional<core::io::SearchRunInfo> searchedRun_;
    // The running search's grid, built when a streamed point is first selected: it names every
    // point by index, so the window keeps no copy of the streamed points (a PHAZE search streams
    // 704,640 of them; copying them into a growing vector stalled the GUI thread for ~0.8 s).
    std::optional<core::search::SearchGrid> searchedGrid_;
    QString lastError_;
    bool loadingProject_ = false;
    QString nextEditName_;  // the undo step's name for the next set-up edit, when not "Edit set-up"
    QPointer<CalibrateDialog> calibrateDialog_;
};

}  // namespace tandem::ui
