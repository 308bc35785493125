#pragma once
// The questions a search asks its user (ARCHITECTURE.md §1.10). Before it starts: the core
// estimate of its size (core/search/search_footprint.h) over the chips the search-space editor
// counted — a space this computer cannot hold is refused, one estimated at more than an hour
// asks first. While it runs: once its measured rate says it needs more than kLongSearchSeconds,
// it asks, once and without blocking, whether to go on (Stop keeps the points found so far); the
// question follows the status bar's readout, so both state one rate and one ETA.
#include <QObject>
#include <QPointer>

#include "core/search/progress_meter.h"
#include "core/search/search_run.h"

class QMessageBox;
class QWidget;

namespace tandem::ui {

class SearchSpaceEditor;
class StatusReadout;

class SearchQuestions : public QObject {
    Q_OBJECT
public:
    static constexpr double kLongSearchSeconds = 300;

    // Dialogs open over `window`; `editor` counts the space, `readout` says why one is refused.
    SearchQuestions(QWidget* window, const SearchSpaceEditor* editor, StatusReadout* readout);

    // False: do not start (refused or declined). Not counted yet: true, and the search thread
    // refuses an oversized space itself.
    bool confirmStart(const core::search::SearchRequest& request);
    // The running search's progress: asks once when it will be long.
    void progressed(const core::search::SearchProgress& progress);

signals:
    void stopRequested();

private:
    QWidget* window_;
    const SearchSpaceEditor* editor_;
    StatusReadout* readout_;
    bool asked_ = false;
    QPointer<QMessageBox> box_;  // the long-search question while it is open
};

}  // namespace tandem::ui
