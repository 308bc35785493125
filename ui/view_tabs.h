#pragma once
// The main window's central tabs (ARCHITECTURE.md §1.10): Design space, Schedule, Pipeline,
// Placement, Layers, Comparison, Summary, Operators, Roofline, Sensitivity and Scaling, each in a
// frameless scroll area so a page larger than its room scrolls instead of widening the window.
// Display only: it shows the evaluated point it is given (showPlacement, showPointError,
// showEstimate) and fades the point views while the set-up has an invalid field; which point that
// is, and when, is the Workspace's business.
#include <QTabWidget>
#include <memory>

#include "core/estimate/model_estimate.h"
#include "core/hardware/hardware_point.h"
#include "core/placement/model_placement.h"

class QComboBox;

namespace tandem::ui {

class ChartWidget;
class ComparisonView;
class DesignSpaceChart;
class LayerTableModel;
class OperatorTableModel;
class PipelineView;
class PlacementView;
class RooflineView;
class ScalingView;
class SensitivityView;
class ScheduleView;
class SummaryPanel;

class ViewTabs : public QTabWidget {
    Q_OBJECT
public:
    explicit ViewTabs(QWidget* parent = nullptr);

    // The view on tab `index` (inside its scroll area), the current one, and making a view
    // current.
    QWidget* page(int index) const;
    QWidget* currentPage() const;
    void showPage(QWidget* page);
    // The current tab's chart (null on a tab without one).
    ChartWidget* currentChart() const;

    DesignSpaceChart* designSpace() const { return designSpace_; }
    ScheduleView* scheduleView() const { return schedule_; }
    PipelineView* pipelineView() const { return pipeline_; }
    PlacementView* placementView() const { return placementView_; }
    LayerTableModel* layerModel() const { return layers_; }
    ComparisonView* comparisonView() const { return comparison_; }
    SummaryPanel* summary() const { return summary_; }
    RooflineView* rooflineView() const { return roofline_; }
    SensitivityView* sensitivityView() const { return sensitivity_; }
    ScalingView* scalingView() const { return scaling_; }

    // An evaluated point in Schedule, Pipeline, Placement, Layers and the Summary's plan (the
    // Summary's per-operator figures follow with showEstimate).
    void showPlacement(const std::shared_ptr<const core::placement::ModelPlacement>& placement,
                       std::int64_t devices);
    // No point to show: every point view says why.
    void showPointError(const QString& message);
    // The Summary's evaluation and the Operators tab, from the per-operator estimate of the
    // point's model at its plan's width.
    void showEstimate(std::shared_ptr<const core::model::ModelGraph> graph,
                      const core::hardware::HardwarePoint& hardware,
                      std::shared_ptr<const core::estimate::ModelEstimate> estimate);
    // Fades every point view (not the design space) while `why` is not empty.
    void setFaded(const QString& why);
    // What the shown point's charts show (ChartWidget::setSubject): the Schedule, Pipeline,
    // Placement, Summary and Roofline charts. Sensitivity and Scaling name the point they
    // analysed when their answer arrives, the Design space its search, the Comparison its pair.
    void setPointSubject(const QString& subject);

private:
    void addPage(QWidget* page, const QString& title);
    QWidget* buildOperatorsPage();
    void showLayer(int index);

    DesignSpaceChart* designSpace_ = nullptr;
    ScheduleView* schedule_ = nullptr;
    PipelineView* pipeline_ = nullptr;
    PlacementView* placementView_ = nullptr;
    LayerTableModel* layers_ = nullptr;
    ComparisonView* comparison_ = nullptr;
    SummaryPanel* summary_ = nullptr;
    RooflineView* roofline_ = nullptr;
    SensitivityView* sensitivity_ = nullptr;
    ScalingView* scaling_ = nullptr;
    OperatorTableModel* operatorModel_ = nullptr;
    QComboBox* layerCombo_ = nullptr;
    std::shared_ptr<const core::estimate::ModelEstimate> estimate_;
    std::shared_ptr<const core::model::ModelGraph> estimateGraph_;
};

}  // namespace tandem::ui
