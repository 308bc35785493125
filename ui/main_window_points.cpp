// MainWindow's current point (ARCHITECTURE.md §1.10): one point drives every view — the set-up in
// the dock, or a design-space point — and the bar above the views says which. Editing the dock
// makes the set-up current again; a clicked point can become the set-up, be compared with it, or
// have its plan exported. Also here: whether the shown search results still answer the set-up.
#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <algorithm>

#include "core/common/text_file.h"
#include "core/common/units.h"
#include "core/io/placement_json.h"
#include "core/search/point_placement_request.h"
#include "ui/calibration/calibrate_dialog.h"
#include "ui/charts/design_space_chart.h"
#include "ui/charts/point_text.h"
#include "ui/jobs/estimate_job.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/main_window.h"
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
#include "ui/widgets/fade_veil.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

QString MainWindow::describe(const core::placement::ModelPlacementRequest& request) const {
    return tr("%1 on %2 × %3")
        .arg(text(request.model ? request.model->name() : std::string("no model")),
             text(core::formatCount(double(request.hardware.cluster.devices))),
             text(request.hardware.name));
}

void MainWindow::setupChanged() {
    if (loadingProject_) return;
    history_->record(setup_->project(),
                     nextEditName_.isEmpty() ? tr("Edit set-up") : nextEditName_);
    showSetUp();
}

void MainWindow::useCalibratedHardware(const core::hardware::HardwarePoint& point) {
    nextEditName_ = tr("Use calibrated hardware");
    setup_->useHardware(point);  // pointChanged → setupChanged: one undo step of that name
    nextEditName_.clear();
    statusBar()->showMessage(tr("The set-up now uses %1").arg(text(point.name)),
                             kTransientMessageMs);
}

void MainWindow::showSetUp() {
    if (calibrateDialog_) calibrateDialog_->setProjectHardware(setup_->hardware());
    shownPoint_ = -1;
    comparePoint_ = -1;
    pendingPointAction_ = PointAction::None;
    designSpace_->selectPoint(-1);
    unpinComparison();
    refreshResultsState();
    requestPoint();
}

void MainWindow::requestPoint() {
    if (!setup_->isValid()) {
        setNotUpdated(setup_->problem());
        return;
    }
    setNotUpdated({});
    shownPoint_ = -1;
    shownRequest_ = setup_->pointRequest();
    setupPlacement_.reset();  // it answered the set-up before this edit
    bar_->showSetUp(describe(shownRequest_));
    pointJob_->request(shownRequest_);
}

void MainWindow::evaluate() {
    showSetUp();
    pointJob_->evaluateNow();
}

void MainWindow::setNotUpdated(const QString& why) {
    bar_->setNotUpdated(why);
    // The point views fade while they show the last valid set-up; the design space shows a
    // search's results, which an invalid field does not touch.
    for (int i = 0; i < tabs_->count(); ++i) {
        if (page(i) == designSpace_) continue;
        QWidget* tab = tabs_->widget(i);  // the page's scroll area
        auto* veil = tab->findChild<FadeVeil*>(QString(), Qt::FindDirectChildrenOnly);
        if (!veil && why.isEmpty()) continue;
        if (!veil) veil = new FadeVeil(tab);
        veil->setFaded(!why.isEmpty());
    }
    if (!why.isEmpty()) status_->setFullText(tr("Not updated: %1").arg(why));
}

bool MainWindow::viewsUpToDate() const {
    return bar_->isUpdated();
}

void MainWindow::refreshResultsState() {
    if (designSpace_->pointCount() == 0) {
        designSpace_->setStale({});
        comparison_->setStale({});
        return;
    }
    const bool stale = setup_->project().searchFingerprint() != resultsFingerprint_;
    designSpace_->setStale(stale ? tr("set-up changed") : QString());
    comparison_->setStale(
        stale && baselines_
            ? tr("these are the results for %1; the set-up changed since").arg(resultsOwner_)
            : QString());
}

std::optional<core::search::SearchPoint> MainWindow::searchPointAt(qint64 pointIndex) {
    if (designSpace_->isStale()) return std::nullopt;
    if (results_) {
        const auto& points = results_->points();
        auto it = std::lower_bound(points.begin(), points.end(), pointIndex,
                                   [](const auto& p, qint64 i) { return p.point.index < i; });
        if (it != points.end() && it->point.index == pointIndex) return it->point;
        return std::nullopt;
    }
    if (!designSpace_->hasPoint(pointIndex)) return std::nullopt;
    // A streamed point of the running search: explorers stamp grid.point(index), so the
    // search's grid gives the same point.
    if (!searchedGrid_) {
        auto grid = core::search::SearchGrid::create(searchedSpace_);
        if (!grid) return std::nullopt;
        searchedGrid_ = std::move(*grid);
    }
    if (pointIndex >= searchedGrid_->pointCount()) return std::nullopt;
    return searchedGrid_->point(pointIndex);
}

