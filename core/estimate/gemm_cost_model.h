#pragma once
// The analytic tensor-core model behind OperatorEstimator (ARCHITECTURE.md §2.3): cycles of a
// (batched) GEMM on one rows×cols systolic array and spread over all tensor cores, and the HBM
// traffic of the GEMM against a global buffer of a given size. Pure functions of their arguments,
// kept apart from the estimator so that tests can check each term on its own. Every argument is
// assumed valid (GEMM dimensions ≥ 1, hardware counts ≥ 1); OperatorEstimator checks that first.
// All products of shape dimensions are taken in double so that no int64 can overflow.
//
// Compute (output-stationary array, R = rows along m, C = cols along n):
//  - folds F = batch·⌈m/R⌉·⌈n/C⌉: each fold computes one R×C output tile in k cycles (one
//    reduction step per cycle).
//  - one core: F·k + R + C cycles. The skew of R + C cycles to fill the array and drain the last
//    tile is paid once per run, not per fold, because consecutive folds are pipelined: the next
//    fold's operands enter while the previous tile drains (double-buffered accumulators). This is
//    what lets a 128×128 array reach ≥ 95 % of peak on large GEMMs (a·b·k/(a·b·k + 256)).
//  - all N cores: the F folds are cut into F·s pieces of ⌈k/s⌉ reduction steps (split-K by s)
//    and dealt out evenly: ⌈F·s/N⌉·⌈k/s⌉ + R + C + reduce(s) cycles, with s chosen to minimise
//    the total. s = 1 is plain fold distribution (⌈F/N⌉·k + R + C); s > 1 pays off when there
//    are fewer folds than cores (F < N) or when F is not a multiple of N. The s partial tiles of
//    one output tile are summed by a reduce-scatter through the global buffer: each of the s
//    cores owns ⌈R/s⌉ rows of the tile and accumulates the other s − 1 slices at the drain rate
//    of one C-wide row per cycle, so reduce(s) = (s − 1)·⌈R/s⌉ < R cycles. Partial tiles stay in
//    the cores' accumulators and the buffer carries only slices in flight: no HBM traffic. Only
//    the last round's reduction is exposed (earlier ones overlap the next round's compute), so
//    reduce(s) is paid once, like fill and drain. The candidate s (each ≤ k) are 1…16, all
//    powers of two up to min(k, N) and, for N' = N, ⌊N/2⌋, ⌊N/4⌋, …, 1, the values ⌊r·N'/F⌋ for
//    r = 1…8 rounds, ⌈N'/F⌉ and N'/gcd(F, N') (the smallest s that balances F·s pieces exactly
//    over N' cores). The candidate set for 2N contains the set for N and no candidate gets
//    slower with more cores, so doubling the core count never increases the cycles. The set is
//    small (≈ 11·log₂N) because the estimator runs per operator and chip of a 29,360-chip
//    search; tests bound its loss against a brute force over every s.
//  - short folds (GemmCore::minFoldCycles D = accelerator.tensorCoreDrainCyclesPerRow × R): a
//    finished tile leaves the array's accumulators one row per drain step while the next fold
//    computes, so a fold whose reduction is shorter than the drain waits for it: each fold (or
//    split-K piece) takes max(k, D) cycles instead of k. GEMMs with a short k (attention with
//    64-wide heads on a 128-row array) leave the array idle. D = 0 is PHAZE's free drain.
//  - tiles (GemmCore::tileFolds T, tileOverheadCycles O): a core may compute a tile of T × T
//    folds per pass (a GPU SM's thread-block tile: 128×128 outputs on an SM worth a 32×32
//    array is T = 4). Tiles, not folds, are then what is dealt out to the cores, so quantisation
//    is at tile granularity, and each tile pass costs T²·max(k, D) + O cycles: O is the staging
//    of the first operands and the store of the finished tile that the next tile does not hide.
//    Like a GEMM library choosing a kernel per shape, the cheapest of the square tiles
//    T, T/2, …, 1 is taken (smaller tiles quantise less but pay O more often). T = 1, O = 0 is
//    the plain array above, to the last bit.
//
// HBM traffic (bytes, per batch item, then × batch since each item has its own operands; A = m×k,
// B = k×n, C = m×n elements of bpe bytes):
//  - working set bpe·(|A| + |B| + |C|) fits in the global buffer G: compulsory traffic, every
//    operand read once and the output written once.
//  - else the cheapest of three dataflows, each keeping a block resident in half the buffer
//    (S = ⌊G / (2·bpe)⌋ elements; the other half double-buffers the streamed operands):
//      resident A panel of ⌊S/k⌋ rows: A once, B once per panel, C once;
//      resident B panel of ⌊S/k⌋ columns: B once, A once per panel, C once;
//      resident output block bm×bn (the best with bm·bn ≤ S, found by scanning the number of
//      blocks along the shorter side): A once per column block, B once per row block, C written
//      once (accumulated on chip over all of k).
//    A panel needs a full k-long row, so for very long k only the output block applies. A
//    compiler would pick the cheapest schedule; these three bracket the classic choices, and the
//    output block keeps traffic within a constant factor of the Hong–Kung lower bound.
#include <cstdint>

