#include "core/search/checkpoint_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_map>

#include "core/common/text_file.h"
#include "core/search/point_record.h"

namespace tandem::core::search {
namespace {

constexpr std::string_view kMagic = "tandem-checkpoint 1";

std::string systemError() {
    return std::strerror(errno);
}

// Whether two records of one point hold the same results: all but the timings, bit for bit.
bool sameResults(EvaluatedPoint a, EvaluatedPoint b) {
    a.seconds = {};
    b.seconds = {};
    return encodePointRecord(a) == encodePointRecord(b);
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
    struct Seen {
        std::size_t line = 0;
        std::size_t position = 0;  // in contents.points
    };
    std::unordered_map<std::int64_t, Seen> seen;
    for (std::size_t number = 3; nextLine(line); ++number) {
        auto point = decodePointRecord(line, grid);
        if (!point)
            return Error{where + "line " + std::to_string(number) + ": " + point.message() +
                         " (the file is damaged; remove it to start the search afresh)"};
        const auto [first, fresh] =
            seen.try_emplace(point->point.index, Seen{number, contents.points.size()});
        if (!fresh) {
            if (sameResults(contents.points[first->second.position], *point)) {
                ++contents.duplicates;
                continue;
            }
            return Error{where + "line " + std::to_string(number) + ": point " +
                         std::to_string(point->point.index) +
                         " appears twice with different results (lines " +
                         std::to_string(first->second.line) + " and " + std::to_string(number) +
                         "): two searches wrote into it at once, or it was edited. Remove one "
                         "of the two lines to keep the other, or remove the file to start the "
                         "search afresh"};
        }
        contents.points.push_back(std::move(*point));
    }
    contents.tornTail = !rest.empty();
    contents.validBytes = text->size() - rest.size();
    return contents;
}

Expected<std::unique_ptr<CheckpointWriter>> CheckpointWriter::open(
    const std::filesystem::path& path, const std::string& header, std::uintmax_t validBytes,
    std::chrono::milliseconds interval, FailureCallback onFailure) {
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
        // Only a torn last line is cut: a file that ends on a whole record is left as it is.
        std::error_code ec;
        const std::uintmax_t size = std::filesystem::file_size(path, ec);
        if (!ec && size != validBytes) std::filesystem::resize_file(path, validBytes, ec);
        if (ec) return Error{path.string() + ": cannot cut its torn last line: " + ec.message()};
    }
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return Error{path.string() + ": cannot open for appending: " + systemError()};
    return std::unique_ptr<CheckpointWriter>(
        new CheckpointWriter(fd, path, interval, std::move(onFailure)));
}

CheckpointWriter::CheckpointWriter(int fd, std::filesystem::path path,
                                   std::chrono::milliseconds interval, FailureCallback onFailure)
    : fd_(fd), path_(std::move(path)), interval_(interval), onFailure_(std::move(onFailure)) {
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
    if (!error_.empty()) return;  // nothing more is written: keep no memory for it
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
    if (!failure.empty()) {
        // The whole lines that reached the file before the failure are in it; a cut one is a
        // torn tail, which the next reader drops.
        records = std::count(batch.begin(), batch.begin() + std::ptrdiff_t(done), '\n');
        {
            std::lock_guard lock(mutex_);
            error_ = failure;
            written_ += records;
            buffer_.clear();
            buffered_ = 0;
        }
        if (onFailure_) onFailure_(failure);
        return Error{failure};
    }
    std::lock_guard lock(mutex_);
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
