#include "core/common/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

namespace tandem::core {

namespace {

std::string systemError(int error) {
    return std::generic_category().message(error);
}

// Writes all of `content`, retrying short writes and EINTR; returns 0 or the errno.
int writeAll(int fd, std::string_view content) {
    const char* data = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t written = ::write(fd, data, left);
        if (written < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        data += written;
        left -= std::size_t(written);
    }
    return 0;
}

// Writes `content` through to an existing character device or FIFO (/dev/null, /dev/stdout, a
// shell's process substitution): replacing such a file would destroy it.
Status writeThrough(const std::filesystem::path& path, std::string_view content,
                    const std::string& where) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return Error{where + ": " + systemError(errno)};
    int error = writeAll(fd, content);
    if (::close(fd) != 0 && error == 0) error = errno;
    if (error != 0) return Error{where + ": writing failed: " + systemError(error)};
    return Status::success();
}

}  // namespace

Expected<std::filesystem::path> linkTarget(const std::filesystem::path& requested) {
    std::error_code ec;
    std::filesystem::path path = requested;
    for (int hops = 0; std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec));
         ++hops) {
        if (hops == 40) return Error{"too many levels of symbolic links"};
        const std::filesystem::path target = std::filesystem::read_symlink(path, ec);
        if (ec) return Error{ec.message()};
        path = target.is_absolute() ? target : path.parent_path() / target;
    }
    return path;
}

Status writeFileAtomically(const std::filesystem::path& requested, std::string_view content) {
    const std::string where = "cannot save " + requested.string();
    if (requested.filename().empty()) return Error{where + ": the path names no file"};
    // A symbolic link is followed: the file it points to is replaced, the link stays.
    auto followed = linkTarget(requested);
    if (!followed) return Error{where + ": " + followed.message()};
    const std::filesystem::path path = std::move(followed).value();
    std::error_code ec;
    const auto kind = std::filesystem::status(path, ec).type();
    if (kind == std::filesystem::file_type::character || kind == std::filesystem::file_type::fifo)
        return writeThrough(path, content, where);
    if (kind != std::filesystem::file_type::not_found &&
        kind != std::filesystem::file_type::regular &&
        kind != std::filesystem::file_type::directory)
        return Error{where +
                     ": it is not a regular file (a block device or socket); choose a "
                     "file name"};
    const std::filesystem::path directory =
        path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    if (!std::filesystem::is_directory(directory, ec))
        return Error{where + ": the directory " + directory.string() + " does not exist"};
    if (std::filesystem::is_directory(path, ec)) return Error{where + ": it is a directory"};

    mode_t mode = 0644;
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0) mode = existing.st_mode & 07777;

    // The temporary file sits beside the target, named after it; a name near the 255-byte limit
    // of most file systems leaves no room for the suffix, so only its first 200 bytes are used.
    constexpr std::size_t kNameBytes = 200;
    const std::string base = path.filename().string().substr(0, kNameBytes);
    std::string pattern = (directory / ("." + base + ".tmp-XXXXXX")).string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        return Error{where + ": cannot create a temporary file in " + directory.string() + ": " +
                     systemError(errno)};
    const std::string tempPath(name.data());

    int error = writeAll(fd, content);
    std::string step = "writing";
    if (error == 0 && ::fchmod(fd, mode) != 0) error = errno, step = "setting permissions of";
    if (error == 0 && ::fsync(fd) != 0) error = errno, step = "flushing";
    if (::close(fd) != 0 && error == 0) error = errno, step = "closing";
    if (error == 0 && ::rename(tempPath.c_str(), path.c_str()) != 0)
        error = errno, step = "renaming";
    if (error != 0) {
        ::unlink(tempPath.c_str());
        return Error{where + ": " + step + " " + tempPath + " failed: " + systemError(error)};
    }
    // Make the rename itself durable; a failure here leaves a complete file, so it is not fatal.
    const int dirFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return Status::success();
}

Expected<std::string> readTextFile(const std::filesystem::path& path, std::uintmax_t maxBytes) {
    if (path.empty()) return Error{"cannot read the file: no file name was given"};
    const std::string where = "cannot read " + path.string();
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) return Error{where + ": no such file"};
    if (std::filesystem::is_directory(status))
        return Error{where + ": it is a directory, not a file"};
    if (!std::filesystem::is_regular_file(status))
        return Error{where + ": it is not a regular file"};
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return Error{where + ": " + ec.message()};
    if (size > maxBytes)
        return Error{where + ": it is " + std::to_string(size) + " bytes, more than the limit of " +
                     std::to_string(maxBytes) + " bytes"};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{where + ": " + systemError(errno)};
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return Error{where + ": read error"};
    return buffer.str();
}

}  // namespace tandem::core
