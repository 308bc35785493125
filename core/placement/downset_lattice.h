#pragma once
// The downsets (ideals) of a layer DAG: sets of layers closed under predecessors, i.e. the
// possible "already placed" prefixes of a pipeline. A contiguous pipeline stage is the
// difference of two nested downsets (PipeDream / Piper), so the downsets are the states of the
// placement DP on a general DAG. Enumerated breadth-first from the empty set, so ids grow with
// the set size and every stage leads from a smaller id to a larger one. The count can grow
// exponentially with the DAG's width; enumeration stops with an error naming the limit.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/placement/width_graph.h"

namespace tandem::core::placement {

class DownsetLattice {
public:
    static Expected<DownsetLattice> enumerate(const WidthGraph& graph, std::int64_t maxDownsets,
                                              RunControl* control = nullptr);

    int size() const { return int(sizes_.size()); }
    int words() const { return words_; }
    int full() const { return size() - 1; }  // the set of all layers (largest id)
    const std::uint64_t* bits(int id) const { return bits_.data() + std::size_t(id) * words_; }
    int layers(int id) const { return sizes_[std::size_t(id)]; }
    // Id of the downset with these bits, or −1 when they are not a downset.
    int find(const std::uint64_t* bits) const;
    // Positions whose predecessors all lie in `bits`.
    const std::uint64_t* predecessors(int position) const {
        return predecessors_.data() + std::size_t(position) * words_;
    }

private:
    std::string key(const std::uint64_t* bits) const;

    int words_ = 1;
    std::vector<std::uint64_t> bits_;
    std::vector<int> sizes_;
    std::vector<std::uint64_t> predecessors_;
    std::unordered_map<std::string, int> index_;
};

}  // namespace tandem::core::placement
