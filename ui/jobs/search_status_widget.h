#pragma once
// The status-bar face of a SearchJob (the main window's status bar with progress, ETA
// and Cancel): while a search runs, a progress bar reading "1,234 / 35,008 points · 56.7 points/s ·
// ETA 3.4 min" and a Cancel button (partial results are kept); when it ends, one line saying how
// it ended (points kept, feasible points, wall time) or why it failed. All text comes from core's
// formatters, so the status bar and the CLI print the same numbers the same way.
#include <QWidget>
#include <memory>

#include "core/search/progress_meter.h"
#include "core/search/search_baselines.h"
#include "core/search/search_results.h"

class QLabel;
class QProgressBar;
class QToolButton;

namespace tandem::ui {

class SearchJob;

class SearchStatusWidget : public QWidget {
    Q_OBJECT
public:
    // Follows `job` (which must outlive this widget or be its ancestor's child).
    explicit SearchStatusWidget(SearchJob* job, QWidget* parent = nullptr);

    QString progressText() const;  // what the bar shows while a search runs
    QString summaryText() const;   // the line shown after a search ended

private:
    void onStarted();
    void onProgress(const core::search::SearchProgress& progress);
    void onFinished(const std::shared_ptr<const core::search::SearchResults>& results);
    void onFailed(const QString& message);
    void showRunning(bool running);

    SearchJob* job_;
    QProgressBar* bar_;
    QToolButton* cancel_;
    QLabel* summary_;
};

}  // namespace tandem::ui
