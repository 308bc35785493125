#pragma once
// Reads and writes project files off the GUI thread (ARCHITECTURE.md §4.1), through
// core::io::ProjectFile so the CLI reads the same files. A JobRunner with one thread that
// answers every run, in the order asked: no save is lost, and a load started after a save reads
// what the save wrote. A save always completes, atomically (the core writes a temporary file
// and renames it: the old file survives a failure), even when the job is destroyed first; a
// load can be abandoned (its answer is then dropped). finish() waits for the running and queued
// runs and delivers their answers at once (closing the window after Save). Answers arrive on
// the job's thread: loaded / saved / failed, each with the run's id and the path. The files are
// read and written at background priority (background_priority.h).
#include <QMetaType>
#include <QObject>
#include <QString>
#include <memory>

#include "core/io/project_file.h"

namespace tandem::ui {

class JobRunner;

class ProjectFileJob : public QObject {
    Q_OBJECT
public:
    explicit ProjectFileJob(QObject* parent = nullptr);
    ~ProjectFileJob() override;  // waits for the running save or load

    quint64 load(const QString& path);
    quint64 save(const core::io::ProjectFile& project, const QString& path);
    void abandon(quint64 id);  // a load whose answer is no longer wanted

    bool busy() const;
    // Blocks until every run has finished, then emits their answers before returning.
    void finish();

signals:
    void loaded(quint64 id, QString path, std::shared_ptr<const tandem::core::io::ProjectFile>);
    void saved(quint64 id, QString path);
    void failed(quint64 id, QString path, QString message);
    void busyChanged(bool busy);

private:
    JobRunner* runner_ = nullptr;
};

}  // namespace tandem::ui

Q_DECLARE_METATYPE(std::shared_ptr<const tandem::core::io::ProjectFile>)
