#pragma once
// The one way a file job (ProjectFileJob, ResultsFileJob) saves: `write` runs on the job's
// runner at background priority, always (Work::Always: a save is done even when the job is
// being destroyed), and its status comes back as the job's saved(id, path) or
// failed(id, path, message) signal.
#include <QString>
#include <functional>

#include "core/common/expected.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/job_runner.h"

namespace tandem::ui {

template <class FileJob>
quint64 startFileSave(JobRunner& runner, FileJob* job, const QString& path,
                      std::function<core::Status()> write) {
    return runner.start(
        [write = std::move(write)](core::RunControl&) {
            lowerCurrentThreadPriority();
            return write();
        },
        [job, path](quint64 id, core::Status status) {
            if (status)
                emit job->saved(id, path);
            else
                emit job->failed(id, path, QString::fromStdString(status.message()));
        },
        JobRunner::Work::Always);
}

}  // namespace tandem::ui
