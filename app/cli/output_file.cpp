#include "app/cli/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>

#include "core/common/text_excerpt.h"
#include "core/common/text_file.h"

namespace tandem::cli {

namespace {

// The descriptor number of /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N,
// /proc/thread-self/fd/N or /proc/<this process>/fd/N.
std::optional<int> parseDescriptorPath(const std::string& path) {
    if (path == "/dev/stdout") return 1;
    if (path == "/dev/stderr") return 2;
    const std::string own = "/proc/" + std::to_string(::getpid()) + "/fd/";
    const std::string prefixes[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", own};
    for (const std::string& prefix : prefixes) {
        if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
        int fd = -1;
        const char* first = path.data() + prefix.size();
        const char* last = path.data() + path.size();
        const auto [end, ec] = std::from_chars(first, last, fd);
        if (ec == std::errc() && end == last && fd >= 0) return fd;
    }
    return std::nullopt;
}

// The descriptor `path` names, directly or through a chain of symbolic links (a user's link to
// /dev/stdout), if it names one.
std::optional<int> namedDescriptor(const std::string& path) {
    namespace fs = std::filesystem;
    fs::path p = fs::path(path).lexically_normal();
    for (int hop = 0; hop < 40; ++hop) {
        if (auto fd = parseDescriptorPath(p.string())) return fd;
        std::error_code ec;
        if (!fs::is_symlink(p, ec) || ec) return std::nullopt;
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) return std::nullopt;
        p = (target.is_absolute() ? target : p.parent_path() / target).lexically_normal();
    }
    return std::nullopt;
}

// Writes through the open descriptor, at its own offset: a shell's `>> file` appends, a pipe or a
// terminal receives the bytes, and nothing is reopened, truncated or replaced.
core::Status writeDescriptor(int fd, const std::string& path, std::string_view content) {
    if (::fcntl(fd, F_GETFD) == -1)
        return core::Error{"cannot write '" + core::textExcerpt(path) + "': descriptor " +
                           std::to_string(fd) + " is not open in this process"};
    std::string_view rest = content;
    while (!rest.empty()) {
        const ssize_t n = ::write(fd, rest.data(), rest.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            return core::Error{"cannot write '" + core::textExcerpt(path) + "' (descriptor " +
                               std::to_string(fd) + "): " + std::strerror(n < 0 ? errno : EIO)};
        rest.remove_prefix(std::size_t(n));
    }
    return core::Status::success();
}

// A FIFO gets the content when a program reads it. Opening one for writing blocks until a reader
// opens it, which after a long search looks like a hang: try without blocking first and, when no
// one reads yet, say that the command waits and for what, then wait.
core::Status writeFifo(const std::string& path, std::string_view content, std::ostream& err) {
    int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENXIO) {
        err << "tandem-cli: waiting for a program to read the FIFO '" << core::textExcerpt(path)
            << "' (for example 'cat' on it in another shell)\n";
        err.flush();
        do {
            fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        } while (fd < 0 && errno == EINTR);
    }
    if (fd < 0)
        return core::Error{"cannot write '" + core::textExcerpt(path) +
                           "': " + std::strerror(errno)};
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags != -1) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    core::Status status = writeDescriptor(fd, path, content);
    if (status && !content.empty() && content.back() != '\n')
        status = writeDescriptor(fd, path, "\n");
    ::close(fd);
    return status;
}

}  // namespace

bool namesDescriptor(const std::string& path) {
    return namedDescriptor(path).has_value();
}

core::Status writeOutputFile(const std::string& path, std::string_view content, std::ostream& out,
                             std::ostream& err) {
    const bool newline = !content.empty() && content.back() != '\n';
    if (path == kStandardOutput) {
        out << content;
        if (newline) out << '\n';
        out.flush();
        if (!out) return core::Error{"cannot write to standard output"};
        return core::Status::success();
    }
    if (const auto fd = namedDescriptor(path)) {
        // What the command printed before goes first.
        out.flush();
        std::cout.flush();
        std::cerr.flush();
        if (auto status = writeDescriptor(*fd, path, content); !status) return status;
        return newline ? writeDescriptor(*fd, path, "\n") : core::Status::success();
    }
    std::error_code ec;
    if (std::filesystem::status(path, ec).type() == std::filesystem::file_type::fifo)
        return writeFifo(path, content, err);
    return core::writeFileAtomically(path, content);
}

}  // namespace tandem::cli
