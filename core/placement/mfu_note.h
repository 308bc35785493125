#pragma once
// Why a plan's model FLOPs utilisation is above what large-scale training runs publish, when it
// is. The best published runs reach 46–58 % MFU (Narayanan et al., SC 2021; Chowdhery et al.,
// PaLM, 2022; Megatron-Core's H100 weak-scaling table), and a user seeing 81 % on a design-space
// chip should learn that it is the chip's physics, not an ideal machine: a chip with little
// tensor-core peak runs each GEMM for so long that launch floors, collectives, the pipeline
// bubble and the synchronisation barely count beside it (docs/cost-model.md, "Tiny chips").
// Compute-bound work reaches such figures elsewhere too (72 % MFU training with
// FlashAttention-2, Dao 2023).
#include <string>

#include "core/placement/plan.h"

namespace tandem::core::placement {

// Above this MFU a plan gets a note.
inline constexpr double kHighMfu = 0.70;

// "" when plan.mfu ≤ kHighMfu (or unknown); otherwise the MFU and the share of the time per
// batch its layers' work (compute and recomputation) takes. An fp8 plan's MFU is against the
// fp16/bf16 peak while its GEMMs run faster: its note gives the figure against the fp8 peak
// instead, and the compute-bound reason only when that is still above kHighMfu.
std::string highMfuNote(const Plan& plan);

}  // namespace tandem::core::placement
