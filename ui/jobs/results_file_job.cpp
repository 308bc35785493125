#include "ui/jobs/results_file_job.h"

#include "core/io/search_results_reader.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/file_save_run.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

ResultsFileJob::ResultsFileJob(QObject* parent)
    : QObject(parent), runner_(new JobRunner(JobRunner::Answers::Every, 1, this)) {
    connect(runner_, &JobRunner::busyChanged, this, &ResultsFileJob::busyChanged);
}

ResultsFileJob::~ResultsFileJob() = default;

bool ResultsFileJob::busy() const {
    return runner_->busy();
}

void ResultsFileJob::waitForDone() {
    runner_->waitForDone();
}

quint64 ResultsFileJob::load(const QString& path) {
    const quint64 id = runner_->start(
        [file = path.toStdString()](core::RunControl&) {
            lowerCurrentThreadPriority();  // hundreds of megabytes: never before the event loop
            return core::io::loadSearchReportJson(file);
        },
        [this, path](quint64 id, core::Expected<core::io::SearchReport> answer) {
            loads_.erase(id);
            if (answer)
                emit loaded(id, path,
                            std::make_shared<const core::io::SearchReport>(std::move(*answer)));
            else
                emit failed(id, path, QString::fromStdString(answer.message()));
        });
    loads_.insert(id);
    return id;
}

quint64 ResultsFileJob::save(const QString& path, std::function<core::Status()> write) {
    return startFileSave(*runner_, this, path, std::move(write));
}

quint64 ResultsFileJob::saveJson(std::shared_ptr<const core::io::SearchReport> report,
                                 const QString& path) {
    return save(path, [report = std::move(report), file = path.toStdString()] {
        return core::io::saveSearchReportJson(file, *report);
    });
}

quint64 ResultsFileJob::saveCsv(std::shared_ptr<const core::search::SearchResults> results,
                                const QString& path) {
    return save(path, [results = std::move(results), file = path.toStdString()] {
        return results->saveCsv(file);
    });
}

void ResultsFileJob::abandonLoads() {
    for (quint64 id : loads_) runner_->cancel(id);
    loads_.clear();
}

}  // namespace tandem::ui
