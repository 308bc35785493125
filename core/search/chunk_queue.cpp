#include "core/search/chunk_queue.h"

#include <utility>

#include "core/search/search_grid.h"

namespace tandem::core::search {

void ChunkQueue::fill(const SearchGrid& grid, const std::function<bool(std::int64_t)>& wanted) {
    const std::int64_t perChip = grid.optionsPerChip();
    for (std::int64_t chip = 0; chip < grid.chipCount(); ++chip) {
        PointChunk chunk;
        for (std::int64_t i = chip * perChip; i < (chip + 1) * perChip; ++i)
            if (!wanted || wanted(i)) chunk.push_back(i);
        if (!chunk.empty()) push(std::move(chunk));
    }
    close();
}

void ChunkQueue::push(PointChunk chunk) {
    {
        std::lock_guard lock(mutex_);
        points_ += std::int64_t(chunk.size());
        chunks_.push_back(std::move(chunk));
    }
    ready_.notify_one();
}

void ChunkQueue::close() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
    }
    ready_.notify_all();
}

std::optional<PointChunk> ChunkQueue::next() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [this] { return closed_ || !chunks_.empty(); });
    if (chunks_.empty()) return std::nullopt;
    PointChunk chunk = std::move(chunks_.front());
    chunks_.pop_front();
    points_ -= std::int64_t(chunk.size());
    return chunk;
}

std::optional<PointChunk> ChunkQueue::tryNext() {
    std::lock_guard lock(mutex_);
    if (chunks_.empty()) return std::nullopt;
    PointChunk chunk = std::move(chunks_.front());
    chunks_.pop_front();
    points_ -= std::int64_t(chunk.size());
    return chunk;
}

std::int64_t ChunkQueue::queuedPoints() const {
    std::lock_guard lock(mutex_);
    return points_;
}

std::size_t ChunkQueue::queuedChunks() const {
    std::lock_guard lock(mutex_);
    return chunks_.size();
}

bool ChunkQueue::closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
}

}  // namespace tandem::core::search
