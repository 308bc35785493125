#include "ui/panels/sensitivity_view.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>

#include "ui/charts/tornado_chart.h"
#include "ui/jobs/analysis_job.h"

namespace tandem::ui {

SensitivityView::SensitivityView(QWidget* parent)
    : PointAnalysisView(tr("Move each hardware parameter down and up by 10 % and place the model "
                           "again (dozens of placements, in the background)"),
                        parent) {
    analyseButton()->setObjectName("analyseSensitivity");
    addControl(new QLabel(tr("Show:"), this));
    metric_ = new QComboBox(this);
    metric_->setObjectName("sensitivityMetric");
    metric_->addItem(tr("Throughput"), int(TornadoChart::Metric::Throughput));
    metric_->addItem(tr("Energy per sample"), int(TornadoChart::Metric::Energy));
    metric_->setToolTip(tr("The change the bars show: samples per second, or joules per sample"));
    addControl(metric_);
    chart_ = new TornadoChart(this);
    chart_->setMinimumHeight(420);
    setChart(chart_);
    connect(metric_, &QComboBox::currentIndexChanged, this,
            [this] { chart_->setMetric(TornadoChart::Metric(metric_->currentData().toInt())); });
    connect(job(), &AnalysisJob::sensitivityFinished, this,
            [this](quint64, std::shared_ptr<const core::search::SensitivityResult> result) {
                chart_->setSubject(description());
                chart_->setResult(result, tr("What limits this point: ±%1 % of each hardware "
                                             "parameter")
                                              .arg(100 * result->fraction, 0, 'f', 0));
                answered(result->cancelled
                             ? tr("Stopped: the chart shows the parameters measured so far")
                             : tr("%1 parameters measured; the longest bars limit this point "
                                  "most")
                                   .arg(result->entries.size()));
            });
}

void SensitivityView::start(const core::placement::ModelPlacementRequest& request) {
    job()->startSensitivity(request);
}

}  // namespace tandem::ui
