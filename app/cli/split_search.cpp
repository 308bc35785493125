#include "app/cli/split_search.h"

#include <charconv>
#include <unordered_set>

#include "core/common/text_excerpt.h"
#include "core/search/checkpoint_file.h"

namespace tandem::cli {

namespace se = tandem::core::search;
using core::Error;
using core::Expected;

namespace {

bool parseInt(std::string_view text, int& out) {
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, out);
    return !text.empty() && result.ec == std::errc() && result.ptr == end;
}

std::string describe(const core::io::SearchShard& shard) {
    return shard.count == 0
               ? std::string("the whole search")
               : "shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

}  // namespace

Expected<core::io::SearchShard> parseShard(std::string_view text) {
    const std::size_t slash = text.find('/');
    core::io::SearchShard shard;
    if (slash == std::string_view::npos || !parseInt(text.substr(0, slash), shard.index) ||
        !parseInt(text.substr(slash + 1), shard.count))
        return Error{"--shard = '" + core::textExcerpt(text) +
                     "' is not K/N (this run's shard K of N, e.g. 3/8)"};
    if (shard.count < 1 || shard.count > kMaxShards)
        return Error{"--shard = '" + core::textExcerpt(text) + "': N must be between 1 and " +
                     std::to_string(kMaxShards)};
    if (shard.index < 1 || shard.index > shard.count)
        return Error{"--shard = '" + core::textExcerpt(text) + "': K must be between 1 and N = " +
                     std::to_string(shard.count) + " (shards are numbered from 1)"};
    return shard;
}

bool inShard(const core::io::SearchShard& shard, std::int64_t index, std::int64_t optionsPerChip) {
    if (shard.count <= 0) return true;
    return (index / optionsPerChip) % shard.count == shard.index - 1;
}

Expected<SplitStart> startSplit(const se::SearchGrid& grid, const core::io::SearchRunInfo& info,
                                const std::optional<std::filesystem::path>& checkpoint,
                                se::CheckpointWriter::FailureCallback onCheckpointFailure) {
    SplitStart start;
    std::uintmax_t validBytes = 0;  // of the checkpoint read back (0: none yet)
    bool torn = false;
    if (checkpoint) {
        // Before the checkpoint is read: a run that appends to it now would be missed.
        auto lock = se::CheckpointLock::acquire(*checkpoint);
        if (!lock) return Error{lock.message()};
        start.lock = std::move(*lock);
        std::error_code ec;
        if (std::filesystem::exists(*checkpoint, ec)) {
            auto read = se::readCheckpoint(*checkpoint, grid);
            if (!read) return Error{read.message()};
            const std::string where = checkpoint->string() + ": ";
            auto saved = core::io::SearchRunInfo::parseJson(read->header, where + "header");
            if (!saved) return Error{saved.message()};
            std::string differ;
            for (const std::string& d : core::io::differences(*saved, info))
                differ += (differ.empty() ? "" : "; ") + d;
            if (!differ.empty())
                return Error{where + "is the checkpoint of another search (" + differ +
                             "); give another --checkpoint file, or remove this one to start "
                             "afresh"};
            if (!(saved->shard == info.shard))
                return Error{where + "is the checkpoint of " + describe(saved->shard) +
                             ", not of " + describe(info.shard)};
            for (se::EvaluatedPoint& p : read->points) {
                if (!inShard(info.shard, p.point.index, grid.optionsPerChip()))
                    return Error{where + "point " + std::to_string(p.point.index) + " is not in " +
                                 describe(info.shard)};
                start.done.push_back(std::move(p));
            }
            validBytes = read->validBytes;
            start.duplicates = read->duplicates;
            torn = read->tornTail;
        }
    }
    std::unordered_set<std::int64_t> finished;
    for (const se::EvaluatedPoint& p : start.done) finished.insert(p.point.index);
    start.work = std::make_unique<se::ChunkQueue>();
    start.work->fill(grid, [&](std::int64_t i) {
        return inShard(info.shard, i, grid.optionsPerChip()) && !finished.count(i);
    });
    // A complete checkpoint is only read: nothing would be appended, and it may be read-only.
    const bool complete = validBytes > 0 && !torn && start.work->queuedPoints() == 0;
    if (checkpoint && !complete) {
        auto opened =
            se::CheckpointWriter::open(*checkpoint, info.toJson(), validBytes,
                                       std::chrono::seconds(2), std::move(onCheckpointFailure));
        if (!opened) return Error{opened.message()};
        start.writer = std::move(*opened);
    }
    return start;
}

SplitExploration exploreSplit(se::SearchRun& run, SplitStart start, core::RunControl& control,
                              const QueueExplorer& explore) {
    SplitExploration out;
    out.resumed = std::int64_t(start.done.size());
    se::CheckpointWriter* writer = start.writer.get();
    const se::PointCallback onPoint = [&](const se::EvaluatedPoint& p) {
        if (writer) writer->add(p);
    };
    out.results = explore ? explore(*start.work, std::move(start.done), onPoint)
                          : run.explore(&control, onPoint, start.work.get(), std::move(start.done));
    if (writer) {
        if (auto status = writer->close(); !status) out.checkpointError = status.message();
        out.checkpointWritten = writer->written();
    }
    return out;
}

}  // namespace tandem::cli
