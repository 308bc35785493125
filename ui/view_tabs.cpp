#include "ui/view_tabs.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/charts/breakdown_chart.h"
#include "ui/charts/design_space_chart.h"
#include "ui/charts/device_map_chart.h"
#include "ui/charts/gantt_chart.h"
#include "ui/charts/memory_chart.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/charts/roofline_chart.h"
#include "ui/charts/scaling_chart.h"
#include "ui/charts/tornado_chart.h"
#include "ui/models/layer_table_model.h"
#include "ui/models/operator_table_model.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/energy_budget_box.h"
#include "ui/panels/pipeline_view.h"
#include "ui/panels/placement_view.h"
#include "ui/panels/roofline_view.h"
#include "ui/panels/scaling_view.h"
#include "ui/panels/schedule_view.h"
#include "ui/panels/sensitivity_view.h"
#include "ui/panels/summary_panel.h"
#include "ui/widgets/fade_veil.h"

namespace tandem::ui {

namespace {
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

ViewTabs::ViewTabs(QWidget* parent) : QTabWidget(parent) {
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
    addPage(buildOperatorsPage(), tr("Operators"));
    roofline_ = new RooflineView;
    addPage(roofline_, tr("Roofline"));
    sensitivity_ = new SensitivityView;
    addPage(sensitivity_, tr("Sensitivity"));
    scaling_ = new ScalingView;
    addPage(scaling_, tr("Scaling"));
    // Days to train follow the Summary's token budget.
    EnergyBudgetBox* budget = summary_->energyBudget();
    scaling_->setTokenBudget(budget->tokens());
    connect(budget, &EnergyBudgetBox::budgetChanged, this,
            [this, budget] { scaling_->setTokenBudget(budget->tokens()); });
}

QWidget* ViewTabs::buildOperatorsPage() {
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
    connect(layerCombo_, &QComboBox::currentIndexChanged, this, &ViewTabs::showLayer);
    return operatorsPage;
}

// Every page sits in a frameless scroll area: a page wider or taller than the room it gets
// scrolls instead of setting the window's minimum size (a 1,024 × 768 projector with the set-up
// dock open leaves the tabs about 670 × 600 pixels).
void ViewTabs::addPage(QWidget* page, const QString& title) {
    auto* scroll = new QScrollArea(this);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    // The viewport paints the window's colour under the page, so a faded page (setFaded)
    // blends with that and nothing else.
    scroll->viewport()->setBackgroundRole(QPalette::Window);
    scroll->viewport()->setAutoFillBackground(true);
    scroll->setWidget(page);
    addTab(scroll, title);
}

QWidget* ViewTabs::page(int index) const {
    auto* scroll = qobject_cast<QScrollArea*>(widget(index));
    return scroll ? scroll->widget() : nullptr;
}

QWidget* ViewTabs::currentPage() const {
    return page(currentIndex());
}

void ViewTabs::showPage(QWidget* shown) {
    for (int i = 0; i < count(); ++i)
        if (page(i) == shown) setCurrentIndex(i);
}

void ViewTabs::setPointSubject(const QString& subject) {
    for (ChartWidget* chart : std::initializer_list<ChartWidget*>{
             schedule_->chart(), placementView_->deviceMap(), placementView_->memoryChart(),
             summary_->breakdownChart(), roofline_->chart()})
        chart->setSubject(subject);
    pipeline_->setSubject(subject);
}

ChartWidget* ViewTabs::currentChart() const {
    QWidget* shown = currentPage();
    if (shown == schedule_) return schedule_->chart();
    if (shown == pipeline_) return pipeline_->focusedChart();
    if (shown == placementView_) return placementView_->deviceMap();
    if (shown == designSpace_) return designSpace_;
    if (shown == roofline_) return roofline_->chart();
    if (shown == sensitivity_) return sensitivity_->chart();
    if (shown == scaling_) return scaling_->chart();
    return nullptr;
}

void ViewTabs::showPlacement(
    const std::shared_ptr<const core::placement::ModelPlacement>& placement, std::int64_t devices) {
    const auto& result = placement->result;
    std::vector<std::string> names;
    if (!placement->problem.widths.empty())
        for (const auto& layer : placement->problem.widths.front().layers)
            names.push_back(layer.name);
    schedule_->setPlacement(placement);
    layers_->setPlacement(placement);
    if (result.plan) {
        auto plan = std::make_shared<const core::placement::Plan>(*result.plan);
        pipeline_->setPlan(plan, names);
        placementView_->setPlan(plan, names, devices);
    } else {
        pipeline_->clearPlan(text(result.infeasibleReason));
        placementView_->clearPlan(text(result.infeasibleReason));
    }
    summary_->showPlan(result.plan ? &*result.plan : nullptr, text(result.infeasibleReason));
}

void ViewTabs::showPointError(const QString& message) {
    schedule_->clear(message);
    pipeline_->clearPlan(message);
    placementView_->clearPlan(message);
    layers_->clear();
    summary_->showError(message);
    roofline_->clear(message);
}

void ViewTabs::showEstimate(std::shared_ptr<const core::model::ModelGraph> graph,
                            const core::hardware::HardwarePoint& hardware,
                            std::shared_ptr<const core::estimate::ModelEstimate> estimate) {
    estimateGraph_ = std::move(graph);
    estimate_ = std::move(estimate);
    summary_->showEvaluation(*estimateGraph_, hardware, *estimate_);
    roofline_->showEstimate(estimateGraph_, hardware, estimate_);
    const QString previous = layerCombo_->currentText();
    const QSignalBlocker blocker(layerCombo_);
    layerCombo_->clear();
    for (const auto& layer : estimateGraph_->layers()) layerCombo_->addItem(text(layer.name));
    int index = layerCombo_->findText(previous);
    if (index < 0) index = std::min(1, layerCombo_->count() - 1);
    layerCombo_->setCurrentIndex(index);
    showLayer(index);
}

void ViewTabs::showLayer(int index) {
    if (estimateGraph_ && estimate_) operatorModel_->setLayer(estimateGraph_, estimate_, index);
}

void ViewTabs::setFaded(const QString& why) {
    // The point views fade while they show the last valid set-up; the design space shows a
    // search's results, which an invalid field does not touch.
    for (int i = 0; i < count(); ++i) {
        if (page(i) == designSpace_) continue;
        QWidget* tab = widget(i);  // the page's scroll area
        auto* veil = tab->findChild<FadeVeil*>(QString(), Qt::FindDirectChildrenOnly);
        if (!veil && why.isEmpty()) continue;
        if (!veil) veil = new FadeVeil(tab);
        veil->setFaded(!why.isEmpty());
    }
}

}  // namespace tandem::ui
