#include "ui/editors/search_space_counter.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include "core/search/search_grid.h"

namespace tandem::ui {

SearchSpaceCounter::SearchSpaceCounter(QObject* parent) : QObject(parent) {}

void SearchSpaceCounter::count(const core::search::SearchSpace& space) {
    const std::uint64_t job = ++job_;
    counting_ = true;
    counts_ = {};
    auto* watcher = new QFutureWatcher<Counts>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        if (job != job_) return;  // a newer space was shown meanwhile
        counting_ = false;
        counts_ = watcher->result();
        emit counted();
    });
    // The worker owns its copy of the space; the editor may change or die meanwhile.
    watcher->setFuture(QtConcurrent::run([space] {
        QElapsedTimer timer;
        timer.start();
        Counts counts;
        const auto grid = core::search::SearchGrid::create(space);
        if (grid.ok()) {
            counts.chips = grid->chipCount();
            counts.points = grid->pointCount();
        } else {
            counts.error = QString::fromStdString(grid.message());
        }
        counts.seconds = double(timer.nsecsElapsed()) * 1e-9;
        return counts;
    }));
}

void SearchSpaceCounter::cancel() {
    ++job_;
    counting_ = false;
    counts_ = {};
}

}  // namespace tandem::ui
