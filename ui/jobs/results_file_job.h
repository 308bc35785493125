#pragma once
// Reads and writes search-results files in the background (ARCHITECTURE.md §4): the JSON of
// `tandem-cli search --json` (core/io/search_results_json.h, search_results_reader.h) and the
// CSV — hundreds of megabytes for PHAZE's full space, seconds of work that must not freeze the
// window. A JobRunner with one thread that answers every run: files are written and read in the
// order asked; answers arrive on the GUI thread. A load can be abandoned (its answer is then
// dropped); a save always completes, atomically (the old file survives a failure), even when
// the job is destroyed first. busyChanged(false) is emitted before the last answer (loaded,
// saved or failed). Destroying the job waits for the files.
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <set>

#include "core/io/search_results_json.h"

namespace tandem::ui {

class JobRunner;

class ResultsFileJob : public QObject {
    Q_OBJECT
public:
    explicit ResultsFileJob(QObject* parent = nullptr);
    ~ResultsFileJob() override;

    quint64 load(const QString& path);
    quint64 saveJson(std::shared_ptr<const core::io::SearchReport> report, const QString& path);
    quint64 saveCsv(std::shared_ptr<const core::search::SearchResults> results,
                    const QString& path);
    // Drops the answer of every load still running or queued.
    void abandonLoads();

    bool busy() const;
    void waitForDone();

signals:
    void loaded(quint64 id, QString path,
                std::shared_ptr<const tandem::core::io::SearchReport> report);
    void saved(quint64 id, QString path);
    void failed(quint64 id, QString path, QString message);
    void busyChanged(bool busy);

private:
    quint64 save(const QString& path, std::function<core::Status()> write);

    JobRunner* runner_ = nullptr;
    std::set<quint64> loads_;  // loads not yet answered
};

}  // namespace tandem::ui