void MainWindow::selectSearchPoint(qint64 pointIndex) {
    const auto found = searchPointAt(pointIndex);
    if (!found) return;
    // The set-up's model and training over the searched space: the point as the search ranked
    // it (core's placementRequestFor, checked against every point of a search by its test).
    core::search::SearchRequest searched = setup_->searchRequest();
    if (searched.models.empty()) return;  // no model to place (the set-up says why)
    searched.space = searchedSpace_;
    core::placement::ModelPlacementRequest request =
        core::search::placementRequestFor(searched, *found);
    request.hardware.name = tr("chip of point %1").arg(pointIndex).toStdString();
    unpinComparison();
    shownPoint_ = pointIndex;
    shownRequest_ = request;
    bar_->showSearchPoint(pointIndex,
                          describe(request) + tr(" · microbatch %1 · recompute %2")
                                                  .arg(found->microbatchSize)
                                                  .arg(recomputeText(found->recompute)),
                          modelThroughputsText(designSpace_->modelThroughputsOf(pointIndex)));
    pointJob_->request(request);
    pointJob_->evaluateNow();
    designSpace_->selectPoint(pointIndex);
}

void MainWindow::usePointAsSetUp() {
    if (shownPoint_ < 0) return;
    const auto found = searchPointAt(shownPoint_);
    if (!found) return;
    setup_->usePoint(*found);  // pointChanged → the set-up, now this point, is current
    status_->setFullText(
        tr("The set-up now uses the chip, microbatch and recompute of point %1").arg(found->index));
}

void MainWindow::compareWithSetUp() {
    if (shownPoint_ < 0 || !placement_) return;
    if (!setupPlacement_) {
        // The set-up's point in the background, on a job of its own so the shown point stays.
        if (!setup_->isValid()) {
            QMessageBox::information(
                this, tr("Compare with set-up"),
                tr("The set-up cannot be evaluated: %1").arg(setup_->problem()));
            return;
        }
        setupRequest_ = setup_->pointRequest();
        const qint64 point = shownPoint_;
        status_->setFullText(tr("Evaluating the set-up to compare it with point %1…").arg(point));
        setupJob_->request(setupRequest_);
        setupJob_->evaluateNow();
        comparePoint_ = point;
        return;
    }
    comparisonPinned_ = true;
    comparison_->setPair(*setupPlacement_, setupRequest_.hardware.accelerator, tr("the set-up"),
                         *placement_, shownRequest_.hardware.accelerator,
                         tr("point %1").arg(shownPoint_));
    showPage(comparison_);
}

void MainWindow::setupEvaluated(quint64, std::shared_ptr<const core::placement::ModelPlacement> p) {
    setupPlacement_ = std::move(p);
    const qint64 point = std::exchange(comparePoint_, -1);
    if (point >= 0 && point == shownPoint_) compareWithSetUp();
}

void MainWindow::unpinComparison() {
    if (!comparisonPinned_) return;
    comparisonPinned_ = false;
    if (baselines_) comparison_->setBaselines(*baselines_);
}

QString MainWindow::exportPlanTo(const QString& path) {
    if (!placement_) return tr("There is no evaluated point to export yet.");
    const core::Status status = core::writeFileAtomically(
        path.toStdString(), core::io::placementToJson(*placement_) + "\n");
    return status ? QString() : text(status.message());
}

