#include "core/estimate/gemm_cost_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tandem::core::estimate {

namespace {

// Arguments are ≥ 0 and b ≥ 1 here; written without a + b − 1 so that it cannot overflow.
std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
    return a / b + (a % b != 0 ? 1 : 0);
}

std::int64_t isqrt(std::int64_t x) {
    auto r = std::int64_t(std::sqrt(double(x)));
    while (r > 0 && r > x / r) --r;  // r·r > x without overflow
    while ((r + 1) <= x / (r + 1)) ++r;
    return r;
}

// Above this many folds the split-K search is pointless (every core has ~2^52/N folds to run)
// and integer products F·s could overflow.
constexpr double kMaxExactFolds = 4503599627370496.0;  // 2^52

// Split-K candidates beyond the powers of two (see the header): every s up to kSmallSplits and,
// per halved core count, the largest s that fits in r rounds for r up to kMaxRounds. Measured
// against a brute force over all s (tests/core/estimate), these keep the choice within a few
// per cent of the optimum with ~150 candidates instead of thousands.
constexpr std::int64_t kSmallSplits = 16;
constexpr std::int64_t kMaxRounds = 8;

// Longest exact scan over output-block counts (see traffic()).
constexpr std::int64_t kMaxBlockScan = 8192;

}  // namespace

double GemmCostModel::folds(const model::GemmShape& g, std::int64_t rows, std::int64_t cols) {
    return double(g.batch) * double(ceilDiv(g.m, rows)) * double(ceilDiv(g.n, cols));
}

namespace {

// Cycles of one pass of a tile of t × t folds over `steps` reduction steps.
double tilePassCycles(double steps, const GemmCore& core, std::int64_t t) {
    const double tt = double(t) * double(t);
    return std::max(steps, core.minFoldCycles) * tt + core.tileOverheadCycles;
}

// The square tiles a core may choose: T, T/2, …, 1.
template <typename Visit>
void forEachTile(const GemmCore& core, Visit visit) {
    for (std::int64_t t = std::max<std::int64_t>(1, core.tileFolds); t >= 1; t /= 2) visit(t);
}

GemmSplit bestSplit(const model::GemmShape& g, std::int64_t cores, const GemmCore& core,
                    std::int64_t t) {
    const std::int64_t tileRows = core.rows * t, tileCols = core.cols * t;
    const double foldCount = GemmCostModel::folds(g, tileRows, tileCols);
    if (foldCount > kMaxExactFolds) {
        return {std::ceil(foldCount / double(cores)) * tilePassCycles(double(g.k), core, t) +
                    double(core.rows) + double(core.cols),
                1, t};
    }
    const auto f = std::int64_t(foldCount);
    GemmSplit best{GemmCostModel::splitCycles(f, g.k, cores, core, t, 1), 1, t};
    auto consider = [&](std::int64_t s) {
        if (s < 2 || s > g.k) return;
        const double c = GemmCostModel::splitCycles(f, g.k, cores, core, t, s);
        if (c < best.cycles || (c == best.cycles && s < best.splitK)) best = {c, s, t};
    };
    const std::int64_t powerLimit = std::min(g.k, cores);
    for (std::int64_t p = 2; p <= powerLimit; p *= 2) {
        consider(p);
        if (p > powerLimit / 2) break;  // the next doubling would pass the limit (or overflow)
    }
    for (std::int64_t s = 2; s <= kSmallSplits; ++s) consider(s);
    for (std::int64_t n = cores; n >= 1; n /= 2) {
        if (n <= std::numeric_limits<std::int64_t>::max() / kMaxRounds) {
            for (std::int64_t r = 2; r <= kMaxRounds; ++r) consider(r * n / f);
        }
        consider(n / f);
        consider(ceilDiv(n, f));
        consider(n / std::gcd(f, n));
    }
    return best;
}

}  // namespace

double GemmCostModel::oneCoreCycles(const model::GemmShape& g, const GemmCore& core) {
    double best = std::numeric_limits<double>::infinity();
    forEachTile(core, [&](std::int64_t t) {
        const double c =
            folds(g, core.rows * t, core.cols * t) * tilePassCycles(double(g.k), core, t) +
            double(core.rows) + double(core.cols);
        best = std::min(best, c);
    });
    return best;
}

double GemmCostModel::splitCycles(std::int64_t folds, std::int64_t k, std::int64_t cores,
                                  const GemmCore& core, std::int64_t t, std::int64_t s) {
    std::int64_t pieces = 0;
    if (__builtin_mul_overflow(folds, s, &pieces)) return std::numeric_limits<double>::infinity();
    const double rounds = double(ceilDiv(pieces, cores));
    const double stepsPerPiece = tilePassCycles(double(ceilDiv(k, s)), core, t);
    // The s partial tiles are summed a C-wide row per cycle: (s − 1)·⌈rows/s⌉ rows of t arrays.
    const double reduce = double(s - 1) * double(ceilDiv(core.rows * t, s)) * double(t);
    return rounds * stepsPerPiece + double(core.rows) + double(core.cols) + reduce;
}

