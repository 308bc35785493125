// The Workspace's current point: one point drives every view — the set-up in the dock, or a
// design-space point — and the bar above the views says which. Editing the dock makes the set-up
// current again; a picked point can become the set-up, be compared with it, or have its plan
// exported.
#include <QElapsedTimer>

#include "core/common/text_file.h"
#include "core/common/units.h"
#include "core/hardware/chip_description.h"
#include "core/io/placement_json.h"
#include "core/search/point_placement_request.h"
#include "ui/charts/design_space_chart.h"
#include "ui/charts/point_text.h"
#include "ui/jobs/estimate_job.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/current_point_bar.h"
#include "ui/panels/scaling_view.h"
#include "ui/panels/sensitivity_view.h"
#include "ui/panels/setup_panel.h"
#include "ui/panels/summary_panel.h"
#include "ui/view_tabs.h"
#include "ui/widgets/status_readout.h"
#include "ui/workspace.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

QString Workspace::describe(const core::placement::ModelPlacementRequest& request) const {
    return tr("%1 on %2 × %3")
        .arg(text(request.model ? request.model->name() : std::string("no model")),
             text(core::formatCount(double(request.hardware.cluster.devices))),
             text(request.hardware.name));
}

QString Workspace::pointSubject(const core::placement::ModelPlacementRequest& request) const {
    return tr("%1 · %2").arg(describe(request),
                             text(core::hardware::describeChip(request.hardware.accelerator)));
}

void Workspace::showSetUp() {
    emit setUpShown();
    shownPoint_ = -1;
    comparePoint_ = -1;
    pendingPointAction_ = PointAction::None;
    views_->designSpace()->selectPoint(-1);
    unpinComparison();
    refreshResultsState();
    requestPoint();
}

