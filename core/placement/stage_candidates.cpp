#include "core/placement/stage_candidates.h"

#include <string>

namespace tandem::core::placement {
namespace {

Error tooManyCandidates(std::int64_t limit, std::int64_t t) {
    return Error{"the layer graph has more than " + std::to_string(limit) +
                 " candidate pipeline stages at tensor-parallel width " + std::to_string(t) +
                 ", more than Tandem's placement solver considers; use fewer, larger layers "
                 "or fewer devices (--devices)"};
}

}  // namespace

std::vector<int> StageCandidates::members(int transition) const {
    const int from = source_[std::size_t(transition)];
    const int to = target_[std::size_t(transition)];
    std::vector<int> out;
    if (!lattice_) {
        for (int p = from; p < to; ++p) out.push_back(p);
        return out;
    }
    const std::uint64_t* a = lattice_->bits(from);
    const std::uint64_t* b = lattice_->bits(to);
    for (int word = 0; word < lattice_->words(); ++word) {
        std::uint64_t diff = b[word] & ~a[word];
        while (diff) {
            const int bit = __builtin_ctzll(diff);
            out.push_back(word * 64 + bit);
            diff &= diff - 1;
        }
    }
    return out;
}

Expected<StageCandidates> StageCandidates::forChain(const WidthGraph& graph, const CostModel& model,
                                                    std::int64_t maxCandidates,
                                                    RunControl* control) {
    StageCandidates c;
    c.monotone_ = true;
    const int n = graph.size();
    c.remaining_.resize(std::size_t(n) + 1);
    c.begin_.assign(std::size_t(n) + 2, 0);
    for (int i = 0; i <= n; ++i) {
        c.remaining_[std::size_t(i)] = n - i;
        c.begin_[std::size_t(i)] = int(c.target_.size());
        if (i == n) break;
        if (control && control->cancelled())
            return Error{"placement cancelled while pricing stages"};
        // Priced straight into the list; the range that fits nowhere, if any, is dropped.
        const std::size_t before = c.cost_.size();
        model.evaluateRanges(graph, i, n - 1, true, c.cost_);
        if (c.cost_.size() > before && !fitsSomewhere(c.cost_.back())) c.cost_.pop_back();
        if (std::int64_t(c.cost_.size()) > maxCandidates)
            return tooManyCandidates(maxCandidates, graph.tensorParallel());
        for (std::size_t k = before; k < c.cost_.size(); ++k) {
            c.source_.push_back(i);
            c.target_.push_back(i + 1 + int(k - before));
        }
    }
    c.begin_[std::size_t(n) + 1] = int(c.target_.size());
    return c;
}

Expected<StageCandidates> StageCandidates::forDag(const WidthGraph& graph, const CostModel& model,
                                                  const DownsetLattice& lattice,
                                                  std::int64_t maxCandidates, RunControl* control) {
    StageCandidates c;
    c.lattice_ = &lattice;
    const int n = graph.size();
    const int w = lattice.words();
    c.remaining_.resize(std::size_t(lattice.size()));
    c.begin_.assign(std::size_t(lattice.size()) + 1, 0);
    std::vector<std::uint64_t> placed(static_cast<std::size_t>(w));
    std::vector<char> inStage(std::size_t(n), 0);
    std::vector<int> members;
    bool overflow = false;
    bool cancelled = false;
    std::int64_t priced = 0;

    // Adds layers in ascending position: every prefix of that order is itself a valid stage, so
    // each stage is generated exactly once and a stage that fits nowhere prunes its extensions.
    auto extend = [&](auto&& self, int source, int last) -> void {
        for (int v = last + 1; v < n && !overflow && !cancelled; ++v) {
            const std::uint64_t bit = std::uint64_t(1) << (v % 64);
            if (placed[std::size_t(v / 64)] & bit) continue;
            const std::uint64_t* preds = lattice.predecessors(v);
            bool ready = true;
            for (int k = 0; k < w && ready; ++k) ready = (preds[k] & ~placed[std::size_t(k)]) == 0;
            if (!ready) continue;
            placed[std::size_t(v / 64)] |= bit;
            inStage[std::size_t(v)] = 1;
            members.push_back(v);
            const StageCost cost = model.evaluateSet(graph, members, inStage);
            // One source can have exponentially many extensions (2^n from the empty set of n
            // independent layers), so the cancel check cannot wait for the next source.
            if (control && (++priced & 1023) == 0 && control->cancelled()) cancelled = true;
            if (fitsSomewhere(cost)) {
                if (std::int64_t(c.target_.size()) >= maxCandidates) {
                    overflow = true;
                } else {
                    c.source_.push_back(source);
                    c.target_.push_back(lattice.find(placed.data()));
                    c.cost_.push_back(cost);
                    self(self, source, v);
                }
            }
            members.pop_back();
            inStage[std::size_t(v)] = 0;
            placed[std::size_t(v / 64)] &= ~bit;
        }
    };

    for (int node = 0; node < lattice.size(); ++node) {
        c.remaining_[std::size_t(node)] = n - lattice.layers(node);
        c.begin_[std::size_t(node)] = int(c.target_.size());
        if (control && (node & 255) == 0 && control->cancelled())
            return Error{"placement cancelled while pricing stages"};
        const std::uint64_t* bits = lattice.bits(node);
        placed.assign(bits, bits + w);
        extend(extend, node, -1);
        if (cancelled) return Error{"placement cancelled while pricing stages"};
        if (overflow) return tooManyCandidates(maxCandidates, graph.tensorParallel());
    }
    c.begin_[std::size_t(lattice.size())] = int(c.target_.size());
    return c;
}

}  // namespace tandem::core::placement
