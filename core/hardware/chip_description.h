#pragma once
// One-line descriptions of an accelerator for tables, tooltips and summaries, e.g.
// "8 TC 128×128 · 2 VC ×128 · GLB 128 MiB" (HBM is a per-point option in a search and is
// described separately by callers). Shared by the CLI and the GUI so both say the same thing.
#include <string>

#include "core/hardware/accelerator_config.h"

namespace tandem::core::hardware {

std::string describeChip(const AcceleratorConfig& accelerator);

}  // namespace tandem::core::hardware
