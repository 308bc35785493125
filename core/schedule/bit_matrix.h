#pragma once
// A square matrix of bits, used for the transitive closure of a task DAG (row b holds the
// ancestors of b). Rows are arrays of 64-bit words so that closure and subset tests run a word
// at a time; layer DAGs have tens of tasks, but the scheduler accepts thousands.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tandem::core::schedule {

class BitMatrix {
public:
    BitMatrix() = default;
    explicit BitMatrix(int size)
        : size_(size),
          words_((static_cast<std::size_t>(size) + 63) / 64),
          bits_(static_cast<std::size_t>(size) * words_, 0) {}

    int size() const { return size_; }
    bool test(int row, int column) const {
        return (bits_[index(row, column)] >> (column & 63)) & 1u;
    }
    void set(int row, int column) {
        bits_[index(row, column)] |= std::uint64_t{1} << (column & 63);
    }
    // row |= other row
    void orRow(int row, int other) {
        std::uint64_t* to = &bits_[static_cast<std::size_t>(row) * words_];
        const std::uint64_t* from = &bits_[static_cast<std::size_t>(other) * words_];
        for (std::size_t w = 0; w < words_; ++w) to[w] |= from[w];
    }

private:
    std::size_t index(int row, int column) const {
        return static_cast<std::size_t>(row) * words_ + static_cast<std::size_t>(column >> 6);
    }
    int size_ = 0;
    std::size_t words_ = 0;
    std::vector<std::uint64_t> bits_;
};

}  // namespace tandem::core::schedule
