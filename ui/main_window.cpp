#include "ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

#include "core/common/units.h"
#include "core/estimate/operator_estimator.h"
#include "ui/about_dialog.h"
#include "ui/charts/design_space_chart.h"
#include "ui/editors/hardware_editor.h"
#include "ui/jobs/estimate_job.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/jobs/project_file_job.h"
#include "ui/jobs/results_file_job.h"
#include "ui/jobs/search_job.h"
#include "ui/models/layer_table_model.h"
#include "ui/models/operator_table_model.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/current_point_bar.h"
#include "ui/panels/pipeline_view.h"
#include "ui/panels/placement_view.h"
#include "ui/panels/schedule_view.h"
#include "ui/panels/setup_panel.h"
#include "ui/panels/summary_panel.h"
#include "ui/project_session.h"
#include "ui/setup_history.h"
#include "ui/widgets/elided_label.h"
#include "ui/widgets/field_undo_filter.h"

namespace tandem::ui {

namespace {
QTableView* sortableTable(QAbstractItemModel* model, QWidget* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(Qt::UserRole);
    auto* view = new QTableView(parent);
    view->setModel(proxy);
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // model order first
    view->setSortingEnabled(true);
    view->setAlternatingRowColors(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->verticalHeader()->hide();
    return view;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    resize(1400, 880);
    session_ = new ProjectSession(this);
    history_ = new SetupHistory(this);
    pointJob_ = new PointEvaluationJob(this);
    setupJob_ = new PointEvaluationJob(this);
    estimateJob_ = new EstimateJob(this);
    filesJob_ = new ResultsFileJob(this);
    searchJob_ = new SearchJob(this);
    projectFiles_ = new ProjectFileJob(this);

    setup_ = new SetupPanel;
    dock_ = new QDockWidget(tr("Set-up"), this);
    dock_->setObjectName("setupDock");
    dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                       QDockWidget::DockWidgetClosable);
    dock_->setWidget(setup_);
    dock_->setMinimumWidth(340);
    addDockWidget(Qt::LeftDockWidgetArea, dock_);

    buildTabs();
    bar_ = new CurrentPointBar(this);
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(2);
    centralLayout->addWidget(bar_);
    centralLayout->addWidget(tabs_, 1);
    setCentralWidget(central);
    buildActions();
    buildStatusBar();

    connect(setup_, &SetupPanel::pointChanged, this, &MainWindow::setupChanged);
    connectProjectFiles();
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
        statusBar()->showMessage(message, kTransientMessageMs);
    });
    connectPointJobs();
    connectSearchAndFiles();
    connect(bar_, &CurrentPointBar::useAsSetUp, this, &MainWindow::usePointAsSetUp);
    connect(bar_, &CurrentPointBar::compareWithSetUp, this, &MainWindow::compareWithSetUp);
    connect(bar_, &CurrentPointBar::exportPlan, this, &MainWindow::exportPlan);
    connect(bar_, &CurrentPointBar::backToSetUp, this, &MainWindow::showSetUp);
    connect(history_, &SetupHistory::restoreRequested, this,
            [this](const core::io::ProjectFile& project) {
                loadingProject_ = true;
                setup_->applyProject(project);
                loadingProject_ = false;
                showSetUp();
            });
    history_->reset(setup_->project());
    // Modified means "not at the saved step": undoing back to it is no change (saveProject
    // marks the step, New and Open start clean).
    // (The session is the context: the stack's destructor emits cleanChanged after it is gone.)
    connect(history_->stack(), &QUndoStack::cleanChanged, session_,
            [this](bool clean) { session_->setModified(!clean); });
    qApp->installEventFilter(new FieldUndoFilter(this));
    connect(session_, &ProjectSession::changed, this, [this] {
        refreshTitle();
        refreshRecentMenu();
    });

    defaultLayout_ = saveState();
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    fitToScreen();
    tabs_->setCurrentIndex(settings.value("window/tab", 1).toInt());
    refreshTitle();
    refreshRecentMenu();
    evaluate();
}

MainWindow::~MainWindow() = default;

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

// Every page sits in a frameless scroll area: a page wider or taller than the room it gets
// scrolls instead of setting the window's minimum size (a 1,024 × 768 projector with the set-up
// dock open leaves the tabs about 670 × 600 pixels).
void MainWindow::addPage(QWidget* page, const QString& title) {
    auto* scroll = new QScrollArea(tabs_);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    // The viewport paints the window's colour under the page, so a page faded while a set-up
    // field is invalid (setNotUpdated) blends with that and nothing else.
    scroll->viewport()->setBackgroundRole(QPalette::Window);
    scroll->viewport()->setAutoFillBackground(true);
    scroll->setWidget(page);
    tabs_->addTab(scroll, title);
}

QWidget* MainWindow::page(int index) const {
    auto* scroll = qobject_cast<QScrollArea*>(tabs_->widget(index));
    return scroll ? scroll->widget() : nullptr;
}

QWidget* MainWindow::currentPage() const {
    return page(tabs_->currentIndex());
}

void MainWindow::showPage(QWidget* shown) {
    for (int i = 0; i < tabs_->count(); ++i)
        if (page(i) == shown) tabs_->setCurrentIndex(i);
}

