#pragma once
// A search's checkpoint (`tandem-cli search --checkpoint FILE`, ARCHITECTURE.md §4.6): the points
// a run has finished, so that an interrupted run — Ctrl+C, SIGTERM from a batch scheduler, a
// crash, a lost node — resumes where it stopped. The file is text:
//   tandem-checkpoint 1
//   <header: one line naming the run; the CLI writes its run description (search_run_info.h)>
//   <one point record per line (point_record.h)>
// It is created atomically with its header, and records are only ever appended: a batch goes
// out in one write(2) followed by fdatasync, every few seconds and when the writer closes. A
// crash can therefore leave at most a torn last line (no newline), which the reader drops and
// the next writer cuts off before appending; any other damage is an error naming the line.
// Copies of a point (two runs appending at once, before checkpoints were locked:
// checkpoint_lock.h) are read as one when their results agree and refused when they do not.
// A write that fails (a full disk) is reported at once through the writer's callback; the
// writer then writes nothing more, and the run can go on without it.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/common/expected.h"
#include "core/search/evaluated_point.h"
#include "core/search/search_grid.h"

namespace tandem::core::search {

struct CheckpointContents {
    std::string header;
    std::vector<EvaluatedPoint> points;  // file order, SearchPoints from the grid
    std::uintmax_t validBytes = 0;       // the file up to the end of its last whole line
    bool tornTail = false;               // a last line without its newline was dropped
    std::int64_t duplicates = 0;         // records dropped as copies of an earlier one
};

// Errors: an unreadable file, another format or version, a header missing, a damaged record
// (its line number and what is wrong), two records of one point whose results differ (both
// line numbers, and how to recover). Records of one point that differ only in their timings
// (`seconds`) are copies: the first is kept and the others counted in `duplicates`.
Expected<CheckpointContents> readCheckpoint(const std::filesystem::path& path,
                                            const SearchGrid& grid);

class CheckpointWriter {
public:
    // A new checkpoint (`validBytes` 0: the file must not exist; it is created with the header)
    // or the continuation of one that readCheckpoint read (cut to `validBytes` first). Records
    // added go out every `interval`. `onFailure`, when set, is called once with the message of
    // the first failed write, on the thread that hit it, while the run goes on.
    using FailureCallback = std::function<void(const std::string& message)>;
    static Expected<std::unique_ptr<CheckpointWriter>> open(
        const std::filesystem::path& path, const std::string& header, std::uintmax_t validBytes,
        std::chrono::milliseconds interval = std::chrono::seconds(2),
        FailureCallback onFailure = {});
    ~CheckpointWriter();  // close()s
    CheckpointWriter(const CheckpointWriter&) = delete;
    CheckpointWriter& operator=(const CheckpointWriter&) = delete;

    // Queues a finished point; thread-safe and cheap (the encoding, then a buffer append).
    // After a failure it drops the point: nothing more will be written.
    void add(const EvaluatedPoint& point);
    // Writes what is queued now. The first failure (disk full, file removed) is kept and
    // returned by every later call; records after it are not written.
    Status flush();
    // Stops the periodic writes and flushes the rest; returns flush()'s status.
    Status close();
    // Records this writer put into the file whole (also those of a batch cut short by a
    // failure): with the ones read before, what the checkpoint holds.
    std::int64_t written() const;

private:
    CheckpointWriter(int fd, std::filesystem::path path, std::chrono::milliseconds interval,
                     FailureCallback onFailure);
    void periodic();

    int fd_ = -1;
    std::filesystem::path path_;
    std::chrono::milliseconds interval_;
    FailureCallback onFailure_;
    mutable std::mutex mutex_;  // buffer_, error_, written_, stopping_
    std::mutex writeMutex_;     // one write at a time, in order
    std::condition_variable wake_;
    std::string buffer_;
    std::int64_t buffered_ = 0;
    std::int64_t written_ = 0;
    std::string error_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace tandem::core::search
