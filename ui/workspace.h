#pragma once
// What the window works on (ARCHITECTURE.md §1.10): the set-up (edited in the SetupPanel, with its
// undo history and project file), the current point and the evaluation every view shows, the
// search results and the set-up they answer, the Comparison's pair, and every background job
// that produces them. Views and panels show what it gives them; MainWindow keeps layout, menus
// and actions and turns the Workspace's questions and errors (signals) into dialogs.
//
// One current point drives every view: the edited set-up, or a point picked in the design space;
// the bar above the views (CurrentPointBar) says which (workspace_points.cpp). Search results
// remember the set-up they answer and fade, named, when it changes (workspace_results.cpp).
// Projects are read and written off the GUI thread, their models loaded by the set-up in the
// background (workspace_projects.cpp).
#include <QObject>
#include <map>
#include <memory>
#include <optional>

#include "core/hardware/hardware_point.h"
#include "core/io/project_file.h"
#include "core/io/search_results_json.h"
#include "core/io/search_run_info.h"
#include "core/placement/model_placement.h"
#include "core/search/search_baselines.h"
#include "core/search/search_grid.h"
#include "core/search/search_results.h"

namespace tandem::ui {

class CurrentPointBar;
class EstimateJob;
class JobRunner;
class PointEvaluationJob;
class ProjectFileJob;
class ProjectSession;
class ResultsFileJob;
class SearchJob;
class SetupHistory;
class SetupPanel;
class StatusReadout;
class ViewTabs;

class Workspace : public QObject {
    Q_OBJECT
public:
    // Drives `setup`, `views`, `bar` and `readout` (the window's; they outlive it).
    Workspace(SetupPanel* setup, ViewTabs* views, CurrentPointBar* bar, StatusReadout* readout,
              QObject* parent);
    ~Workspace() override;

    // --- The set-up. As the set-up dock: a zoo name or model file, a preset name or hardware
    // file. False (with lastError()) when the input is refused.
    bool setModel(const QString& nameOrPath);
    bool setHardware(const QString& nameOrPath);
    // The calibration dialog's result as one undoable set-up edit.
    void useCalibratedHardware(const core::hardware::HardwarePoint& point);
    QString lastError() const { return lastError_; }

    // --- The current point (workspace_points.cpp).
    void evaluate();   // the set-up's point, now (no debounce)
    void showSetUp();  // the set-up becomes the current point
    void selectSearchPoint(qint64 pointIndex);
    void usePointAsSetUp();
    void compareWithSetUp();
    // The design-space menu's actions on a point: shows it first, and acts once its evaluation
    // has arrived (ExportPlan then asks through exportPlanRequested).
    enum class PointAction { None, UseAsSetUp, Compare, ExportPlan };
    void actOnPoint(qint64 pointIndex, PointAction action);
    // The latest evaluated point (null before the first answer or after an error).
    std::shared_ptr<const core::placement::ModelPlacement> placement() const { return placement_; }
    // −1 when the views show the set-up, else the design-space point they show.
    qint64 shownPoint() const { return shownPoint_; }
    // False while a set-up field is invalid: the views show the last valid point, faded.
    bool viewsUpToDate() const;
    // The shown point's placement as `tandem-cli place --json` writes it; the error, or empty.
    QString exportPlanTo(const QString& path);
    // The shown point as one self-contained HTML report (core/io/training_report.h): set-up,
    // plan, energy and time to train on the Summary's budget, the Roofline tab's layer, the
    // Scaling tab's study when it was analysed, and the search's figures when current; as a
    // PDF when `path` ends in .pdf (report_pdf.h). The error, or empty.
    QString exportReportTo(const QString& path);
    QString describe(const core::placement::ModelPlacementRequest& request) const;
    // describe() and the chip's cores and buffer: what every chart of the point names.
    QString pointSubject(const core::placement::ModelPlacementRequest& request) const;
    // Under an exported chart: "Tandem · gpt3-175b on 1,024 × tpuv4-like · t = 8 · d = 16 · …".
    QString chartCaption(bool designSpace) const;