void Workspace::requestPoint() {
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

void Workspace::evaluate() {
    showSetUp();
    pointJob_->evaluateNow();
}

void Workspace::setNotUpdated(const QString& why) {
    bar_->setNotUpdated(why);
    views_->setFaded(why);
    if (!why.isEmpty()) readout_->setText(tr("Not updated: %1").arg(why));
}

bool Workspace::viewsUpToDate() const {
    return bar_->isUpdated();
}

std::optional<core::search::SearchPoint> Workspace::searchPointAt(qint64 pointIndex) {
    const DesignSpaceChart* designSpace = views_->designSpace();
    if (designSpace->isStale()) return std::nullopt;
    if (results_) {
        const auto& points = results_->points();
        auto it = std::lower_bound(points.begin(), points.end(), pointIndex,
                                   [](const auto& p, qint64 i) { return p.point.index < i; });
        if (it != points.end() && it->point.index == pointIndex) return it->point;
        return std::nullopt;
    }
    if (!designSpace->hasPoint(pointIndex)) return std::nullopt;
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

void Workspace::selectSearchPoint(qint64 pointIndex) {
    const auto found = searchPointAt(pointIndex);
    if (!found) return;
    // The set-up's model and training over the searched space: the point as the search ranked
    // it (core's placementRequestFor, checked against every point of a search by its test).
    core::search::SearchRequest searched = setup_->searchRequest();
    if (searched.models.empty()) return;  // no model to place (the set-up says why)
    searched.space = searchedSpace_;
    if (shownModel_ >= searched.models.size()) shownModel_ = 0;
    core::placement::ModelPlacementRequest request =
        core::search::placementRequestFor(searched, *found, shownModel_);
    QStringList modelNames;
    for (const auto& model : searched.models) modelNames << text(model->name());
    bar_->setModels(modelNames, int(shownModel_));
    request.hardware.name = tr("chip of point %1").arg(pointIndex).toStdString();
    unpinComparison();
    shownPoint_ = pointIndex;
    shownRequest_ = request;
    bar_->showSearchPoint(
        pointIndex,
        describe(request) + tr(" · microbatch %1 · recompute %2")
                                .arg(found->microbatchSize)
                                .arg(recomputeText(found->recompute)),
        modelThroughputsText(views_->designSpace()->modelThroughputsOf(pointIndex)));
    pointJob_->request(request);
    pointJob_->evaluateNow();
    views_->designSpace()->selectPoint(pointIndex);
}

void Workspace::actOnPoint(qint64 pointIndex, PointAction action) {
    if (shownPoint_ != pointIndex) selectSearchPoint(pointIndex);
    if (shownPoint_ != pointIndex) return;
    if (action == PointAction::UseAsSetUp) {
        usePointAsSetUp();
    } else if (placement_ && shownId_ == pointJob_->latestId()) {
        if (action == PointAction::Compare) compareWithSetUp();
        if (action == PointAction::ExportPlan) emit exportPlanRequested();
    } else {
        pendingPointAction_ = action;  // after its evaluation arrives
    }
}

void Workspace::usePointAsSetUp() {
    if (shownPoint_ < 0) return;
    const auto found = searchPointAt(shownPoint_);
    if (!found) return;
    setup_->usePoint(*found);  // pointChanged → the set-up, now this point, is current
    readout_->setText(
        tr("The set-up now uses the chip, microbatch and recompute of point %1").arg(found->index));
}

void Workspace::compareWithSetUp() {
    if (shownPoint_ < 0 || !placement_) return;
    if (shownModel_ != 0) {  // the set-up places its own model, the first
        emit information(
            tr("Compare with set-up"),
            tr("The set-up places %1; the views show %2 at point %3. Choose %1 in "
               "\"Views show\" above the tabs to compare the two.")
                .arg(setup_->model() ? text(setup_->model()->name()) : tr("no model"),
                     text(shownRequest_.model ? shownRequest_.model->name() : std::string()))
                .arg(shownPoint_));
        return;
    }
    if (!setupPlacement_) {
        // The set-up's point in the background, on a job of its own so the shown point stays.
        if (!setup_->isValid()) {
            emit information(tr("Compare with set-up"),
                             tr("The set-up cannot be evaluated: %1").arg(setup_->problem()));
            return;
        }
        setupRequest_ = setup_->pointRequest();
        const qint64 point = shownPoint_;
        readout_->setText(tr("Evaluating the set-up to compare it with point %1…").arg(point));
        setupJob_->request(setupRequest_);
        setupJob_->evaluateNow();
        comparePoint_ = point;
        return;
    }
    comparisonPinned_ = true;
    views_->comparisonView()->setPair(
        *setupPlacement_, setupRequest_.hardware.accelerator, tr("the set-up"), *placement_,
        shownRequest_.hardware.accelerator, tr("point %1").arg(shownPoint_));
    views_->showPage(views_->comparisonView());
}

void Workspace::setupEvaluated(quint64, std::shared_ptr<const core::placement::ModelPlacement> p) {
    setupPlacement_ = std::move(p);
    const qint64 point = std::exchange(comparePoint_, -1);
    if (point >= 0 && point == shownPoint_) compareWithSetUp();
}

void Workspace::unpinComparison() {
    if (!comparisonPinned_) return;
    comparisonPinned_ = false;
    if (baselines_) views_->comparisonView()->setBaselines(*baselines_);
}

QString Workspace::exportPlanTo(const QString& path) {
    if (!placement_) return tr("There is no evaluated point to export yet.");
    const core::Status status = core::writeFileAtomically(
        path.toStdString(), core::io::placementToJson(*placement_) + "\n");
    return status ? QString() : text(status.message());
}

QString Workspace::chartCaption(bool designSpace) const {
    if (designSpace)
        return resultsOwner_.isEmpty() ? QString()
                                       : tr("Tandem · design space of %1").arg(resultsOwner_);
    QString caption = tr("Tandem · %1").arg(describe(shownRequest_));
    if (shownPoint_ >= 0) caption += tr(" · design-space point %1").arg(shownPoint_);
    if (placement_ && placement_->result.plan)
        caption += tr(" · %1").arg(planShapeText(*placement_->result.plan));
    return caption;
}

void Workspace::showPlacement(quint64 id,
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
    views_->showPlacement(placement_, shownRequest_.hardware.cluster.devices);
    const QString subject = pointSubject(shownRequest_);
    views_->setPointSubject(subject);
    views_->sensitivityView()->setPoint(shownRequest_, subject);
    views_->scalingView()->setPoint(shownRequest_, subject);
    views_->comparisonView()->setSubject(
        tr("%1 · each row the chip and plan of its column above")
            .arg(text(shownRequest_.model ? shownRequest_.model->name() : std::string())));
    if (!baselines_ && !comparisonPinned_)
        views_->comparisonView()->setSinglePoint(*placement_, shownRequest_.hardware.accelerator);
    // Summary and Operators: the model at the plan's width (the first width when nothing fits),
    // estimated per operator in the background (EstimateJob).
    std::size_t w = 0;
    for (std::size_t i = 0; i < placement_->widths.size(); ++i)
        if (result.plan &&
            placement_->widths[i].graph->options().tensorParallel == result.plan->tensorParallel)
            w = i;
    if (!placement_->widths.empty())
        estimateJob_->request(placement_->widths[w].graph, shownRequest_.hardware);
    readout_->setText(
        result.plan
            ? tr("%1 on %2: %3 (t %4, d %5, %6)")
                  .arg(text(placement_->widths.empty() ? std::string()
                                                       : placement_->widths.front().graph->name()),
                       text(shownRequest_.hardware.name),
                       throughputText(result.plan->throughputSamplesPerSecond))
                  .arg(result.plan->tensorParallel)
                  .arg(result.plan->dataParallel)
                  .arg(countText(std::int64_t(result.plan->stages.size()), tr("stage"),
                                 tr("stages")))
            : tr("Nothing fits: %1").arg(text(result.infeasibleReason)));
    if (qEnvironmentVariableIsSet("TANDEM_TIMING"))
        qInfo("showPlacement %lld ms", (long long)took.elapsed());
    const PointAction pending = std::exchange(pendingPointAction_, PointAction::None);
    if (pending == PointAction::Compare) compareWithSetUp();
    if (pending == PointAction::ExportPlan) emit exportPlanRequested();
}

void Workspace::showPointError(quint64, const QString& message) {
    lastError_ = message;
    pendingPointAction_ = PointAction::None;
    if (shownPoint_ < 0) setupPlacement_.reset();
    placement_.reset();
    views_->setPointSubject(pointSubject(shownRequest_));
    views_->showPointError(message);
    readout_->setText(message);
}

// The shown point's and the set-up's evaluations, and the Summary's estimate.
void Workspace::connectPointJobs() {
    connect(pointJob_, &PointEvaluationJob::finished, this, &Workspace::showPlacement);
    connect(pointJob_, &PointEvaluationJob::failed, this, &Workspace::showPointError);
    connect(setupJob_, &PointEvaluationJob::finished, this, &Workspace::setupEvaluated);
    connect(estimateJob_, &EstimateJob::finished, this,
            [this](quint64, std::shared_ptr<const core::model::ModelGraph> graph,
                   std::shared_ptr<const core::estimate::ModelEstimate> estimate) {
                views_->showEstimate(std::move(graph), shownRequest_.hardware, std::move(estimate));
            });
    connect(estimateJob_, &EstimateJob::failed, this,
            [this](quint64, const QString& why) { views_->summary()->showError(why); });
    connect(setupJob_, &PointEvaluationJob::failed, this, [this](quint64, const QString& why) {
        comparePoint_ = -1;
        emit information(tr("Compare with set-up"),
                         tr("The set-up cannot be evaluated: %1").arg(why));
    });
    connect(pointJob_, &PointEvaluationJob::started, this,
            [this] { readout_->setText(tr("Evaluating the point in the background…")); });
}

}  // namespace tandem::ui
