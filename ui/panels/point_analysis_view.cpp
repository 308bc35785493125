#include "ui/panels/point_analysis_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/jobs/analysis_job.h"

namespace tandem::ui {

PointAnalysisView::PointAnalysisView(const QString& analyseTip, QWidget* parent)
    : QWidget(parent), job_(new AnalysisJob(this)) {
    layout_ = new QVBoxLayout(this);
    row_ = new QHBoxLayout;
    analyse_ = new QPushButton(tr("&Analyse"), this);
    analyse_->setToolTip(analyseTip);
    analyse_->setEnabled(false);
    row_->addWidget(analyse_);
    stop_ = new QPushButton(tr("Stop"), this);
    stop_->setToolTip(tr("Stop and show what was measured so far"));
    stop_->setEnabled(false);
    row_->addWidget(stop_);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setVisible(false);
    row_->addWidget(progress_, 1);
    status_ = new QLabel(tr("No point evaluated yet"), this);
    status_->setWordWrap(true);
    row_->addWidget(status_, 2);
    layout_->addLayout(row_);

    connect(analyse_, &QPushButton::clicked, this, &PointAnalysisView::analyse);
    connect(stop_, &QPushButton::clicked, this, &PointAnalysisView::stop);
    connect(job_, &AnalysisJob::progress, this,
            [this](quint64, double done, double total, const QString& message) {
                progress_->setValue(total > 0 ? int(1000 * done / total) : 0);
                progress_->setFormat(tr("%1 of %2").arg(done).arg(total));
                status_->setText(tr("%1…").arg(message));
            });
    connect(job_, &AnalysisJob::failed, this, [this](quint64, const QString& message) {
        setBusy(false);
        status_->setText(tr("Cannot analyse this point: %1").arg(message));
    });
    connect(job_, &AnalysisJob::busyChanged, this, &PointAnalysisView::setBusy);
}

void PointAnalysisView::addControl(QWidget* control) {
    row_->insertWidget(row_->indexOf(progress_), control);
}

void PointAnalysisView::setChart(QWidget* chart) {
    layout_->addWidget(chart, 1);
}

void PointAnalysisView::setPoint(core::placement::ModelPlacementRequest request,
                                 const QString& description) {
    request_ = std::move(request);
    description_ = description;
    ++pointVersion_;
    analyse_->setEnabled(!job_->busy());
    if (answered_)
        status_->setText(
            tr("This chart answers an earlier point; the shown point changed: "
               "Analyse again"));
    else if (!job_->busy())
        status_->setText(tr("Ready: Analyse measures %1").arg(description_));
}

void PointAnalysisView::analyse() {
    if (!request_) return;
    runVersion_ = pointVersion_;
    progress_->setValue(0);
    setBusy(true);
    status_->setText(tr("Placing %1 again…").arg(description_));
    start(*request_);
}

void PointAnalysisView::stop() {
    job_->stop();
}

QString PointAnalysisView::statusText() const {
    return status_->text();
}

void PointAnalysisView::setStatus(const QString& text) {
    status_->setText(text);
}

void PointAnalysisView::setBusy(bool busy) {
    progress_->setVisible(busy);
    stop_->setEnabled(busy);
    analyse_->setEnabled(!busy && request_.has_value());
}

void PointAnalysisView::answered(const QString& summary) {
    setBusy(false);
    answered_ = true;
    analysedVersion_ = runVersion_;
    status_->setText(analysedVersion_ == pointVersion_
                         ? summary
                         : tr("This chart answers an earlier point; the shown point changed: "
                              "Analyse again"));
}

}  // namespace tandem::ui
