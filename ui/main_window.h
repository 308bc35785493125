#pragma once
// The main window (ARCHITECTURE.md §1.10): the set-up dock on the left, the views as central tabs
// (Design space, Schedule, Pipeline, Placement, Layers, Comparison, plus Summary and Operators),
// a toolbar to evaluate and to start or cancel a search, and a status bar with progress, rate,
// ETA and Cancel. Wiring only: every number comes from core through the background jobs. One
// selected point drives every view: the edited set-up, or a point clicked in the design space.
#include <QMainWindow>
#include <memory>
#include <optional>

#include "core/estimate/model_estimate.h"
#include "core/placement/model_placement.h"
#include "core/search/search_baselines.h"
#include "core/search/search_grid.h"
#include "core/search/search_results.h"

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace tandem::ui {

class ComparisonView;
class DesignSpaceChart;
class LayerTableModel;
class OperatorTableModel;
class PipelineView;
class PlacementView;
class PointEvaluationJob;
class ProjectSession;
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

    bool openProject(const QString& path);  // error dialog on failure
    bool saveProject(const QString& path);  // error dialog on failure
    void startSearch();
    void cancelSearch();

    // The latest evaluated point (null before the first answer or after an error).
    std::shared_ptr<const core::placement::ModelPlacement> placement() const { return placement_; }
    std::shared_ptr<const core::search::SearchResults> results() const { return results_; }
    QString lastError() const { return lastError_; }

    SetupPanel* setup() const { return setup_; }
    QTabWidget* tabs() const { return tabs_; }
    DesignSpaceChart* designSpace() const { return designSpace_; }
    ScheduleView* scheduleView() const { return schedule_; }
    PipelineView* pipelineView() const { return pipeline_; }
    PlacementView* placementView() const { return placementView_; }
    LayerTableModel* layerModel() const { return layers_; }
    ComparisonView* comparisonView() const { return comparison_; }
    PointEvaluationJob* pointJob() const { return pointJob_; }
    SearchJob* searchJob() const { return searchJob_; }
    ProjectSession* session() const { return session_; }

public slots:
    void evaluate();  // the set-up's point, now (no debounce)

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildTabs();
    void buildActions();
    void buildStatusBar();
    void requestPoint();
    void showPlacement(quint64 id, std::shared_ptr<const core::placement::ModelPlacement> p);
    void showPointError(quint64 id, const QString& message);
    void selectSearchPoint(qint64 pointIndex);
    void searchFinished(std::shared_ptr<const core::search::SearchResults> results,
                        std::shared_ptr<const core::search::SearchBaselines> baselines);
    void setupChanged();
    void newProject();
    void openProjectInteractively();
    bool saveProjectInteractively(bool saveAs);
    void refreshTitle();
    void refreshRecentMenu();
    void exportCurrentChart();
    void exportResults(bool json);
    void exportTrace();
    void showLayer(int index);

    SetupPanel* setup_ = nullptr;
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
    SearchJob* searchJob_ = nullptr;
    ProjectSession* session_ = nullptr;
    QAction* startSearch_ = nullptr;
    QAction* cancelSearch_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* status_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancelButton_ = nullptr;

    std::shared_ptr<const core::placement::ModelPlacement> placement_;
    core::placement::ModelPlacementRequest shownRequest_;  // what placement_ answers
    std::shared_ptr<const core::estimate::ModelEstimate> estimate_;
    std::shared_ptr<const core::model::ModelGraph> estimateGraph_;
    std::shared_ptr<const core::search::SearchResults> results_;
    std::shared_ptr<const core::search::SearchBaselines> baselines_;
    core::search::SearchSpace searchedSpace_;
    // The running search's grid, built when a streamed point is first selected: it names every
    // point by index, so the window keeps no copy of the streamed points (a PHAZE search streams
    // 704,640 of them; copying them into a growing vector stalled the GUI thread for ~0.8 s).
    std::optional<core::search::SearchGrid> searchedGrid_;
    QString lastError_;
    bool loadingProject_ = false;
};

}  // namespace tandem::ui
