#pragma once
// Reads and writes search-results files in the background (ARCHITECTURE.md §4): the JSON of
// `tandem-cli search --json` (core/io/search_results_json.h, search_results_reader.h) and the
// CSV — hundreds of megabytes for PHAZE's full space, seconds of work that must not freeze the
// window. Each call gets an id and runs on a private one-thread pool, so files are written and
// read in the order asked; answers arrive on the GUI thread. A load can be abandoned (its answer
// is then dropped); a save always completes, atomically (the old file survives a failure).
// busyChanged(false) is emitted before the last answer (loaded, saved or failed).
// Destroying the job waits for the running file.
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <memory>
#include <set>

#include "core/io/search_results_json.h"

namespace tandem::ui {

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

    bool busy() const { return running_ > 0; }
    void waitForDone() { pool_.waitForDone(); }

signals:
    void loaded(quint64 id, QString path,
                std::shared_ptr<const tandem::core::io::SearchReport> report);
    void saved(quint64 id, QString path);
    void failed(quint64 id, QString path, QString message);
    void busyChanged(bool busy);

private:
    // Runs `work` (which returns an error message, empty on success) on the pool.
    template <typename Work, typename Done>
    quint64 start(const QString& path, Work work, Done done);
    void finish(quint64 id);

    QThreadPool pool_;
    quint64 nextId_ = 0;
    int running_ = 0;
    std::set<quint64> loads_;      // loads not yet answered
    std::set<quint64> abandoned_;  // loads whose answer is dropped
};

}  // namespace tandem::ui
