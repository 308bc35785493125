#include "ui/widgets/status_readout.h"

#include <QFrame>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include "ui/widgets/elided_label.h"

namespace tandem::ui {

StatusReadout::StatusReadout(QStatusBar* bar) : QObject(bar) {
    label_ = new ElidedLabel(tr("Ready"), bar);
    label_->setObjectName("liveReadout");
    // Set apart from transient messages, which QStatusBar clips at its left edge.
    auto* separator = new QFrame(bar);
    separator->setFrameShape(QFrame::VLine);
    separator->setFrameShadow(QFrame::Sunken);
    progress_ = new QProgressBar(bar);
    progress_->setMaximumWidth(220);
    progress_->setVisible(false);
    progress_->setToolTip(tr("Points evaluated out of the points in the space"));
    cancel_ = new QPushButton(tr("Cancel"), bar);
    cancel_->setToolTip(tr("Stop the search; the points found so far are kept (Esc)"));
    cancel_->setVisible(false);
    connect(cancel_, &QPushButton::clicked, this, &StatusReadout::cancelClicked);
    bar->addPermanentWidget(separator);
    bar->addPermanentWidget(label_);
    bar->addPermanentWidget(progress_);
    bar->addPermanentWidget(cancel_);
}

QString StatusReadout::text() const {
    return label_->fullText();
}

void StatusReadout::setText(const QString& text) {
    label_->setFullText(text);
}

void StatusReadout::showFileActivity(const QString& activity) {
    if (fileActivity_.isEmpty() || label_->fullText() != fileActivity_)
        readoutBeforeFiles_ = label_->fullText();
    fileActivity_ = activity;
    label_->setFullText(activity);
}

void StatusReadout::setFilesBusy(bool busy) {
    if (!busy && !fileActivity_.isEmpty()) {  // done or failed: the readout it replaced
        if (label_->fullText() == fileActivity_) label_->setFullText(readoutBeforeFiles_);
        fileActivity_.clear();
    }
    if (searchRunning_) return;               // the search owns the progress bar
    progress_->setRange(0, busy ? 0 : 1000);  // busy: an indeterminate bar
    progress_->setVisible(busy);
}

void StatusReadout::setSearchRunning(bool running) {
    searchRunning_ = running;
    cancel_->setVisible(running);
    progress_->setVisible(running);
}

void StatusReadout::showSearchProgress(const core::search::SearchProgress& p) {
    progress_->setRange(0, 1000);
    progress_->setValue(p.total > 0 ? int(1000.0 * double(p.done) / double(p.total)) : 0);
    label_->setFullText(QString::fromStdString(core::search::ProgressMeter::format(p)));
}

}  // namespace tandem::ui