#include "core/model/operator.h"

namespace tandem::core::estimate {

// One tensor core as the GEMM formulas see it (see the header comment).
struct GemmCore {
    std::int64_t rows = 1;          // R
    std::int64_t cols = 1;          // C
    double minFoldCycles = 0;       // D
    std::int64_t tileFolds = 1;     // T
    double tileOverheadCycles = 0;  // O
};

struct GemmSplit {
    double cycles = 0;           // cycles over all cores, including fill, drain and reduction
    std::int64_t splitK = 1;     // s: pieces each output tile's reduction was cut into
    std::int64_t tileFolds = 1;  // the tile chosen, in folds along each side
};

enum class GemmDataflow {
    Compulsory,      // the whole working set fits in the global buffer
    ResidentA,       // a panel of A rows stays on chip, B is re-read per panel
    ResidentB,       // a panel of B columns stays on chip, A is re-read per panel
    ResidentOutput,  // an output block stays on chip, A and B are re-read per block
};

struct GemmTraffic {
    double bytes = 0;  // HBM bytes for the whole batch
    GemmDataflow dataflow = GemmDataflow::Compulsory;
    std::int64_t blockRows = 0;  // resident panel/block rows (m direction), 0 if compulsory
    std::int64_t blockCols = 0;  // resident panel/block columns (n direction), 0 if compulsory
};

class GemmCostModel {
public:
    static double folds(const model::GemmShape& g, std::int64_t rows, std::int64_t cols);
    static double oneCoreCycles(const model::GemmShape& g, const GemmCore& core);
    static GemmSplit allCoresCycles(const model::GemmShape& g, std::int64_t cores,
                                    const GemmCore& core);
    // Cycles of one split-K candidate s ≥ 1 for `folds` tiles of `tileFolds` (exposed so tests
    // can brute-force the choice of s); +infinity when folds·s does not fit in int64.
    static double splitCycles(std::int64_t folds, std::int64_t k, std::int64_t cores,
                              const GemmCore& core, std::int64_t tileFolds, std::int64_t s);
    // The plain array (T = 1, O = 0, D = 0): PHAZE's formulas.
    static double oneCoreCycles(const model::GemmShape& g, std::int64_t rows, std::int64_t cols) {
        return oneCoreCycles(g, GemmCore{rows, cols});
    }
    static GemmSplit allCoresCycles(const model::GemmShape& g, std::int64_t cores,
                                    std::int64_t rows, std::int64_t cols) {
        return allCoresCycles(g, cores, GemmCore{rows, cols});
    }
    static double splitCycles(std::int64_t folds, std::int64_t k, std::int64_t cores,
                              std::int64_t rows, std::int64_t cols, std::int64_t s) {
        return splitCycles(folds, k, cores, GemmCore{rows, cols}, 1, s);
    }
    static double compulsoryBytes(const model::GemmShape& g, std::int64_t bytesPerElement);
    static GemmTraffic traffic(const model::GemmShape& g, std::int64_t globalBufferBytes,
                               std::int64_t bytesPerElement);
};

}  // namespace tandem::core::estimate
