#include "core/search/checkpoint_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <unordered_set>

#include "core/common/text_file.h"
#include "core/search/point_record.h"

namespace tandem::core::search {
namespace {

constexpr std::string_view kMagic = "tandem-checkpoint 1";

std::string systemError() {
    return std::strerror(errno);
}

}  // namespace

Expected<CheckpointContents> readCheckpoint(const std::filesystem::path& path,
                                            const SearchGrid& grid) {
    // Up to 16 GiB: a checkpoint of millions of points is a few hundred bytes per point.
    auto text = readTextFile(path, std::uintmax_t(16) << 30);
    if (!text) return Error{text.message()};
    const std::string where = path.string() + ": ";
    std::string_view rest = *text;
    CheckpointContents contents;
    auto nextLine = [&](std::string_view& line) {
        const std::size_t end = rest.find('\n');
        if (end == std::string_view::npos) return false;
        line = rest.substr(0, end);
        rest.remove_prefix(end + 1);
        return true;
    };
    std::string_view line;
    if (!nextLine(line) || line != kMagic)
        return Error{where + "not a Tandem checkpoint (its first line must read '" +
                     std::string(kMagic) + "')"};
    if (!nextLine(line) || line.empty()) return Error{where + "line 2: the header is missing"};
    contents.header = std::string(line);
    std::unordered_set<std::int64_t> seen;
    for (std::size_t number = 3; nextLine(line); ++number) {
        auto point = decodePointRecord(line, grid);
        if (!point)
            return Error{where + "line " + std::to_string(number) + ": " + point.message() +
                         " (the file is damaged; remove it to start the search afresh)"};
        if (!seen.insert(point->point.index).second)
            return Error{where + "line " + std::to_string(number) + ": point " +
                         std::to_string(point->point.index) + " appears twice"};
        contents.points.push_back(std::move(*point));
    }
    contents.tornTail = !rest.empty();
    contents.validBytes = text->size() - rest.size();
    return contents;
}

Expected<std::unique_ptr<CheckpointWriter>> CheckpointWriter::open(
    const std::filesystem::path& path, const std::string& header, std::uintmax_t validBytes,
    std::chrono::milliseconds interval) {
    if (header.empty() || header.find('\n') != std::string::npos)
        return Error{"checkpoint header must be one non-empty line"};
    if (validBytes == 0) {
        std::error_code ec;
        if (std::filesystem::exists(path, ec))
            return Error{path.string() + ": exists already; resume from it or choose another"};
        if (auto status = writeFileAtomically(path, std::string(kMagic) + "\n" + header + "\n");
            !status)
            return Error{status.message()};
    } else {
        std::error_code ec;
        std::filesystem::resize_file(path, validBytes, ec);
        if (ec) return Error{path.string() + ": cannot cut its torn last line: " + ec.message()};
    }
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return Error{path.string() + ": cannot open for appending: " + systemError()};
    return std::unique_ptr<CheckpointWriter>(new CheckpointWriter(fd, path, interval));
}

CheckpointWriter::CheckpointWriter(int fd, std::filesystem::path path,
                                   std::chrono::milliseconds interval)
    : fd_(fd), path_(std::move(path)), interval_(interval) {
    thread_ = std::thread([this] { periodic(); });
}

CheckpointWriter::~CheckpointWriter() {
    close();
}

void CheckpointWriter::periodic() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_for(lock, interval_);
        if (stopping_) break;
        lock.unlock();
        flush();
        lock.lock();
    }
}

void CheckpointWriter::add(const EvaluatedPoint& point) {
    std::string record = encodePointRecord(point);
    record += '\n';
    std::lock_guard lock(mutex_);
    buffer_ += record;
    ++buffered_;
}

Status CheckpointWriter::flush() {
    std::lock_guard writeLock(writeMutex_);
    std::string batch;
    std::int64_t records = 0;
    {
        std::lock_guard lock(mutex_);
        if (!error_.empty()) return Error{error_};
        batch.swap(buffer_);
        records = buffered_;
        buffered_ = 0;
    }
    if (batch.empty() || fd_ < 0) return {};
    std::size_t done = 0;
    std::string failure;
    while (done < batch.size()) {
        const ssize_t n = ::write(fd_, batch.data() + done, batch.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            failure = path_.string() + ": writing the checkpoint failed: " + systemError();
            break;
        }
        done += std::size_t(n);
    }
    if (failure.empty() && ::fdatasync(fd_) != 0)
        failure = path_.string() + ": syncing the checkpoint failed: " + systemError();
    std::lock_guard lock(mutex_);
    if (!failure.empty()) {
        error_ = failure;
        return Error{error_};
    }
    written_ += records;
    return {};
}

Status CheckpointWriter::close() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    Status status = flush();
    std::lock_guard writeLock(writeMutex_);
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    return status;
}

std::int64_t CheckpointWriter::written() const {
    std::lock_guard lock(mutex_);
    return written_;
}

}  // namespace tandem::core::search
