#include "ui/search_questions.h"

#include <QAbstractButton>
#include <QMessageBox>
#include <QPushButton>

#include "core/common/system_memory.h"
#include "core/common/units.h"
#include "core/search/search_footprint.h"
#include "ui/editors/search_space_editor.h"
#include "ui/widgets/status_readout.h"

namespace tandem::ui {

namespace {
// The question's text, from the same figures and formatting as the status bar's readout.
QString longSearchText(const core::search::SearchProgress& p) {
    using core::search::ProgressMeter;
    return QObject::tr(
               "At its measured rate (%1) this search needs about %2 more for %3 "
               "points. Keep searching? If you stop, the points found so far are kept.")
        .arg(QString::fromStdString(ProgressMeter::formatRate(p)),
             QString::fromStdString(ProgressMeter::formatEta(p)),
             QString::fromStdString(core::formatCount(double(p.total - p.done))));
}
}  // namespace

SearchQuestions::SearchQuestions(QWidget* window, const SearchSpaceEditor* editor,
                                 StatusReadout* readout)
    : QObject(window), window_(window), editor_(editor), readout_(readout) {}

bool SearchQuestions::confirmStart(const core::search::SearchRequest& request) {
    namespace cs = core::search;
    asked_ = false;  // a new search asks again
    const std::int64_t chips = editor_->chipCount();
    if (chips <= 0 || editor_->isCounting()) return true;
    const cs::SearchFootprint footprint = cs::estimateSearchFootprint(
        chips, editor_->pointCount() / chips, std::int64_t(request.models.size()), request.threads);
    if (auto fits = cs::checkSearchMemory(footprint, core::availableMemoryBytes()); !fits) {
        const QString why = QString::fromStdString("This search cannot start: " + fits.message());
        readout_->setText(why);
        QMessageBox::information(window_, tr("Search too large for this computer"), why);
        return false;
    }
    const std::string warning = cs::longSearchWarning(footprint);
    if (warning.empty()) return true;
    QMessageBox box(QMessageBox::Question, tr("Long search"),
                    tr("Before it starts, an estimate: %1.\n\nStart the search anyway?")
                        .arg(QString::fromStdString(warning)),
                    QMessageBox::NoButton, window_);
    box.setObjectName(QStringLiteral("searchSizeQuestion"));
    box.addButton(tr("Start the search"), QMessageBox::AcceptRole);
    QAbstractButton* cancel = box.addButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() != cancel;
}

void SearchQuestions::progressed(const core::search::SearchProgress& p) {
    if (box_) {  // asked and still open: it follows the readout, one rate and ETA
        box_->setText(longSearchText(p));
        return;
    }
    if (asked_ || p.etaSeconds <= kLongSearchSeconds || p.done < 2 * 64) return;
    asked_ = true;
    auto* box = new QMessageBox(QMessageBox::Question, tr("Long search"), longSearchText(p),
                                QMessageBox::NoButton, window_);
    box_ = box;
    box->addButton(tr("Keep searching"), QMessageBox::AcceptRole);
    auto* stop = box->addButton(tr("Stop now"), QMessageBox::RejectRole);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("longSearchQuestion"));
    // Not modal: the search and the views keep going while the question waits.
    connect(box, &QMessageBox::buttonClicked, this, [this, stop](QAbstractButton* b) {
        if (b == static_cast<QAbstractButton*>(stop)) emit stopRequested();
    });
    box->open();
}

}  // namespace tandem::ui
