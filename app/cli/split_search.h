#pragma once
// How `tandem-cli search` explores when the search is split (ARCHITECTURE.md §4.6): one shard of
// the grid (--shard K/N, for job arrays without MPI), resuming from a checkpoint (--checkpoint
// FILE), across the ranks of an MPI job, or any mix of them. A shard holds the chips c with
// c mod N = K − 1 — interleaved, so that expensive and cheap regions of the space spread over the
// shards. A checkpoint's header is the run's description (search_run_info.h): a checkpoint of
// another search, or of another shard, is refused saying what differs, and one that is already
// complete just reads back. Finished points go to the checkpoint every two seconds and when the
// exploration ends, whether it finished or was interrupted. The checkpoint is locked for the
// run (checkpoint_lock.h): a second run on it is refused. A write that fails (a full disk) is
// reported at once through a callback, and the exploration goes on without the checkpoint, so
// that the results are still written.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/io/search_run_info.h"
#include "core/search/checkpoint_file.h"
#include "core/search/checkpoint_lock.h"
#include "core/search/search_run.h"

namespace tandem::cli {

// "K/N" with 1 ≤ K ≤ N ≤ kMaxShards; the message says what is wrong.
inline constexpr int kMaxShards = 1000000;
core::Expected<core::io::SearchShard> parseShard(std::string_view text);
// Whether point `index` of a grid with `optionsPerChip` points per chip is in `shard` (every
// point when the shard's count is 0).
bool inShard(const core::io::SearchShard& shard, std::int64_t index, std::int64_t optionsPerChip);

// Explores the queue, with the points done before; the MPI path replaces the local one.
using QueueExplorer = std::function<core::search::SearchResults(
    core::search::ChunkQueue& work, std::vector<core::search::EvaluatedPoint> done,
    const core::search::PointCallback& onPoint)>;

struct SplitExploration {
    core::search::SearchResults results;
    std::int64_t resumed = 0;            // points read from the checkpoint
    std::int64_t checkpointWritten = 0;  // points this run appended to it
    std::string checkpointError;         // why writing the checkpoint failed ("": it did not)
};

// What a split search starts from: the checkpoint's lock and the checkpoint opened for appending
// (both null without --checkpoint; the writer also null for a complete checkpoint, which is only
// read, so a read-only one resumes too), the points it holds (and how many copies of points it held
// besides), and the queue of the shard's other points.
struct SplitStart {
    std::unique_ptr<core::search::CheckpointLock> lock;
    std::vector<core::search::EvaluatedPoint> done;
    std::int64_t duplicates = 0;
    std::unique_ptr<core::search::CheckpointWriter> writer;
    std::unique_ptr<core::search::ChunkQueue> work;
};

// Locks `checkpoint`, reads it when it exists (and creates it when not) and queues `info.shard`
// of the grid minus what it holds; `onCheckpointFailure` is the writer's failure callback.
// Errors (bad input, exit 2): a checkpoint in use by another run, a damaged one, one of another
// search or shard, one that cannot be created. Done before the ranks of an MPI job agree, so
// that such an error stops every rank cleanly.
core::Expected<SplitStart> startSplit(
    const core::search::SearchGrid& grid, const core::io::SearchRunInfo& info,
    const std::optional<std::filesystem::path>& checkpoint,
    core::search::CheckpointWriter::FailureCallback onCheckpointFailure = {});
// Explores the queue with `explore` (null: this process's pool), appending finished points to
// the checkpoint until a write fails; closes it. The lock stays with `start`'s caller when it
// took it out first, else it is let go here.
SplitExploration exploreSplit(core::search::SearchRun& run, SplitStart start,
                              core::RunControl& control, const QueueExplorer& explore = {});

}  // namespace tandem::cli
