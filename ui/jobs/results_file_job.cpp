#include "ui/jobs/results_file_job.h"
#include "ui/jobs/pool_handoff.h"

#include <QMetaObject>
#include <QPointer>

#include "core/io/search_results_reader.h"

namespace tandem::ui {

ResultsFileJob::ResultsFileJob(QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(1);
}

ResultsFileJob::~ResultsFileJob() {
    pool_.waitForDone();
}

template <typename Work, typename Done>
quint64 ResultsFileJob::start(const QString& path, Work work, Done done) {
    const quint64 id = ++nextId_;
    if (running_++ == 0) emit busyChanged(true);
    QPointer<ResultsFileJob> self(this);
    startOnPool(pool_, [self, id, path, work = std::move(work), done = std::move(done)]() mutable {
        auto answer = work();  // runs on the pool
        QMetaObject::invokeMethod(
            self.data(),
            [self, id, path, answer = std::move(answer), done = std::move(done)]() mutable {
                if (!self) return;
                // Bookkeeping first: busyChanged(false) comes before the answer, so a window
                // that shows a dialog about the answer no longer shows a busy bar under it.
                const bool dropped = self->abandoned_.count(id) > 0;
                self->finish(id);
                if (!dropped) done(*self, id, path, std::move(answer));
            },
            Qt::QueuedConnection);
    });
    return id;
}

void ResultsFileJob::finish(quint64 id) {
    loads_.erase(id);
    abandoned_.erase(id);
    if (--running_ == 0) emit busyChanged(false);
}

quint64 ResultsFileJob::load(const QString& path) {
    using Answer = core::Expected<core::io::SearchReport>;
    const quint64 id = start(
        path, [file = path.toStdString()] { return core::io::loadSearchReportJson(file); },
        [](ResultsFileJob& job, quint64 id, const QString& path, Answer answer) {
            if (answer)
                emit job.loaded(id, path,
                                std::make_shared<const core::io::SearchReport>(std::move(*answer)));
            else
                emit job.failed(id, path, QString::fromStdString(answer.message()));
        });
    loads_.insert(id);
    return id;
}

quint64 ResultsFileJob::saveJson(std::shared_ptr<const core::io::SearchReport> report,
                                 const QString& path) {
    return start(
        path,
        [report = std::move(report), file = path.toStdString()] {
            return core::io::saveSearchReportJson(file, *report);
        },
        [](ResultsFileJob& job, quint64 id, const QString& path, core::Status status) {
            if (status)
                emit job.saved(id, path);
            else
                emit job.failed(id, path, QString::fromStdString(status.message()));
        });
}

quint64 ResultsFileJob::saveCsv(std::shared_ptr<const core::search::SearchResults> results,
                                const QString& path) {
    return start(
        path,
        [results = std::move(results), file = path.toStdString()] {
            return results->saveCsv(file);
        },
        [](ResultsFileJob& job, quint64 id, const QString& path, core::Status status) {
            if (status)
                emit job.saved(id, path);
            else
                emit job.failed(id, path, QString::fromStdString(status.message()));
        });
}

void ResultsFileJob::abandonLoads() {
    abandoned_.insert(loads_.begin(), loads_.end());
}

}  // namespace tandem::ui
