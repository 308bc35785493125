#include "core/search/checkpoint_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <string>

namespace tandem::core::search {
namespace {

std::string systemError(int error) {
    return std::strerror(error);
}

// "<pid> <host>\n": what the holder writes into the lock file.
std::string holderLine() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    return std::to_string(::getpid()) + " " + (host[0] ? host : "?") + "\n";
}

// "process 1234 on host node07" from the lock file's line; "another process" when it is not
// (yet) there or not what Tandem writes (the file is anybody's to edit: nothing of it is quoted
// unchecked, and a host name is at most 64 characters).
std::string describeHolder(int fd) {
    char buffer[128] = {};
    const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
    const std::string text(buffer, n > 0 ? std::size_t(n) : 0);
    const std::size_t space = text.find(' ');
    const std::size_t end = text.find('\n');
    if (space == std::string::npos || end == std::string::npos || end < space) {
        return "another process";
    }
    const std::string pid = text.substr(0, space);
    const std::string host = text.substr(space + 1, end - space - 1);
    auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    auto hostChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '_';
    };
    if (pid.empty() || pid.size() > 10 || !std::all_of(pid.begin(), pid.end(), digit) ||
        host.empty() || host.size() > 64 || !std::all_of(host.begin(), host.end(), hostChar))
        return "another process";
    return "process " + pid + " on host " + host;
}

bool sameFile(int fd, const std::filesystem::path& path) {
    struct stat opened {};
    struct stat named {};
    return ::fstat(fd, &opened) == 0 && ::stat(path.c_str(), &named) == 0 &&
           opened.st_dev == named.st_dev && opened.st_ino == named.st_ino;
}

}  // namespace

std::filesystem::path CheckpointLock::lockPath(const std::filesystem::path& checkpoint) {
    std::filesystem::path path = checkpoint;
    path += ".lock";
    return path;
}

Expected<std::unique_ptr<CheckpointLock>> CheckpointLock::acquire(
    const std::filesystem::path& checkpoint) {
    const std::filesystem::path path = lockPath(checkpoint);
    // A few rounds at most: another run only removes the file as it lets go.
    for (int attempt = 0; attempt < 16; ++attempt) {
        const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            return Error{path.string() + ": cannot create the checkpoint's lock file: " +
                         systemError(errno) + " (the checkpoint's folder must be writable)"};
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            const std::string holder = describeHolder(fd);
            ::close(fd);
            if (error == EWOULDBLOCK)
                return Error{checkpoint.string() + ": in use by another search (" + holder +
                             ", which holds " + path.string() +
                             "); two runs on one checkpoint would each write every point into "
                             "it. Wait for that run to end (or stop it), then run this command "
                             "again to resume; or give this run another --checkpoint file"};
            return Error{path.string() + ": cannot lock the checkpoint: " + systemError(error)};
        }
        if (!sameFile(fd, path)) {  // its holder removed it as it let go: not the lock any more
            ::close(fd);
            continue;
        }
        const std::string line = holderLine();
        if (::ftruncate(fd, 0) != 0 ||
            ::pwrite(fd, line.data(), line.size(), 0) != static_cast<ssize_t>(line.size())) {
            const int error = errno;
            ::unlink(path.c_str());
            ::close(fd);
            return Error{path.string() +
                         ": cannot write the checkpoint's lock file: " + systemError(error)};
        }
        return std::unique_ptr<CheckpointLock>(new CheckpointLock(fd, path));
    }
    return Error{path.string() + ": the checkpoint's lock file keeps being replaced; is another " +
                 "program removing it?"};
}

CheckpointLock::CheckpointLock(int fd, std::filesystem::path path)
    : fd_(fd), path_(std::move(path)) {}

CheckpointLock::~CheckpointLock() {
    if (fd_ < 0) return;
    if (sameFile(fd_, path_)) ::unlink(path_.c_str());
    ::close(fd_);
}

}  // namespace tandem::core::search
