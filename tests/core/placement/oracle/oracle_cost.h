#pragma once
// Test oracle: the two placement cost models written again, independently of core/placement's
// code, straight from their specifications (PHAZE's DP program for phaze-compat, the formulas
// in core/placement/native_cost_model.h for native). Layers must be listed in topological order
// (every edge goes from a lower to a higher index), which the random generators guarantee.
// Everything here is deliberately plain: loops over members, no incremental sums, no caching.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/placement/cost_model_kind.h"
#include "core/placement/placement_problem.h"

namespace oracle {

using tandem::core::placement::CostModelKind;
using tandem::core::placement::LayerCostSet;
using tandem::core::placement::PlacementProblem;
using Recompute = tandem::core::hardware::Recompute;

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// A stage's position-independent numbers; at() decides feasibility and load at a position.
struct Profile {
    CostModelKind model = CostModelKind::Native;
    Recompute recompute = Recompute::Off;
    double loadPlain = 0, loadRec = 0, parameterBytes = 0;
    std::int64_t devices = 1;
    // phaze-compat: maxS without and with recompute.
    std::int64_t maxSPlain = 0, maxSRec = 0;
    // native: memory = base + (k − 1)·A without recompute, state + Amax + k·σ with it.
    double base = 0, activations = 0, sigma = 0, capacity = 0, state = 0, largest = 0;
    // Native selective recomputation: kept per microbatch, the largest dropped part, the load.
    double selective = 0, dropped = 0, loadSel = 0;
};

// One stage evaluated at one position: its effective load, or infeasible.
struct StageAt {
    bool feasible = false;
    double load = 0;
};

inline bool chainLike(const LayerCostSet& set) {
    const int n = int(set.layers.size());
    for (int i = 1; i < n; ++i) {
        bool found = false;
        for (const auto& e : set.edges) found = found || (e.from == i - 1 && e.to == i);
        if (!found) return false;
    }
    return true;
}

inline bool contains(const std::vector<int>& members, int v) {
    return std::find(members.begin(), members.end(), v) != members.end();
}

inline double pathBytes(const LayerCostSet& set, int i) {
    for (const auto& e : set.edges)
        if (e.from == i - 1 && e.to == i) return e.bytes;
    return 0.0;
}

inline std::int64_t devicesOf(const LayerCostSet& set, const std::vector<int>& members) {
    bool tp = false;
    for (int v : members) tp = tp || set.layers[std::size_t(v)].tensorParallel;
    return tp ? set.tensorParallel : 1;
}

// PHAZE's maxS.
inline std::int64_t phazeMaxS(double c, double sigma, std::int64_t d, double m) {
    if (c + double(d - 1) * sigma <= m) return d;
    if (c > m) return 0;
    return 1 + std::int64_t(std::floor((m - c) / sigma));
}

// PHAZE's DP program, stage load and memory feasibility; branching graphs use the generalisation
// documented in phaze_cost_model.h. `chain` = chainLike(set), passed in to keep this cheap.
inline Profile phazeProfile(const PlacementProblem& pb, const LayerCostSet& set,
                            const std::vector<int>& members, bool chain) {
    const int n = int(set.layers.size());
    const double B = pb.cluster.interNodeBandwidthBytesPerSecond;
    double x0 = 0, y0 = 0, sigmaRec = 0;
    bool hasOut = false;
    if (chain) {
        const int i = members.front(), j = members.back();
        x0 = i >= 1 ? pathBytes(set, i) / B : 0.0;
        hasOut = j <= n - 2;
        y0 = hasOut ? pathBytes(set, j + 1) / B : 0.0;
        sigmaRec = i >= 1 ? pathBytes(set, i) : 0.0;
    } else {
        double in = 0.0, out = 0.0;
        for (int v : members)
            for (const auto& e : set.edges)
                if (e.to == v && !contains(members, e.from)) in += e.bytes;
        for (int v : members)
            for (const auto& e : set.edges)
                if (e.from == v && !contains(members, e.to)) {
                    out += e.bytes;
                    hasOut = true;
                }
        x0 = in / B;
        y0 = hasOut ? out / B : 0.0;
        sigmaRec = in;
    }
    double fw = x0, fwp = 0, bw = y0, P = 0.0, X = 0.0;
    bool firstMember = true;
    for (int v : members) {
        const auto& l = set.layers[std::size_t(v)];
        fw += l.forwardSeconds;
        fwp = firstMember ? l.forwardSeconds : fwp + l.forwardSeconds;
        firstMember = false;
        P += l.parameterBytes;
        X += l.activationBytes;
    }
    double rb = hasOut ? std::max(fwp, y0) : fwp;
    for (auto it = members.rbegin(); it != members.rend(); ++it) {
        bw += set.layers[std::size_t(*it)].backwardSeconds;
        rb += set.layers[std::size_t(*it)].backwardSeconds;
    }
    const double O = pb.training.optimizer == tandem::core::hardware::Optimizer::Adam ? P : 0.0;
    const double C = (2.0 * P + O) + X;
    Profile r;
    r.model = CostModelKind::PhazeCompat;
    r.recompute = pb.training.recompute;
    r.loadPlain = fw + bw;
    r.loadRec = fw + rb;
    r.parameterBytes = P;
    r.devices = devicesOf(set, members);
    r.maxSPlain = phazeMaxS(C, X, pb.cluster.devices, pb.hbmCapacityBytes);
    r.maxSRec = phazeMaxS(C, sigmaRec, pb.cluster.devices, pb.hbmCapacityBytes);
    return r;
}

// Bytes of a gradient per byte of its parameter (ZeRO 0, the only stage a search places):
// gradientBytesPerElement over bytesPerElement, or 1 when it is not set.
inline double gradientFactor(const PlacementProblem& pb) {
    return pb.gradientBytesPerElement > 0
               ? double(pb.gradientBytesPerElement) / double(pb.bytesPerElement)
               : 1.0;
}

// native_cost_model.h.
inline Profile nativeProfile(const PlacementProblem& pb, const LayerCostSet& set,
                             const std::vector<int>& members) {
    const auto& cl = pb.cluster;
    const double bw = (cl.devices <= cl.devicesPerNode ? cl.intraNodeBandwidthBytesPerSecond
                                                       : cl.interNodeBandwidthBytesPerSecond) *
                      cl.collectiveEfficiency;
    double F = 0.0, Bk = 0.0, P = 0.0, A = 0.0, sigma = 0.0, in = 0.0, out = 0.0, Amax = 0.0;
    double Sel = 0.0, Dmax = 0.0, Fsel = 0.0, R = 0.0;
    bool tensorParallel = false;
    for (int v : members) {
        const auto& l = set.layers[std::size_t(v)];
        F += l.forwardSeconds;
        // Full recomputation reruns (and stashes the input of) checkpointed layers only.
        if (l.checkpointed) R += l.recomputeSeconds >= 0 ? l.recomputeSeconds : l.forwardSeconds;
        tensorParallel = tensorParallel || l.tensorParallel;
        Bk += l.backwardSeconds;
        P += l.parameterBytes;
        A += l.activationBytes;
        Amax = std::max(Amax, l.activationBytes);
        const double kept =
            l.activationBytesSelective >= 0 ? l.activationBytesSelective : l.activationBytes;
        Sel += kept;
        Dmax = std::max(Dmax, l.activationBytes - kept);
        Fsel += l.selectiveRecomputeSeconds;
        sigma += l.checkpointed ? l.stashBytesRecompute : l.activationBytes;
        for (const auto& e : set.edges)
            if (e.to == v && !contains(members, e.from)) in += e.bytes;
    }
    for (int v : members)
        for (const auto& e : set.edges)
            if (e.from == v && !contains(members, e.to)) out += e.bytes;
    // Megatron's scatter/gather for a tensor-parallel stage without sequence parallelism: 1/t
    // per rank on the link, then an all-gather inside the node.
    const std::int64_t t = tensorParallel ? set.tensorParallel : 1;
    auto transfer = [&](double bytes) {
        if (!(bytes > 0)) return 0.0;
        if (t == 1 || pb.training.sequenceParallel == tandem::core::hardware::SequenceParallel::On)
            return bytes / bw + cl.hopLatencySeconds;
        const double tt = double(t);
        return (bytes / tt) / bw + cl.hopLatencySeconds +
               (tt - 1.0) / tt * bytes /
                   (cl.intraNodeBandwidthBytesPerSecond * cl.collectiveEfficiency) +
               (tt - 1.0) * cl.hopLatencySeconds + cl.collectiveLatencySeconds;
    };
    const double x = transfer(in);
    const double y = transfer(out);
    const double fwd = x + F, bwd = y + Bk, bwdRec = bwd + R;
    const double O = pb.training.optimizer == tandem::core::hardware::Optimizer::Adam
                         ? P * (16.0 / double(pb.bytesPerElement) - 2.0)
                         : 0.0;
    // Gradients held in their own format (fp32 for bf16 training), fp8 copies of each weight
    // and of its transpose (1 byte each) beside the weights.
    const double G = P * gradientFactor(pb);
    const double F8 = pb.fp8WeightCopies ? P * (2.0 / double(pb.bytesPerElement)) : 0.0;
    Profile r;
    r.model = CostModelKind::Native;
    r.recompute = pb.training.recompute;
    r.loadPlain = fwd + bwd;
    r.loadRec = fwd + bwdRec;
    r.parameterBytes = P;
    r.devices = devicesOf(set, members);
    r.state = ((P + G) + O) + F8;
    r.base = r.state + A;
    r.activations = A;
    r.sigma = sigma;
    r.largest = Amax;
    r.selective = Sel;
    r.dropped = Dmax;
    r.loadSel = fwd + (bwd + Fsel);
    r.capacity = pb.hbmCapacityBytes;
    return r;
}

inline Profile profileOf(const PlacementProblem& pb, CostModelKind model, const LayerCostSet& set,
                         const std::vector<int>& members, bool chain) {
    return model == CostModelKind::PhazeCompat ? phazeProfile(pb, set, members, chain)
                                               : nativeProfile(pb, set, members);
}

// The stage at position s of a pipeline running m microbatches.
inline StageAt at(const Profile& p, std::int64_t s, std::int64_t m) {
    bool plainFits = false, recFits = false, selFits = false;
    if (p.model == CostModelKind::PhazeCompat) {
        // PHAZE: s microbatches in flight whatever m; with recompute the stash is the input.
        plainFits = s <= (p.recompute == Recompute::On ? p.maxSRec : p.maxSPlain);
        recFits = s <= p.maxSRec;
    } else {
        const std::int64_t k = std::min(s, m);
        plainFits = p.base + double(k - 1) * p.activations <= p.capacity;
        recFits = (p.state + p.largest) + double(k) * p.sigma <= p.capacity;
        selFits = ((p.state + p.dropped) + p.selective) + double(k - 1) * p.selective <= p.capacity;
    }
    // PHAZE never recomputes on the last stage; native (Megatron) does.
    const bool exempt = s == 1 && p.model == CostModelKind::PhazeCompat;
    switch (p.recompute) {
        case Recompute::Off:
            return {plainFits, p.loadPlain};
        case Recompute::On:
            return exempt ? StageAt{plainFits, p.loadPlain} : StageAt{recFits, p.loadRec};
        case Recompute::Selective:
            return {selFits, p.loadSel};
        case Recompute::Auto:
            if (plainFits) return {true, p.loadPlain};
            if (!exempt && selFits) return {true, p.loadSel};
            if (!exempt && recFits) return {true, p.loadRec};
            return {};
    }
    return {};
}

// The optimizer step of the device with q parameter bytes: HBM bytes moved per parameter are
// 3·bpe for SGD (read w and g, write w) and 24 + 2·bpe for mixed-precision Adam (read g, read
// and write the fp32 master, m and v, write w), plus reading the gradients for their norm and
// zeroing them (2·bpe for SGD, 4 + 4 for Adam's fp32 gradients).
inline double nativeStep(const PlacementProblem& pb, double q) {
    const double bw = pb.memoryBandwidthBytesPerSecond;
    if (!(bw > 0)) return 0.0;
    const double bpe = double(pb.bytesPerElement);
    const bool adam = pb.training.optimizer == tandem::core::hardware::Optimizer::Adam;
    return q * (adam ? 32.0 / bpe + 2.0 : 5.0) / bw;
}

inline double nativeSync(const PlacementProblem& pb, std::int64_t d, std::int64_t t, double q) {
    if (d <= 1) return nativeStep(pb, q);
    // One ring per NIC: a ring's members in one node share that many of the node's NICs.
    const auto& c = pb.cluster;
    double bw = c.intraNodeBandwidthBytesPerSecond;
    if (d * t > c.devicesPerNode) {
        const std::int64_t perNode = std::min(d, std::max<std::int64_t>(1, c.devicesPerNode / t));
        bw = std::min(double(perNode) * c.interNodeBandwidthBytesPerSecond, bw);
    }
    bw *= c.collectiveEfficiency;
    // The all-reduce moves the gradients, in their own format.
    return (1.0 - pb.cluster.dataParallelOverlap) *
               (((2.0 * double(d - 1)) / double(d)) * (q * gradientFactor(pb)) / bw +
                (2.0 * double(d - 1)) * pb.cluster.hopLatencySeconds) +
           nativeStep(pb, q);
}

inline double phazeSync(const PlacementProblem& pb, std::int64_t d, double pFirst) {
    return ((4.0 * double(d - 1)) * pFirst / pb.cluster.interNodeBandwidthBytesPerSecond) /
           double(d);
}

inline std::int64_t microbatches(const PlacementProblem& pb) {
    return (pb.training.globalBatch + pb.training.microbatch - 1) / pb.training.microbatch;
}

// What a plan is priced by: its time per batch (native: the 1F1B time m·Lmax + ΣL − Lmax,
// PHAZE: Lmax·(m + S − 1)), or the bound Lmax·(m + S − 1) under both, plus the sync.
enum class Objective { Time, Bound };

// Time per batch of a complete plan, or +∞ when a stage does not fit or devices run out.
inline double planTime(const PlacementProblem& pb, CostModelKind model, const LayerCostSet& set,
                       std::int64_t d, const std::vector<std::vector<int>>& stages,
                       Objective objective = Objective::Time) {
    const std::int64_t S = std::int64_t(stages.size());
    const std::int64_t m = (microbatches(pb) + d - 1) / d;
    const bool chain = chainLike(set);
    double lmax = 0.0, pmax = 0.0, pFirst = 0.0;
    std::vector<double> loads;
    std::int64_t devices = 0;
    for (std::int64_t k = 0; k < S; ++k) {
        const Profile p = profileOf(pb, model, set, stages[std::size_t(k)], chain);
        const StageAt st = at(p, S - k, m);
        if (!st.feasible) return kInf;
        lmax = std::max(lmax, st.load);
        loads.push_back(st.load);
        pmax = std::max(pmax, p.parameterBytes);
        if (k == 0) pFirst = p.parameterBytes;
        devices += p.devices;
    }
    if (devices > pb.cluster.devices / d) return kInf;
    const double sync = model == CostModelKind::PhazeCompat
                            ? phazeSync(pb, d, pFirst)
                            : nativeSync(pb, d, set.tensorParallel, pmax);
    if (model == CostModelKind::PhazeCompat || objective == Objective::Bound)
        return lmax * double(m + S - 1) + sync;
    double total = 0.0;  // from the last stage to the first
    for (auto it = loads.rbegin(); it != loads.rend(); ++it) total = *it + total;
    return (double(m) * lmax + std::max(0.0, total - lmax)) + sync;
}

}  // namespace oracle