GemmSplit GemmCostModel::allCoresCycles(const model::GemmShape& g, std::int64_t cores,
                                        const GemmCore& core) {
    GemmSplit best{std::numeric_limits<double>::infinity(), 1, 1};
    forEachTile(core, [&](std::int64_t t) {
        const GemmSplit candidate = bestSplit(g, cores, core, t);
        if (candidate.cycles < best.cycles) best = candidate;
    });
    return best;
}

double GemmCostModel::compulsoryBytes(const model::GemmShape& g, std::int64_t bytesPerElement) {
    const double m = double(g.m), n = double(g.n), k = double(g.k);
    return double(bytesPerElement) * double(g.batch) * (m * k + k * n + m * n);
}

GemmTraffic GemmCostModel::traffic(const model::GemmShape& g, std::int64_t globalBufferBytes,
                                   std::int64_t bytesPerElement) {
    const double a = double(g.m) * double(g.k);
    const double b = double(g.k) * double(g.n);
    const double c = double(g.m) * double(g.n);
    const double perItemScale = double(bytesPerElement) * double(g.batch);
    if (double(bytesPerElement) * (a + b + c) <= double(globalBufferBytes))
        return {perItemScale * (a + b + c), GemmDataflow::Compulsory, 0, 0};

    // Validation guarantees G ≥ 2·bpe; the floor of one element keeps the formulas defined even
    // for an unvalidated config (it then models a buffer of one element, i.e. no reuse).
    const std::int64_t s = std::max<std::int64_t>(1, globalBufferBytes / (2 * bytesPerElement));

    GemmTraffic best{std::numeric_limits<double>::infinity(), GemmDataflow::ResidentOutput, 0, 0};
    auto consider = [&](double elements, GemmDataflow flow, std::int64_t rows, std::int64_t cols) {
        if (elements < best.bytes) best = {elements, flow, rows, cols};
    };
    const std::int64_t panel = s / g.k;  // rows of A (or columns of B) that fit with all of k
    if (panel >= 1) {
        const std::int64_t pr = std::min(panel, g.m);
        consider(a + b * double(ceilDiv(g.m, pr)) + c, GemmDataflow::ResidentA, pr, 0);
        const std::int64_t pc = std::min(panel, g.n);
        consider(a * double(ceilDiv(g.n, pc)) + b + c, GemmDataflow::ResidentB, 0, pc);
    }
    // Output block: with p blocks along one side the shortest block ⌈x/p⌉ leaves the most room
    // along the other, so scanning p finds the best block of all. Past 4·⌈x/√S⌉ + 4 blocks the
    // re-reads of the scanned side's partner operand cost more than any saving on the other
    // (it exceeds twice the square block's total), so the scan stops there; it runs along the
    // shorter side. Only absurd shapes need more than kMaxBlockScan steps: those step
    // geometrically and may miss the optimum by a little.
    const std::int64_t side = isqrt(s);
    auto scan = [&](std::int64_t x, std::int64_t y, bool rowsFirst) {
        const std::int64_t pSquare = ceilDiv(x, std::min(x, side));
        const std::int64_t pMin = ceilDiv(x, std::min(x, s));  // keeps a block within S
        const std::int64_t pMax = std::max(pMin, pSquare > (x - 4) / 4 ? x : 4 * pSquare + 4);
        const bool geometric = pMax - pMin > kMaxBlockScan;
        for (std::int64_t p = pMin; p <= pMax;) {
            const std::int64_t bx = ceilDiv(x, p);
            const std::int64_t by = std::min(y, s / bx);
            if (rowsFirst)
                consider(a * double(ceilDiv(g.n, by)) + b * double(ceilDiv(g.m, bx)) + c,
                         GemmDataflow::ResidentOutput, bx, by);
            else
                consider(a * double(ceilDiv(g.n, bx)) + b * double(ceilDiv(g.m, by)) + c,
                         GemmDataflow::ResidentOutput, by, bx);
            if (p == pMax) break;
            p = std::min(pMax, geometric ? std::max(p + 1, p + p / 256) : p + 1);
        }
    };
    if (g.m <= g.n)
        scan(g.m, g.n, true);
    else
        scan(g.n, g.m, false);
    best.bytes *= perItemScale;
    return best;
}

}  // namespace tandem::core::estimate
