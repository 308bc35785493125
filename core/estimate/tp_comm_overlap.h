#pragma once
// --tp-comm-overlap: Transformer Engine's userbuffers overlap of sequence parallelism's
// collectives with the GEMMs next to them (docs/cost-model.md, "Overlap"), applied to one
// layer's operator costs. The pairing follows TE's defaults, found from the graph's shape:
// - an all-gather feeding GEMMs that feed on (qkv and fc1 forward; proj and fc2 dgrad) is a
//   ring exchange: the GEMM runs in t chunks of its rows, the first on the rank's own shard,
//   each next one on the chunk received meanwhile (copy engines, no cores taken);
// - a collective after a forward GEMM (proj and fc2's reduce-scatter) is pipelined with it in
//   TE's 4 splits;
// - a backward collective beside an independent weight-gradient or input-gradient GEMM (the
//   reduce-scatter of qkv's and fc1's dgrad beside their wgrad; the re-gather of their input
//   beside their dgrad) runs in bulk alongside it.
// Chunked GEMMs are priced at their chunk shape (smaller GEMMs fill fewer waves: the chunking's
// cost is exposed communication). The collective's cost becomes what stays exposed (with the
// cores its kernels take, accelerator.collectiveComputeShare, except a ring exchange); the
// rest is added to the table's hidden seconds. Other operators keep their costs.
#include "core/estimate/layer_cost_table.h"

namespace tandem::core::estimate {

// Transformer Engine's default number of splits of a pipelined reduce-scatter overlap.
inline constexpr std::int64_t kPipelinedSplits = 4;

void overlapTensorParallelComm(const OperatorEstimator& estimator, const model::LayerGraph& graph,
                               LayerCostTable& table);

}  // namespace tandem::core::estimate
