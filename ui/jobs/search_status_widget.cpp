#include "ui/jobs/search_status_widget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <algorithm>

#include "core/common/units.h"
#include "ui/jobs/search_job.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
constexpr int kBarSteps = 1000;  // per-mille resolution: smooth for any point count
}  // namespace

SearchStatusWidget::SearchStatusWidget(SearchJob* job, QWidget* parent)
    : QWidget(parent), job_(job) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);

    bar_ = new QProgressBar(this);
    bar_->setRange(0, kBarSteps);
    bar_->setTextVisible(true);
    // The text carries the numbers; make the bar wide enough that it is never elided.
    bar_->setMinimumWidth(bar_->fontMetrics().horizontalAdvance(
                              "888,888 / 888,888 points · 888 points/s · ETA 88.8 min") +
                          24);
    bar_->setToolTip(
        tr("Search progress: points evaluated out of the points to visit (the "
           "reference chip's points for the Comparison baselines included), the "
           "evaluation rate and the estimated time left"));
    cancel_ = new QToolButton(this);
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the search; the points evaluated so far are kept"));
    cancel_->setAutoRaise(false);
    summary_ = new QLabel(this);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    layout->addWidget(bar_);
    layout->addWidget(cancel_);

    connect(cancel_, &QToolButton::clicked, this, [this] {
        job_->cancel();
        cancel_->setEnabled(false);
        cancel_->setText(tr("Cancelling…"));
    });
    connect(job_, &SearchJob::started, this, &SearchStatusWidget::onStarted);
    connect(job_, &SearchJob::progress, this, &SearchStatusWidget::onProgress);
    connect(job_, &SearchJob::finished, this,
            [this](std::shared_ptr<const core::search::SearchResults> results,
                   std::shared_ptr<const core::search::SearchBaselines>) { onFinished(results); });
    connect(job_, &SearchJob::failed, this, &SearchStatusWidget::onFailed);
    showRunning(job_->running());
    if (job_->running()) onProgress(job_->lastProgress());
}

QString SearchStatusWidget::progressText() const {
    return bar_->format();
}
QString SearchStatusWidget::summaryText() const {
    return summary_->text();
}

void SearchStatusWidget::showRunning(bool running) {
    bar_->setVisible(running);
    cancel_->setVisible(running);
    cancel_->setEnabled(running);
    cancel_->setText(tr("Cancel"));
    summary_->setVisible(!running && !summary_->text().isEmpty());
}

void SearchStatusWidget::onStarted() {
    bar_->setValue(0);
    bar_->setFormat(tr("Preparing the search…"));
    showRunning(true);
}

void SearchStatusWidget::onProgress(const core::search::SearchProgress& progress) {
    const double fraction =
        progress.total > 0 ? double(progress.done) / double(progress.total) : 0.0;
    bar_->setValue(std::clamp(int(fraction * kBarSteps + 0.5), 0, kBarSteps));
    bar_->setFormat(text(core::search::ProgressMeter::format(progress)));
}

void SearchStatusWidget::onFinished(
    const std::shared_ptr<const core::search::SearchResults>& results) {
    const auto& stats = results->statistics();
    const auto feasible = std::count_if(results->points().begin(), results->points().end(),
                                        [](const auto& p) { return p.feasible(); });
    const QString points = text(core::formatCount(double(stats.evaluated)));
    const QString space = text(core::formatCount(double(stats.pointsInSpace)));
    const QString wall = text(core::formatSeconds(stats.wallSeconds));
    const QString line =
        stats.cancelled ? tr("Search cancelled: %1 of %2 points kept, %3 feasible (%4)")
                              .arg(points, space, text(core::formatCount(double(feasible))), wall)
                        : tr("Search finished: %1 points, %2 feasible, in %3")
                              .arg(points, text(core::formatCount(double(feasible))), wall);
    summary_->setText(line);
    summary_->setToolTip(tr("Explorer: %1 · %2 threads · %3 points skipped by the bound")
                             .arg(text(stats.explorer))
                             .arg(stats.threads)
                             .arg(text(core::formatCount(double(stats.skipped)))));
    showRunning(false);
}

void SearchStatusWidget::onFailed(const QString& message) {
    // The status bar is one line: the first line of the message, all of it in the tooltip.
    summary_->setText(tr("Search failed: %1").arg(message.section('\n', 0, 0)));
    summary_->setToolTip(message);
    showRunning(false);
}

}  // namespace tandem::ui
