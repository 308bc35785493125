#pragma once
// Communication hidden behind compute, as Megatron-Core and Transformer Engine schedule it
// (docs/cost-model.md, "Overlap"). One formula for every case: a collective of C seconds and
// compute of G seconds cut into k chunks that alternate on two resources (the link and the
// cores), each chunk of one waiting for its chunk of the other. All but one chunk of the
// shorter side hide behind the longer: exposed = max(C/k, C − G·(k − 1)/k). When the first
// compute chunk needs no communication (a ring exchange: each rank starts on its own shard,
// k = group size, k − 1 exchange steps) the floor C/k goes: exposed = max(0, C − G·(k − 1)/k).
// k = kConcurrent (bulk overlap with an independent GEMM) hides min(C, G) whole. While the hidden
// part H runs, the collective's kernels occupy `computeShare` of the cores, so the compute beside
// it loses H·share: that time is exposed too. exposed + hidden = C always.
#include <cstdint>

namespace tandem::core::estimate {

struct Overlap {
    double exposedSeconds = 0;  // what the step still waits for (contention included)
    double hiddenSeconds = 0;   // what runs behind compute
};

// Chunks for a collective that runs beside an independent computation, not in lock step.
inline constexpr std::int64_t kConcurrent = 0;

// C = comm, G = compute (both ≥ 0), chunks ≥ 1 or kConcurrent, share in [0, 1].
Overlap pipelinedOverlap(double comm, double compute, std::int64_t chunks, double computeShare,
                         bool firstChunkLocal = false);

}  // namespace tandem::core::estimate