    // --- Search and results (workspace_results.cpp).
    void startSearch(core::search::SearchRequest request);
    void cancelSearch();
    std::shared_ptr<const core::search::SearchResults> results() const { return results_; }
    std::shared_ptr<const core::io::SearchReport> report() const { return report_; }
    // As File ▸ Open results…: reads a `tandem-cli search --json` file in the background and
    // shows its points (the set-up's model follows the file's when it is a loadable one).
    void openResults(const QString& path);
    // Writes the shown results in the background (JSON: the CLI's form, plans included).
    void exportResultsTo(const QString& path, bool json);
    // Where a project saved at `projectPath` keeps its results: "<name>.results.json" beside it.
    static QString resultsPathFor(const QString& projectPath);

    // --- Projects (workspace_projects.cpp). openProject and saveProject wait for the file (and
    // the project's models): command-line arguments, tests, Save before discarding changes.
    void newProject();
    bool openProject(const QString& path);
    bool saveProject(const QString& path);
    // The file is read or written off the GUI thread (ProjectFileJob) and the project's models
    // loaded by the set-up in the background (Cancel there abandons the open: the open project
    // stays). After a save the project is unmodified if the set-up is still what was saved.
    void openProjectInBackground(const QString& path);
    quint64 saveProjectInBackground(const QString& path);
    // As File ▸ Open model…: loads in the background; a failure is a warning.
    void openModelInBackground(const QString& path);

    SetupPanel* setup() const { return setup_; }
    ProjectSession* session() const { return session_; }
    SetupHistory* history() const { return history_; }
    PointEvaluationJob* pointJob() const { return pointJob_; }
    EstimateJob* estimateJob() const { return estimateJob_; }
    SearchJob* searchJob() const { return searchJob_; }
    ResultsFileJob* filesJob() const { return filesJob_; }
    ProjectFileJob* projectFiles() const { return projectFiles_; }

    static constexpr int kTransientMessageMs = 10000;

signals:
    // For the window to show: a status-bar message that times out, and dialogs.
    void transientMessage(const QString& text, int ms);
    void warning(const QString& title, const QString& text);
    void information(const QString& title, const QString& text);
    void exportPlanRequested();  // a menu's "Export plan…" once its point arrived
    void setUpShown();           // the set-up became the current point again

private:
    void connectSetup();
    void connectPointJobs();
    void connectSearchAndFiles();
    void connectProjectFiles();
    void setupChanged();
    void requestPoint();
    void setNotUpdated(const QString& why);
    std::optional<core::search::SearchPoint> searchPointAt(qint64 pointIndex);
    void unpinComparison();
    void showPlacement(quint64 id, std::shared_ptr<const core::placement::ModelPlacement> p);
    void showPointError(quint64 id, const QString& message);
    void setupEvaluated(quint64 id, std::shared_ptr<const core::placement::ModelPlacement> p);
    void refreshResultsState();
    // When only the set-up's Rank by differs from the shown results': ranks them again in the
    // background (core's rankResults), true while that is under way (workspace_ranking.cpp).
    bool rankResultsAsSetUp();
    void rankingFinished(core::search::SearchObjective objective, const std::string& fingerprint,
                         std::shared_ptr<const core::search::SearchResults> ranked,
                         const QString& problem);
    void searchFinished(std::shared_ptr<const core::search::SearchResults> results,
                        std::shared_ptr<const core::search::SearchBaselines> baselines);
    void adoptResults(std::shared_ptr<const core::search::SearchResults> results,
                      std::shared_ptr<const core::search::SearchBaselines> baselines);
    void showReport(std::shared_ptr<const core::io::SearchReport> report, const QString& owner);
    void resultsLoaded(quint64 id, const QString& path,
                       std::shared_ptr<const core::io::SearchReport> report);
    void resultsFileFailed(quint64 id, const QString& path, const QString& message);
    void abandonProjectOpen();
    void projectRead(quint64 id, const QString& path,
                     std::shared_ptr<const core::io::ProjectFile> project);
    void projectOpened(const QString& path, const core::io::ProjectFile& project);
    void setupLoadEnded(quint64 id, bool adopted, const QString& error);
    void projectSaved(quint64 id, const QString& path);
    void projectFileFailed(quint64 id, const QString& path, const QString& message);

