#pragma once
// Keeps a search's checkpoint to one run at a time (ARCHITECTURE.md §4.6). Two runs appending to
// one checkpoint at once would each write every point, so the file would hold them twice. The
// lock is an advisory flock(2) on a sibling file, `<checkpoint>.lock`, which holds the process id
// and host of the run that holds it, so that a refused run can say who that is. A run takes the
// lock before it reads or creates the checkpoint and keeps it until it ends. The kernel releases
// it when the process dies, even by SIGKILL: a lock file left behind by a crash locks nothing and
// is taken over by the next run. The holder removes the lock file when it lets go; a run that
// opened the file just before that notices that the path no longer names it and starts again.
// Across hosts it locks where the file system supports flock (NFS maps it onto its byte-range
// locks).
#include <filesystem>
#include <memory>

#include "core/common/expected.h"

namespace tandem::core::search {

class CheckpointLock {
public:
    // The lock of `checkpoint` (which need not exist yet). Errors: another process holds it
    // (the message names it — process id and host — and says what to do); the lock file cannot
    // be created or locked (the system's reason).
    static Expected<std::unique_ptr<CheckpointLock>> acquire(
        const std::filesystem::path& checkpoint);
    ~CheckpointLock();  // removes the lock file, then lets go
    CheckpointLock(const CheckpointLock&) = delete;
    CheckpointLock& operator=(const CheckpointLock&) = delete;

    // `checkpoint` with ".lock" appended.
    static std::filesystem::path lockPath(const std::filesystem::path& checkpoint);

private:
    CheckpointLock(int fd, std::filesystem::path path);

    int fd_ = -1;
    std::filesystem::path path_;
};

}  // namespace tandem::core::search
