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
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "core/common/units.h"
#include "core/estimate/operator_estimator.h"
#include "ui/about_dialog.h"
#include "ui/charts/design_space_chart.h"
#include "ui/editors/hardware_editor.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/jobs/search_job.h"
#include "ui/models/layer_table_model.h"
#include "ui/models/operator_table_model.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/pipeline_view.h"
#include "ui/panels/placement_view.h"
#include "ui/panels/schedule_view.h"
#include "ui/panels/setup_panel.h"
#include "ui/panels/summary_panel.h"
#include "ui/project_session.h"

namespace tandem::ui {

namespace {
// How long a transient status-bar message (an error, "Saved …") stays up.
constexpr int kTransientMessageMs = 10000;

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

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
    pointJob_ = new PointEvaluationJob(this);
    searchJob_ = new SearchJob(this);

    setup_ = new SetupPanel;
    auto* dock = new QDockWidget(tr("Set-up"), this);
    dock->setObjectName("setupDock");
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    dock->setWidget(setup_);
    dock->setMinimumWidth(340);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    buildTabs();
    buildActions();
    buildStatusBar();

    connect(setup_, &SetupPanel::pointChanged, this, &MainWindow::setupChanged);
    connect(setup_, &SetupPanel::searchChanged, this, [this] {
        if (!loadingProject_) session_->setModified(true);
    });
    connect(setup_, &SetupPanel::modelLoadFailed, this, [this](const QString& message) {
        lastError_ = message;
        statusBar()->showMessage(message, kTransientMessageMs);
    });
    connect(pointJob_, &PointEvaluationJob::finished, this, &MainWindow::showPlacement);
    connect(pointJob_, &PointEvaluationJob::failed, this, &MainWindow::showPointError);
    connect(pointJob_, &PointEvaluationJob::started, this,
            [this] { status_->setText(tr("Evaluating the point in the background…")); });
    connect(searchJob_, &SearchJob::pointsReady, this,
            [this](const std::vector<core::search::EvaluatedPoint>& points) {
                designSpace_->addPoints(points);
            });
    connect(searchJob_, &SearchJob::progress, this, [this](const core::search::SearchProgress& p) {
        progress_->setRange(0, 1000);
        progress_->setValue(p.total > 0 ? int(1000.0 * double(p.done) / double(p.total)) : 0);
        status_->setText(text(core::search::ProgressMeter::format(p)));
    });
    connect(searchJob_, &SearchJob::finished, this, &MainWindow::searchFinished);
    connect(searchJob_, &SearchJob::failed, this, [this](const QString& message) {
        lastError_ = message;
        status_->setText(tr("Search failed: %1").arg(message));
        QMessageBox::warning(this, tr("Search failed"), message);
    });
    connect(searchJob_, &SearchJob::runningChanged, this, [this](bool running) {
        startSearch_->setEnabled(!running);
        cancelSearch_->setEnabled(running);
        cancelButton_->setVisible(running);
        progress_->setVisible(running);
    });
    connect(designSpace_, &DesignSpaceChart::pointSelected, this, &MainWindow::selectSearchPoint);
    connect(session_, &ProjectSession::changed, this, [this] {
        refreshTitle();
        refreshRecentMenu();
    });

    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    tabs_->setCurrentIndex(settings.value("window/tab", 1).toInt());
    refreshTitle();
    refreshRecentMenu();
    evaluate();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildTabs() {
    tabs_ = new QTabWidget(this);
    designSpace_ = new DesignSpaceChart(tabs_);
    tabs_->addTab(designSpace_, tr("Design space"));

    schedule_ = new ScheduleView(tabs_);
    tabs_->addTab(schedule_, tr("Schedule"));
    pipeline_ = new PipelineView(tabs_);
    tabs_->addTab(pipeline_, tr("Pipeline"));
    placementView_ = new PlacementView(tabs_);
    tabs_->addTab(placementView_, tr("Placement"));
    layers_ = new LayerTableModel(this);
    tabs_->addTab(sortableTable(layers_, tabs_), tr("Layers"));
    comparison_ = new ComparisonView(tabs_);
    tabs_->addTab(comparison_, tr("Comparison"));
    summary_ = new SummaryPanel(tabs_);
    tabs_->addTab(summary_, tr("Summary"));

    auto* operatorsPage = new QWidget(tabs_);
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
    tabs_->addTab(operatorsPage, tr("Operators"));
    connect(layerCombo_, &QComboBox::currentIndexChanged, this, &MainWindow::showLayer);
    setCentralWidget(tabs_);
}

void MainWindow::buildActions() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New project"), QKeySequence::New, this, &MainWindow::newProject);
    file->addAction(tr("&Open project…"), QKeySequence::Open, this,
                    &MainWindow::openProjectInteractively);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Save project"), QKeySequence::Save, this,
                    [this] { saveProjectInteractively(false); });
    file->addAction(tr("Save project &as…"), QKeySequence::SaveAs, this,
                    [this] { saveProjectInteractively(true); });
    file->addSeparator();
    file->addAction(tr("Open &model…"), QKeySequence(tr("Ctrl+M")), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open model"), session_->lastFolder(),
                                         tr("Models (*.json *.onnx);;All files (*)"));
        if (!path.isEmpty()) openModelPath(path);
    });
    file->addSeparator();
    auto* exportChart = file->addAction(tr("&Export chart…"), QKeySequence(tr("Ctrl+E")), this,
                                        &MainWindow::exportCurrentChart);
    file->addAction(tr("Export results as &CSV…"), this, [this] { exportResults(false); });
    file->addAction(tr("Export results as &JSON…"), this, [this] { exportResults(true); });
    file->addAction(tr("Export schedule &trace…"), this, &MainWindow::exportTrace);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

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

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Tandem"), this, [this] { showAboutDialog(this); });

    auto* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName("mainToolbar");
    toolbar->addAction(evaluateAction);
    toolbar->addAction(startSearch_);
    toolbar->addAction(cancelSearch_);
    toolbar->addSeparator();
    toolbar->addAction(exportChart);
}

