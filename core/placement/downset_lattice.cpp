#include "core/placement/downset_lattice.h"

#include <algorithm>
#include <cstring>

namespace tandem::core::placement {

namespace {
// Words of bit sets the enumeration may scan: a few seconds of work. Each downset costs about
// (n + 2)·w of them (a readiness test per layer, plus storing and indexing it), so this also
// bounds the memory held to a fraction of it.
constexpr std::int64_t kMaxWords = std::int64_t(1) << 32;
}  // namespace

std::string DownsetLattice::key(const std::uint64_t* bits) const {
    return std::string(reinterpret_cast<const char*>(bits), std::size_t(words_) * 8);
}

int DownsetLattice::find(const std::uint64_t* bits) const {
    const auto it = index_.find(key(bits));
    return it == index_.end() ? -1 : it->second;
}

Expected<DownsetLattice> DownsetLattice::enumerate(const WidthGraph& graph,
                                                   std::int64_t maxDownsets, RunControl* control) {
    DownsetLattice lattice;
    const int n = graph.size();
    const int w = (n + 63) / 64;
    lattice.words_ = w;
    lattice.predecessors_.assign(std::size_t(n) * std::size_t(w), 0);
    for (const WidthGraph::Edge& e : graph.edges())
        lattice.predecessors_[std::size_t(e.to) * std::size_t(w) + std::size_t(e.from / 64)] |=
            std::uint64_t(1) << (e.from % 64);

    std::vector<std::uint64_t> next(std::size_t(w), 0);
    lattice.bits_.assign(std::size_t(w), 0);
    lattice.sizes_.push_back(0);
    lattice.index_.emplace(lattice.key(lattice.bits_.data()), 0);
    // Besides the count, the words touched are bounded: a wide graph of many layers (20,000
    // unconnected layers) costs n·w words per downset, so it would take hours and gigabytes to
    // reach maxDownsets.
    const std::int64_t limit = std::min<std::int64_t>(
        maxDownsets, std::max<std::int64_t>(1, kMaxWords / (std::int64_t(n + 2) * w)));
    const auto tooMany = [&] {
        return Error{"the layer graph has more than " + std::to_string(limit) +
                     " downsets (possible \"already placed\" prefixes of a pipeline) for its " +
                     std::to_string(n) +
                     " layers, more than Tandem's placement solver enumerates. Merge parallel "
                     "branches into fewer layers (e.g. one layer per block) or connect the "
                     "layers in the order they run"};
    };
    for (int id = 0; id < lattice.size(); ++id) {
        if (control && control->cancelled())
            return Error{"placement cancelled while enumerating downsets"};
        for (int v = 0; v < n; ++v) {
            const std::uint64_t* current = lattice.bits(id);
            const std::uint64_t bit = std::uint64_t(1) << (v % 64);
            if (current[v / 64] & bit) continue;
            const std::uint64_t* preds = lattice.predecessors(v);
            bool ready = true;
            for (int k = 0; k < w && ready; ++k) ready = (preds[k] & ~current[k]) == 0;
            if (!ready) continue;
            std::memcpy(next.data(), current, std::size_t(w) * 8);
            next[std::size_t(v / 64)] |= bit;
            if (lattice.find(next.data()) >= 0) continue;
            if (std::int64_t(lattice.size()) >= limit) return tooMany();
            const int size = lattice.sizes_[std::size_t(id)] + 1;
            lattice.index_.emplace(lattice.key(next.data()), lattice.size());
            lattice.bits_.insert(lattice.bits_.end(), next.begin(), next.end());
            lattice.sizes_.push_back(size);
        }
    }
    return lattice;
}

}  // namespace tandem::core::placement
