#include "ui/panels/scaling_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/charts/scaling_chart.h"
#include "ui/jobs/scaling_job.h"

namespace tandem::ui {

ScalingView::ScalingView(QWidget* parent) : QWidget(parent), job_(new ScalingJob(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    analyse_ = new QPushButton(tr("&Analyse"), this);
    analyse_->setObjectName("analyseScaling");
    analyse_->setToolTip(
        tr("Place the shown set-up on clusters from 1/64 to 4 × its size "
           "(powers of two), in the background"));
    row->addWidget(analyse_);
    stop_ = new QPushButton(tr("Stop"), this);
    stop_->setToolTip(tr("Stop and show the sizes placed so far"));
    stop_->setEnabled(false);
    row->addWidget(stop_);
    mode_ = new QComboBox(this);
    mode_->setObjectName("scalingMode");
    mode_->addItem(tr("Strong scaling"), int(core::search::ScalingMode::Strong));
    mode_->addItem(tr("Weak scaling"), int(core::search::ScalingMode::Weak));
    mode_->setToolTip(
        tr("Strong: the same global batch on more devices. Weak: the global batch "
           "grows with the devices, so each keeps its share"));
    row->addWidget(mode_);
    row->addWidget(new QLabel(tr("Show:"), this));
    metric_ = new QComboBox(this);
    metric_->setObjectName("scalingMetric");
    metric_->addItem(tr("Throughput"), int(ScalingChart::Metric::Throughput));
    metric_->addItem(tr("MFU"), int(ScalingChart::Metric::Mfu));
    metric_->addItem(tr("Days to train"), int(ScalingChart::Metric::DaysToTrain));
    metric_->setToolTip(tr("Days to train use the Summary's token budget"));
    row->addWidget(metric_);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setVisible(false);
    row->addWidget(progress_, 1);
    status_ = new QLabel(tr("No point evaluated yet"), this);
    status_->setWordWrap(true);
    row->addWidget(status_, 2);
    layout->addLayout(row);
    chart_ = new ScalingChart(this);
    chart_->setMinimumHeight(420);
    layout->addWidget(chart_, 1);
    analyse_->setEnabled(false);

    connect(analyse_, &QPushButton::clicked, this, &ScalingView::analyse);
    connect(stop_, &QPushButton::clicked, this, &ScalingView::stop);
    connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
        if (analysed_ && !job_->busy()) analyse();  // another question: ask it
    });
    connect(metric_, &QComboBox::currentIndexChanged, this,
            [this] { chart_->setMetric(ScalingChart::Metric(metric_->currentData().toInt())); });
    connect(job_, &ScalingJob::progress, this,
            [this](quint64, double done, double total, const QString& message) {
                progress_->setValue(total > 0 ? int(1000 * done / total) : 0);
                status_->setText(tr("Placed on %1…").arg(message));
            });
    connect(job_, &ScalingJob::finished, this,
            [this](quint64, std::shared_ptr<const core::search::ScalingResult> result) {
                finished(std::move(result));
            });
    connect(job_, &ScalingJob::failed, this, [this](quint64, const QString& message) {
        setBusy(false);
        status_->setText(tr("Cannot analyse this point: %1").arg(message));
    });
    connect(job_, &ScalingJob::busyChanged, this, &ScalingView::setBusy);
}

ScalingView::~ScalingView() = default;

void ScalingView::setPoint(core::placement::ModelPlacementRequest request,
                           const QString& description) {
    request_ = std::move(request);
    description_ = description;
    ++pointVersion_;
    analyse_->setEnabled(!job_->busy());
    if (analysed_)
        status_->setText(tr("The shown point changed since this chart: Analyse again"));
    else if (!job_->busy())
        status_->setText(tr("Ready: Analyse places %1 on other cluster sizes").arg(description_));
}

void ScalingView::setTokenBudget(double tokens) {
    chart_->setTokenBudget(tokens);
}

void ScalingView::analyse() {
    if (!request_) return;
    runVersion_ = pointVersion_;
    progress_->setValue(0);
    setBusy(true);
    status_->setText(tr("Placing %1 on other cluster sizes…").arg(description_));
    job_->start(*request_, core::search::ScalingMode(mode_->currentData().toInt()),
                core::search::defaultScalingSizes(request_->hardware.cluster.devices));
}

void ScalingView::stop() {
    job_->stop();
}

QString ScalingView::statusText() const {
    return status_->text();
}

void ScalingView::setBusy(bool busy) {
    progress_->setVisible(busy);
    stop_->setEnabled(busy);
    analyse_->setEnabled(!busy && request_.has_value());
}

std::shared_ptr<const core::search::ScalingResult> ScalingView::currentResult() const {
    return analysedVersion_ == pointVersion_ ? chart_->result() : nullptr;
}

void ScalingView::finished(std::shared_ptr<const core::search::ScalingResult> result) {
    setBusy(false);
    analysed_ = true;
    analysedVersion_ = runVersion_;
    const double tokensPerSample = request_ && request_->model
                                       ? double(request_->training.sequenceLength > 0
                                                    ? request_->training.sequenceLength
                                                    : request_->model->defaultSequenceLength())
                                       : 0.0;
    chart_->setResult(result, tr("Scaling of %1").arg(description_), tokensPerSample);
    int fits = 0;
    for (const auto& p : result->points) fits += p.fits;
    status_->setText(result->cancelled
                         ? tr("Stopped: the chart shows the sizes placed so far")
                         : tr("%1 of %2 sizes fit; hover a point for its plan and efficiency")
                               .arg(fits)
                               .arg(result->points.size()));
    if (runVersion_ != pointVersion_)
        status_->setText(tr("The shown point changed since this chart: Analyse again"));
}

}  // namespace tandem::ui
