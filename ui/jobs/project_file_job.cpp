#include "ui/jobs/project_file_job.h"

#include <QCoreApplication>
#include <QEvent>

#include "ui/jobs/background_priority.h"
#include "ui/jobs/file_save_run.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

ProjectFileJob::ProjectFileJob(QObject* parent)
    : QObject(parent), runner_(new JobRunner(JobRunner::Answers::Every, 1, this)) {
    qRegisterMetaType<std::shared_ptr<const core::io::ProjectFile>>();
    connect(runner_, &JobRunner::busyChanged, this, &ProjectFileJob::busyChanged);
}

ProjectFileJob::~ProjectFileJob() = default;  // the runner, a child, waits

bool ProjectFileJob::busy() const {
    return runner_->busy();
}

void ProjectFileJob::finish() {
    runner_->waitForDone();
    // The answers wait as queued calls to the runner: deliver them now, in order.
    QCoreApplication::sendPostedEvents(runner_, QEvent::MetaCall);
}

quint64 ProjectFileJob::load(const QString& path) {
    return runner_->start(
        [file = path.toStdString()](core::RunControl&) {
            lowerCurrentThreadPriority();
            return core::io::ProjectFile::load(file);
        },
        [this, path](quint64 id, core::Expected<core::io::ProjectFile> answer) {
            if (answer)
                emit loaded(id, path,
                            std::make_shared<const core::io::ProjectFile>(std::move(*answer)));
            else
                emit failed(id, path, QString::fromStdString(answer.message()));
        });
}

quint64 ProjectFileJob::save(const core::io::ProjectFile& project, const QString& path) {
    return startFileSave(*runner_, this, path,
                         [project, file = path.toStdString()] { return project.save(file); });
}

void ProjectFileJob::abandon(quint64 id) {
    runner_->cancel(id);
}

}  // namespace tandem::ui