void MainWindow::buildStatusBar() {
    // The live readout is a permanent widget: transient messages (errors, "Saved …") show
    // beside it and time out, and never hide it.
    status_ = new QLabel(tr("Ready"), this);
    status_->setObjectName("liveReadout");
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(220);
    progress_->setVisible(false);
    progress_->setToolTip(tr("Points evaluated out of the points in the space"));
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setToolTip(tr("Stop the search; the points found so far are kept (Esc)"));
    cancelButton_->setVisible(false);
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelSearch);
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

void MainWindow::setupChanged() {
    if (loadingProject_) return;
    session_->setModified(true);
    requestPoint();
}

void MainWindow::requestPoint() {
    if (!setup_->isValid()) return;
    shownRequest_ = setup_->pointRequest();
    pointJob_->request(shownRequest_);
}

void MainWindow::evaluate() {
    requestPoint();
    pointJob_->evaluateNow();
}

void MainWindow::selectSearchPoint(qint64 pointIndex) {
    std::optional<core::search::SearchPoint> found;
    if (results_) {
        const auto& points = results_->points();
        auto it = std::lower_bound(points.begin(), points.end(), pointIndex,
                                   [](const auto& p, qint64 i) { return p.point.index < i; });
        if (it != points.end() && it->point.index == pointIndex) found = it->point;
    } else if (designSpace_->hasPoint(pointIndex)) {
        // A streamed point of the running search: explorers stamp grid.point(index), so the
        // search's grid gives the same point.
        if (!searchedGrid_) {
            auto grid = core::search::SearchGrid::create(searchedSpace_);
            if (!grid) return;
            searchedGrid_ = std::move(*grid);
        }
        if (pointIndex < searchedGrid_->pointCount()) found = searchedGrid_->point(pointIndex);
    }
    if (!found) return;
    core::placement::ModelPlacementRequest request = setup_->pointRequest();
    request.hardware = searchedSpace_.base;
    request.hardware.accelerator = found->accelerator;
    request.hardware.name = tr("search point %1").arg(pointIndex).toStdString();
    request.training.microbatch = found->microbatchSize;
    request.training.recompute = found->recompute;
    shownRequest_ = request;
    pointJob_->request(request);
    pointJob_->evaluateNow();
    designSpace_->selectPoint(pointIndex);
}

