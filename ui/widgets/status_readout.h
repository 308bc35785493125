#pragma once
// The status bar's permanent part: the live readout (what the window is doing or last did, elided
// with the whole text in its tool tip), a progress bar and a Cancel button for the search.
// Transient messages (QStatusBar::showMessage: errors, "Saved …") show beside it and time out;
// they never hide it. While a results file is read or written the readout says so ("Reading
// r.json…") with a busy bar, and shows again what it replaced once the file job is idle, done
// or failed; a search owns the bar while it runs.
#include <QObject>
#include <QString>

#include "core/search/progress_meter.h"

class QProgressBar;
class QPushButton;
class QStatusBar;

namespace tandem::ui {

class ElidedLabel;

class StatusReadout : public QObject {
    Q_OBJECT
public:
    // Adds its widgets to `bar` (they belong to the bar's window).
    explicit StatusReadout(QStatusBar* bar);

    QString text() const;
    void setText(const QString& text);

    // A file job started ("Reading r.json…"), and the file jobs being busy or idle.
    void showFileActivity(const QString& activity);
    void setFilesBusy(bool busy);
    // The search's progress: the readout's rate and ETA, the bar's fraction.
    void setSearchRunning(bool running);
    void showSearchProgress(const core::search::SearchProgress& progress);

signals:
    void cancelClicked();

private:
    ElidedLabel* label_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QString fileActivity_;
    QString readoutBeforeFiles_;  // shown again when the file job is idle
    bool searchRunning_ = false;
};

}  // namespace tandem::ui
