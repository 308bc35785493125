#include "ui/panels/scaling_view.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>

#include "ui/charts/scaling_chart.h"
#include "ui/jobs/analysis_job.h"

namespace tandem::ui {

ScalingView::ScalingView(QWidget* parent)
    : PointAnalysisView(tr("Place the shown set-up on clusters from 1/64 to 4 × its size "
                           "(powers of two), in the background"),
                        parent) {
    analyseButton()->setObjectName("analyseScaling");
    mode_ = new QComboBox(this);
    mode_->setObjectName("scalingMode");
    mode_->addItem(tr("Strong scaling"), int(core::search::ScalingMode::Strong));
    mode_->addItem(tr("Weak scaling"), int(core::search::ScalingMode::Weak));
    mode_->setToolTip(
        tr("Strong: the same global batch on more devices. Weak: the global batch "
           "grows with the devices, so each keeps its share"));
    addControl(mode_);
    addControl(new QLabel(tr("Show:"), this));
    metric_ = new QComboBox(this);
    metric_->setObjectName("scalingMetric");
    metric_->addItem(tr("Throughput"), int(ScalingChart::Metric::Throughput));
    metric_->addItem(tr("MFU"), int(ScalingChart::Metric::Mfu));
    metric_->addItem(tr("Days to train"), int(ScalingChart::Metric::DaysToTrain));
    metric_->setToolTip(tr("Days to train use the Summary's token budget"));
    addControl(metric_);
    chart_ = new ScalingChart(this);
    chart_->setMinimumHeight(420);
    setChart(chart_);

    connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
        if (analysedOnce() && !job()->busy()) analyse();  // another question: ask it
    });
    connect(metric_, &QComboBox::currentIndexChanged, this,
            [this] { chart_->setMetric(ScalingChart::Metric(metric_->currentData().toInt())); });
    connect(job(), &AnalysisJob::scalingFinished, this,
            [this](quint64, std::shared_ptr<const core::search::ScalingResult> result) {
                const auto& r = request();
                const double tokensPerSample =
                    r ? double(core::placement::trainedSequenceLength(r->training, r->model.get()))
                      : 0.0;
                chart_->setSubject(description());
                chart_->setResult(result, tr("Scaling with the number of devices"),
                                  tokensPerSample);
                int fits = 0;
                for (const auto& p : result->points) fits += p.fits;
                answered(result->cancelled
                             ? tr("Stopped: the chart shows the sizes placed so far")
                             : tr("%1 of %2 sizes fit; hover a point for its plan and efficiency")
                                   .arg(fits)
                                   .arg(result->points.size()));
            });
}

void ScalingView::setTokenBudget(double tokens) {
    chart_->setTokenBudget(tokens);
}

std::shared_ptr<const core::search::ScalingResult> ScalingView::currentResult() const {
    return answersShownPoint() ? chart_->result() : nullptr;
}

void ScalingView::start(const core::placement::ModelPlacementRequest& request) {
    job()->startScaling(request, core::search::ScalingMode(mode_->currentData().toInt()),
                        core::search::defaultScalingSizes(request.hardware.cluster.devices));
}

}  // namespace tandem::ui