void MainWindow::buildTabs() {
    tabs_ = new QTabWidget(this);
    designSpace_ = new DesignSpaceChart;
    addPage(designSpace_, tr("Design space"));

    schedule_ = new ScheduleView;
    addPage(schedule_, tr("Schedule"));
    pipeline_ = new PipelineView;
    addPage(pipeline_, tr("Pipeline"));
    placementView_ = new PlacementView;
    addPage(placementView_, tr("Placement"));
    layers_ = new LayerTableModel(this);
    addPage(sortableTable(layers_, nullptr), tr("Layers"));
    comparison_ = new ComparisonView;
    addPage(comparison_, tr("Comparison"));
    summary_ = new SummaryPanel;
    addPage(summary_, tr("Summary"));

    auto* operatorsPage = new QWidget;
    auto* operatorsLayout = new QVBoxLayout(operatorsPage);
    auto* layerRow = new QFormLayout;
    layerCombo_ = new QComboBox(operatorsPage);
    layerCombo_->setToolTip(
        tr("Layer whose operators are listed, at the plan's tensor-parallel "
           "width"));
    layerRow->addRow(tr("Layer:"), layerCombo_);
    operatorsLayout->addLayout(layerRow);
    operatorModel_ = new OperatorTableModel(this);
    operatorsLayout->addWidget(sortableTable(operatorModel_, operatorsPage));
    addPage(operatorsPage, tr("Operators"));
    connect(layerCombo_, &QComboBox::currentIndexChanged, this, &MainWindow::showLayer);
}

void MainWindow::buildStatusBar() {
    // The live readout is a permanent widget: transient messages (errors, "Saved …") show
    // beside it and time out, and never hide it.
    status_ = new ElidedLabel(tr("Ready"), this);
    status_->setObjectName("liveReadout");
    // Set apart from transient messages, which QStatusBar clips at its left edge.
    auto* separator = new QFrame(this);
    separator->setFrameShape(QFrame::VLine);
    separator->setFrameShadow(QFrame::Sunken);
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(220);
    progress_->setVisible(false);
    progress_->setToolTip(tr("Points evaluated out of the points in the space"));
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setToolTip(tr("Stop the search; the points found so far are kept (Esc)"));
    cancelButton_->setVisible(false);
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelSearch);
    statusBar()->addPermanentWidget(separator);
    statusBar()->addPermanentWidget(status_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelButton_);
}

bool MainWindow::setModel(const QString& nameOrPath) {
    QString error;
    if (!setup_->setModel(nameOrPath, &error)) {
        lastError_ = error;
        return false;
    }
    lastError_.clear();
    return true;
}

bool MainWindow::setHardware(const QString& nameOrPath) {
    QString error;
    if (!setup_->setHardware(nameOrPath, &error)) {
        lastError_ = error;
        return false;
    }
    lastError_.clear();
    return true;
}

bool MainWindow::openModelPath(const QString& path) {
    if (setModel(path)) return true;
    QMessageBox::warning(this, tr("Cannot open model"), lastError_);
    return false;
}

void MainWindow::startSearch() {
    core::search::SearchRequest request = setup_->searchRequest();
    if (!searchJob_->running() && !confirmSearchSize(request)) return;
    QString why;
    searchedGrid_.reset();
    designSpace_->clear();
    designSpace_->setSpace(request.space);
    QStringList modelNames;  // several: a multi-model search, plotted by its objective
    for (const auto& model : request.models) modelNames << QString::fromStdString(model->name());
    designSpace_->setModelNames(modelNames);
    designSpace_->setReferencePoint(request.space.base.accelerator);
    results_.reset();
    baselines_.reset();
    report_.reset();
    searchedSpace_ = request.space;
    {
        const core::io::ProjectFile project = setup_->project();
        std::vector<std::string> specs{project.model};
        specs.insert(specs.end(), project.searchModels.begin(), project.searchModels.end());
        auto run = core::io::describeSearchRun(specs, request);
        searchedRun_.reset();
        if (run) searchedRun_ = std::move(*run);  // else the export says nothing of its run
    }
    resultsFingerprint_ = setup_->project().searchFingerprint();
    resultsOwner_ = describe(setup_->pointRequest());
    if (modelNames.size() > 1)
        resultsOwner_ += tr(" with %1").arg(modelNames.mid(1).join(QStringLiteral(", ")));
    designSpace_->setOwner(resultsOwner_);
    designSpace_->setStale({});
    comparison_->setStale({});
    unpinComparison();
    longSearchAsked_ = false;
    if (!searchJob_->start(std::move(request), &why)) {
        lastError_ = why;
        status_->setFullText(why);
        QMessageBox::information(this, tr("Cannot start the search"), why);
        return;
    }
    tabs_->setCurrentIndex(0);
    status_->setFullText(tr("Search started…"));
}

void MainWindow::cancelSearch() {
    searchJob_->cancel();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    projectFiles_->finish();  // a save still running counts: saved, or failed and reported
    if (!session_->confirmDiscard(this, [this] { return saveProjectInteractively(false); })) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("window/tab", tabs_->currentIndex());
    searchJob_->cancel();
    event->accept();
}

}  // namespace tandem::ui
