#include "ui/jobs/search_space_counter.h"

#include <QElapsedTimer>

#include "core/search/search_grid.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

SearchSpaceCounter::SearchSpaceCounter(QObject* parent)
    : QObject(parent), runner_(new JobRunner(JobRunner::Answers::LatestOnly, 1, this)) {}

void SearchSpaceCounter::count(const core::search::SearchSpace& space) {
    counting_ = true;
    counts_ = {};
    // The worker owns its copy of the space; the editor may change or die meanwhile.
    runner_->start(
        [space](core::RunControl&) {
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
        },
        [this](quint64, Counts counts) {
            counting_ = false;
            counts_ = std::move(counts);
            emit counted();
        });
}

void SearchSpaceCounter::cancel() {
    runner_->cancel();
    counting_ = false;
    counts_ = {};
}

}  // namespace tandem::ui
