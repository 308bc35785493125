// Workspace's File ▸ Export report…: what the tabs show, gathered into core's HTML report
// (or its PDF).
#include "core/io/training_report.h"
#include "ui/charts/design_space_chart.h"
#include "ui/charts/roofline_chart.h"
#include "ui/panels/energy_budget_box.h"
#include "ui/panels/roofline_view.h"
#include "ui/panels/scaling_view.h"
#include "ui/panels/summary_panel.h"
#include "ui/report_pdf.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

#include <QComboBox>
#include <QFileInfo>

namespace tandem::ui {

QString Workspace::exportReportTo(const QString& path) {
    if (!placement_)
        return tr(
            "There is no evaluated point to report on yet: wait for the evaluation (F5 "
            "evaluates now).");
    core::io::ReportInputs in;
    in.title = describe(shownRequest_).toStdString();
    in.modelName = shownRequest_.model ? shownRequest_.model->name() : std::string();
    in.hardware = shownRequest_.hardware;
    in.training = shownRequest_.training;
    if (placement_->result.plan) in.plan = *placement_->result.plan;
    in.infeasibleReason = placement_->result.infeasibleReason;
    const EnergyBudgetBox* budget = views_->summary()->energyBudget();
    const double tokensPerSample = double(
        core::placement::trainedSequenceLength(shownRequest_.training, shownRequest_.model.get()));
    in.budget = core::io::BudgetContext{
        {budget->tokens(), budget->pricePerDeviceHour() > 0 ? budget->pricePerDeviceHour() : -1.0},
        tokensPerSample};
    const RooflineView* roofline = views_->rooflineView();
    if (roofline->chart()->roofline()) {
        in.roofline = *roofline->chart()->roofline();
        in.rooflineLayer = roofline->layerChooser()->currentText().toStdString();
    }
    // The Scaling tab's study when it answers this point (not an earlier one's).
    if (const auto scaled = views_->scalingView()->currentResult()) in.scaling = *scaled;
    if (results_ && !views_->designSpace()->isStale()) {
        in.search = results_;
        if (baselines_) in.baselines = *baselines_;
    }
    // A .pdf: the same HTML laid out on A4 pages (report_pdf.h); anything else: the HTML.
    if (QFileInfo(path).suffix().compare("pdf", Qt::CaseInsensitive) == 0)
        return writeReportPdf(QString::fromStdString(core::io::reportHtml(in)), path);
    const core::Status status = core::io::saveReportHtml(path.toStdString(), in);
    return status ? QString() : QString::fromStdString(status.message());
}

}  // namespace tandem::ui