void MainWindow::exportPlan() {
    if (!placement_) {
        QMessageBox::information(this, tr("Export plan"),
                                 tr("There is no evaluated point yet: wait for the evaluation "
                                    "(F5 evaluates now)."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export plan"), session_->lastFolder() + "/plan.json", tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    session_->rememberFolder(path);
    const QString error = exportPlanTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot export plan"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), kTransientMessageMs);
}

QMenu* MainWindow::pointMenu(qint64 pointIndex) {
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const auto then = [this, pointIndex](PointAction action) {
        return [this, pointIndex, action] {
            if (shownPoint_ != pointIndex) selectSearchPoint(pointIndex);
            if (shownPoint_ != pointIndex) return;
            if (action == PointAction::UseAsSetUp) {
                usePointAsSetUp();
            } else if (placement_ && shownId_ == pointJob_->latestId()) {
                action == PointAction::Compare ? compareWithSetUp() : exportPlan();
            } else {
                pendingPointAction_ = action;  // after its evaluation arrives
            }
        };
    };
    menu->addAction(tr("Show point %1").arg(pointIndex), this,
                    [this, pointIndex] { selectSearchPoint(pointIndex); });
    menu->addAction(tr("Use as set-up"), this, then(PointAction::UseAsSetUp));
    menu->addAction(tr("Compare with set-up"), this, then(PointAction::Compare));
    menu->addAction(tr("Export plan…"), this, then(PointAction::ExportPlan));
    return menu;
}

void MainWindow::showPlacement(quint64 id,
                               std::shared_ptr<const core::placement::ModelPlacement> p) {
    QElapsedTimer took;
    took.start();
    placement_ = std::move(p);
    shownId_ = id;
    if (shownPoint_ < 0) {  // the set-up's point: kept for "Compare with set-up"
        setupPlacement_ = placement_;
        setupRequest_ = shownRequest_;
    }
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
    if (!baselines_ && !comparisonPinned_)
        comparison_->setSinglePoint(*placement_, shownRequest_.hardware.accelerator);

    // Summary and Operators: the model at the plan's width (the first width when nothing fits).
    std::size_t w = 0;
    for (std::size_t i = 0; i < placement_->widths.size(); ++i)
        if (result.plan &&
            placement_->widths[i].graph->options().tensorParallel == result.plan->tensorParallel)
            w = i;
    summary_->showPlan(result.plan ? &*result.plan : nullptr, text(result.infeasibleReason));
    // The per-operator estimate runs in the background (EstimateJob) and fills both tabs.
    if (!placement_->widths.empty())
        estimateJob_->request(placement_->widths[w].graph, shownRequest_.hardware);
    status_->setFullText(
        result.plan
            ? tr("%1 on %2: %3 (t %4, d %5, %6 stages)")
                  .arg(text(placement_->widths.empty() ? std::string()
                                                       : placement_->widths.front().graph->name()),
                       text(shownRequest_.hardware.name),
                       throughputText(result.plan->throughputSamplesPerSecond))
                  .arg(result.plan->tensorParallel)
                  .arg(result.plan->dataParallel)
                  .arg(result.plan->stages.size())
            : tr("Nothing fits: %1").arg(text(result.infeasibleReason)));
    if (qEnvironmentVariableIsSet("TANDEM_TIMING"))
        qInfo("showPlacement %lld ms", (long long)took.elapsed());
    const PointAction pending = std::exchange(pendingPointAction_, PointAction::None);
    if (pending == PointAction::Compare) compareWithSetUp();
    if (pending == PointAction::ExportPlan) exportPlan();
}

void MainWindow::showPointError(quint64, const QString& message) {
    lastError_ = message;
    pendingPointAction_ = PointAction::None;
    if (shownPoint_ < 0) setupPlacement_.reset();
    placement_.reset();
    schedule_->clear(message);
    pipeline_->clearPlan(message);
    placementView_->clearPlan(message);
    layers_->clear();
    summary_->showError(message);
    status_->setFullText(message);
}

void MainWindow::showEstimate(quint64, std::shared_ptr<const core::model::ModelGraph> graph,
                              std::shared_ptr<const core::estimate::ModelEstimate> estimate) {
    estimateGraph_ = std::move(graph);
    estimate_ = std::move(estimate);
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

void MainWindow::showLayer(int index) {
    if (estimateGraph_ && estimate_) operatorModel_->setLayer(estimateGraph_, estimate_, index);
}

// The shown point's and the set-up's evaluations, and the Summary's estimate.
void MainWindow::connectPointJobs() {
    connect(pointJob_, &PointEvaluationJob::finished, this, &MainWindow::showPlacement);
    connect(pointJob_, &PointEvaluationJob::failed, this, &MainWindow::showPointError);
    connect(setupJob_, &PointEvaluationJob::finished, this, &MainWindow::setupEvaluated);
    connect(estimateJob_, &EstimateJob::finished, this, &MainWindow::showEstimate);
    connect(estimateJob_, &EstimateJob::failed, this,
            [this](quint64, const QString& why) { summary_->showError(why); });
    connect(setupJob_, &PointEvaluationJob::failed, this, [this](quint64, const QString& why) {
        comparePoint_ = -1;
        QMessageBox::information(this, tr("Compare with set-up"),
                                 tr("The set-up cannot be evaluated: %1").arg(why));
    });
    connect(pointJob_, &PointEvaluationJob::started, this,
            [this] { status_->setFullText(tr("Evaluating the point in the background…")); });
}

}  // namespace tandem::ui