    // The window's widgets it drives.
    SetupPanel* setup_;
    ViewTabs* views_;
    CurrentPointBar* bar_;
    StatusReadout* readout_;

    ProjectSession* session_;
    SetupHistory* history_;
    PointEvaluationJob* pointJob_;  // the current point
    PointEvaluationJob* setupJob_;  // the set-up, for "Compare with set-up"
    EstimateJob* estimateJob_;      // Summary and Operators
    SearchJob* searchJob_;
    ResultsFileJob* filesJob_;
    ProjectFileJob* projectFiles_;
    JobRunner* ranking_;  // re-ranking the shown results

    QString lastError_;
    bool loadingProject_ = false;  // the set-up's changes are a project's, not edits
    QString nextEditName_;  // the undo step's name for the next set-up edit, when not "Edit set-up"

    // The current point.
    std::shared_ptr<const core::placement::ModelPlacement> placement_;
    core::placement::ModelPlacementRequest shownRequest_;  // what placement_ answers
    quint64 shownId_ = 0;                                  // placement_'s job id
    qint64 shownPoint_ = -1;                               // −1: the set-up
    std::size_t shownModel_ = 0;  // of a multi-model search: the model the views show
    // A reopened project's selected point, tab and model, restored once its results load.
    qint64 reopenPoint_ = -1;
    int reopenTab_ = -1;
    std::size_t reopenModel_ = 0;
    PointAction pendingPointAction_ = PointAction::None;  // after the shown point arrives
    // The set-up's latest evaluation, for Compare with set-up; the Comparison shows a pinned
    // pair until the point changes.
    std::shared_ptr<const core::placement::ModelPlacement> setupPlacement_;
    core::placement::ModelPlacementRequest setupRequest_;  // what setupPlacement_ answers
    bool comparisonPinned_ = false;
    qint64 comparePoint_ = -1;  // the point to compare once setupJob_ answers

    // The search results shown, and whose they are.
    std::shared_ptr<const core::search::SearchResults> results_;
    std::shared_ptr<const core::search::SearchBaselines> baselines_;
    std::shared_ptr<const core::io::SearchReport> report_;  // results_ with plans, for files
    std::string resultsFingerprint_;  // ProjectFile::searchFingerprint of the searched set-up
    std::string rankingFingerprint_;  // the set-up a ranking under way answers
    std::string refusedFingerprint_;  // the set-up the results could not be ranked for…
    QString rankingProblem_;          // …and why
    QString resultsOwner_;            // "gpt3-175b on 1,024 × tpuv4-like"
    core::search::SearchSpace searchedSpace_;
    // Which run the search is (written into exported results as "run", like the CLI's).
    std::optional<core::io::SearchRunInfo> searchedRun_;
    // The running search's grid, built when a streamed point is first selected: it names every
    // point by index, so no copy of the streamed points is kept (a PHAZE search streams 704,640
    // of them; copying them into a growing vector stalled the GUI thread for ~0.8 s).
    std::optional<core::search::SearchGrid> searchedGrid_;

    // Files in flight, by job id.
    quint64 resultsLoad_ = 0;         // File ▸ Open results…'s load, shown when it answers
    quint64 projectResultsLoad_ = 0;  // the opened project's own results
    quint64 lastResultsSave_ = 0;     // a failure of it is a warning
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
};

}  // namespace tandem::ui