void MainWindow::showPlacement(quint64, std::shared_ptr<const core::placement::ModelPlacement> p) {
    QElapsedTimer took;
    took.start();
    placement_ = std::move(p);
    const auto& result = placement_->result;
    std::vector<std::string> names;
    if (!placement_->problem.widths.empty())
        for (const auto& layer : placement_->problem.widths.front().layers)
            names.push_back(layer.name);
    schedule_->setPlacement(placement_);
    layers_->setPlacement(placement_);
    if (result.plan) {
        auto plan = std::make_shared<const core::placement::Plan>(*result.plan);
        pipeline_->setPlan(plan, names);
        placementView_->setPlan(plan, names, shownRequest_.hardware.cluster.devices);
    } else {
        pipeline_->clearPlan(text(result.infeasibleReason));
        placementView_->clearPlan(text(result.infeasibleReason));
    }
    if (!baselines_) comparison_->setSinglePoint(*placement_, shownRequest_.hardware.accelerator);

    // Summary and Operators: the model at the plan's width (the first width when nothing fits).
    std::size_t w = 0;
    for (std::size_t i = 0; i < placement_->widths.size(); ++i)
        if (result.plan &&
            placement_->widths[i].graph->options().tensorParallel == result.plan->tensorParallel)
            w = i;
    estimateGraph_ = placement_->widths.empty() ? nullptr : placement_->widths[w].graph;
    auto estimator = core::estimate::OperatorEstimator::create(shownRequest_.hardware.accelerator,
                                                               shownRequest_.hardware.cluster);
    if (estimateGraph_ && estimator) {
        estimate_ = std::make_shared<const core::estimate::ModelEstimate>(
            core::estimate::estimateModel(*estimateGraph_, *estimator));
        summary_->showEvaluation(*estimateGraph_, shownRequest_.hardware, *estimate_);
        const QString previous = layerCombo_->currentText();
        const QSignalBlocker blocker(layerCombo_);
        layerCombo_->clear();
        for (const auto& layer : estimateGraph_->layers()) layerCombo_->addItem(text(layer.name));
        int index = layerCombo_->findText(previous);
        if (index < 0) index = std::min(1, layerCombo_->count() - 1);
        layerCombo_->setCurrentIndex(index);
        showLayer(index);
    }
    status_->setText(
        result.plan
            ? tr("%1 on %2: %3 samples/s (t %4, d %5, %6 stages)")
                  .arg(text(placement_->widths.empty() ? std::string()
                                                       : placement_->widths.front().graph->name()),
                       text(shownRequest_.hardware.name),
                       text(core::formatFixed(result.plan->throughputSamplesPerSecond, 2)))
                  .arg(result.plan->tensorParallel)
                  .arg(result.plan->dataParallel)
                  .arg(result.plan->stages.size())
            : tr("Nothing fits: %1").arg(text(result.infeasibleReason)));
    if (qEnvironmentVariableIsSet("TANDEM_TIMING"))
        qInfo("showPlacement %lld ms", (long long)took.elapsed());
}

void MainWindow::showPointError(quint64, const QString& message) {
    lastError_ = message;
    placement_.reset();
    schedule_->clear(message);
    pipeline_->clearPlan(message);
    placementView_->clearPlan(message);
    layers_->clear();
    summary_->showError(message);
    status_->setText(message);
}

void MainWindow::showLayer(int index) {
    if (estimateGraph_ && estimate_) operatorModel_->setLayer(estimateGraph_, estimate_, index);
}

void MainWindow::startSearch() {
    SearchRequest request = setup_->searchRequest();
    QString why;
    searchedGrid_.reset();
    designSpace_->clear();
    designSpace_->setReferencePoint(request.space.base.accelerator);
    results_.reset();
    baselines_.reset();
    searchedSpace_ = request.space;
    if (!searchJob_->start(std::move(request), &why)) {
        lastError_ = why;
        status_->setText(why);
        QMessageBox::information(this, tr("Cannot start the search"), why);
        return;
    }
    tabs_->setCurrentIndex(0);
    status_->setText(tr("Search started…"));
}

void MainWindow::cancelSearch() {
    searchJob_->cancel();
}

void MainWindow::searchFinished(std::shared_ptr<const core::search::SearchResults> results,
                                std::shared_ptr<const core::search::SearchBaselines> baselines) {
    results_ = std::move(results);
    baselines_ = std::move(baselines);
    searchedGrid_.reset();
    designSpace_->setResults(results_);
    if (baselines_) {
        comparison_->setBaselines(*baselines_);
        if (!baselines_->referenceInSpace)
            designSpace_->setReferenceOutcome(baselines_->referencePlaced, tr("reference chip"));
    }
    const auto& s = results_->statistics();
    status_->setText(tr("Search %1: %2 points in %3")
                         .arg(s.cancelled ? tr("cancelled") : tr("finished"))
                         .arg(text(core::formatCount(double(s.evaluated))))
                         .arg(text(core::formatSeconds(s.wallSeconds))));
    if (results_->best()) selectSearchPoint(results_->points()[*results_->best()].point.index);
}

void MainWindow::closeEvent(QCloseEvent* event) {
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
