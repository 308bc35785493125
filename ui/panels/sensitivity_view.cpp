#include "ui/panels/sensitivity_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/charts/tornado_chart.h"
#include "ui/jobs/sensitivity_job.h"

namespace tandem::ui {

SensitivityView::SensitivityView(QWidget* parent)
    : QWidget(parent), job_(new SensitivityJob(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    analyse_ = new QPushButton(tr("&Analyse"), this);
    analyse_->setObjectName("analyseSensitivity");
    analyse_->setToolTip(
        tr("Move each hardware parameter down and up by 10 % and place the "
           "model again (dozens of placements, in the background)"));
    row->addWidget(analyse_);
    stop_ = new QPushButton(tr("Stop"), this);
    stop_->setToolTip(tr("Stop and show the parameters measured so far"));
    stop_->setEnabled(false);
    row->addWidget(stop_);
    row->addWidget(new QLabel(tr("Show:"), this));
    metric_ = new QComboBox(this);
    metric_->setObjectName("sensitivityMetric");
    metric_->addItem(tr("Throughput"), int(TornadoChart::Metric::Throughput));
    metric_->addItem(tr("Energy per sample"), int(TornadoChart::Metric::Energy));
    metric_->setToolTip(tr("The change the bars show: samples per second, or joules per sample"));
    row->addWidget(metric_);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setVisible(false);
    row->addWidget(progress_, 1);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    row->addWidget(status_, 2);
    layout->addLayout(row);
    chart_ = new TornadoChart(this);
    chart_->setMinimumHeight(420);
    layout->addWidget(chart_, 1);

    connect(analyse_, &QPushButton::clicked, this, &SensitivityView::analyse);
    connect(stop_, &QPushButton::clicked, this, &SensitivityView::stop);
    connect(metric_, &QComboBox::currentIndexChanged, this,
            [this] { chart_->setMetric(TornadoChart::Metric(metric_->currentData().toInt())); });
    connect(job_, &SensitivityJob::progress, this,
            [this](quint64, double done, double total, const QString& message) {
                progress_->setValue(total > 0 ? int(1000 * done / total) : 0);
                progress_->setFormat(tr("%1 of %2 placements").arg(done).arg(total));
                status_->setText(tr("Moving %1…").arg(message));
            });
    connect(job_, &SensitivityJob::finished, this, &SensitivityView::finished);
    connect(job_, &SensitivityJob::failed, this, [this](quint64, const QString& message) {
        setBusy(false);
        status_->setText(tr("Cannot analyse this point: %1").arg(message));
    });
    connect(job_, &SensitivityJob::busyChanged, this, &SensitivityView::setBusy);
    status_->setText(tr("No point evaluated yet"));
    analyse_->setEnabled(false);
}

SensitivityView::~SensitivityView() = default;

void SensitivityView::setPoint(core::placement::ModelPlacementRequest request,
                               const QString& description) {
    request_ = std::move(request);
    description_ = description;
    ++pointVersion_;
    analyse_->setEnabled(!job_->busy());
    if (analysedVersion_ != 0)
        status_->setText(tr("This chart answers %1; the shown point changed: Analyse again")
                             .arg(analysedDescription_));
    else if (!job_->busy())
        status_->setText(tr("Ready: Analyse measures %1").arg(description_));
}

void SensitivityView::analyse() {
    if (!request_) return;
    runVersion_ = pointVersion_;
    progress_->setValue(0);
    setBusy(true);
    status_->setText(tr("Placing %1 again for each parameter…").arg(description_));
    job_->start(*request_);
}

void SensitivityView::stop() {
    job_->stop();
}

QString SensitivityView::statusText() const {
    return status_->text();
}

void SensitivityView::setBusy(bool busy) {
    progress_->setVisible(busy);
    stop_->setEnabled(busy);
    analyse_->setEnabled(!busy && request_.has_value());
}

void SensitivityView::finished(quint64,
                               std::shared_ptr<const core::search::SensitivityResult> result) {
    setBusy(false);
    analysedVersion_ = runVersion_;
    analysedDescription_ = description_;
    chart_->setResult(result, tr("What limits %1: ±%2 % of each hardware parameter")
                                  .arg(description_)
                                  .arg(100 * result->fraction, 0, 'f', 0));
    status_->setText(result->cancelled
                         ? tr("Stopped: the chart shows the parameters measured so far")
                         : tr("%1 parameters measured; the longest bars limit this point most")
                               .arg(result->entries.size()));
    if (analysedVersion_ != pointVersion_)
        status_->setText(tr("This chart answers %1; the shown point changed: Analyse again")
                             .arg(analysedDescription_));
}

}  // namespace tandem::ui
