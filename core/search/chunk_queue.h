#pragma once
// The work of an exhaustive search handed out in chunks (ARCHITECTURE.md §2.9, §4.6): lists of
// point indices, one chip's points per chunk, taken on demand by whoever is free — the pool's
// threads of this process, or (under mpirun) the other ranks through rank 0. A chunk of one chip
// keeps the chip's schedule cache warm, and handing chunks out on demand balances points whose
// cost differs a hundredfold. The queue is either filled once and closed (a whole search, a
// shard, what a checkpoint left to do) or fed while it is consumed (an MPI worker rank: chunks
// arrive from rank 0). next() blocks while the queue is open and empty. Thread-safe.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace tandem::core::search {

class SearchGrid;

using PointChunk = std::vector<std::int64_t>;  // point indices, ascending

class ChunkQueue {
public:
    ChunkQueue() = default;
    // Queues every point of `grid` that `wanted` accepts (empty function: every point), a chunk
    // per chip, chips in index order (a chip with no wanted point gives no chunk), then closes.
    void fill(const SearchGrid& grid, const std::function<bool(std::int64_t)>& wanted = {});

    void push(PointChunk chunk);
    // No more chunks will come: next() returns nothing once the queue is empty.
    void close();
    // The next chunk, waiting while the queue is open and empty; nothing once it is closed and
    // empty.
    std::optional<PointChunk> next();
    // Like next(), but never waits: nothing when no chunk is queued right now.
    std::optional<PointChunk> tryNext();

    std::int64_t queuedPoints() const;  // points in the chunks still queued
    std::size_t queuedChunks() const;
    bool closed() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<PointChunk> chunks_;
    std::int64_t points_ = 0;
    bool closed_ = false;
};

}  // namespace tandem::core::search
