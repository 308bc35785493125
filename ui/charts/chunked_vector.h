#pragma once
// An append-only sequence stored in fixed-size chunks, for the design-space chart's per-point
// arrays. A std::vector doubles its buffer as it grows and copies every element into the new
// one: at PHAZE's 704,640 points that is one GUI-thread stall of ~50 MB copied (and freshly
// faulted in) in the middle of a streamed batch. Here growing costs one chunk allocation, and
// elements never move, so appending a batch is O(batch). Random access is one shift and mask.
#include <cstddef>
#include <vector>

namespace tandem::ui {

template <class T, std::size_t ChunkShift = 14>
class ChunkedVector {
public:
    static constexpr std::size_t kChunk = std::size_t(1) << ChunkShift;

    void push_back(const T& value) {
        if (size_ == chunks_.size() * kChunk) {
            chunks_.emplace_back();
            chunks_.back().reserve(kChunk);
        }
        chunks_[size_ >> ChunkShift].push_back(value);
        ++size_;
    }
    void clear() {
        chunks_.clear();
        size_ = 0;
    }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    T& operator[](std::size_t i) { return chunks_[i >> ChunkShift][i & (kChunk - 1)]; }
    const T& operator[](std::size_t i) const { return chunks_[i >> ChunkShift][i & (kChunk - 1)]; }
    T& back() { return (*this)[size_ - 1]; }
    const T& back() const { return (*this)[size_ - 1]; }

    // Calls f(element) for elements [from, size()) in order, chunk by chunk.
    template <class F>
    void forEachFrom(std::size_t from, F&& f) const {
        for (std::size_t c = from >> ChunkShift; c < chunks_.size(); ++c) {
            const auto& chunk = chunks_[c];
            for (std::size_t k = c == (from >> ChunkShift) ? (from & (kChunk - 1)) : 0;
                 k < chunk.size(); ++k)
                f(chunk[k]);
        }
    }

private:
    std::vector<std::vector<T>> chunks_;  // every chunk but the last is full
    std::size_t size_ = 0;
};

}  // namespace tandem::ui
