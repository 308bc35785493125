#pragma once
// The two cost models one placement solver can run with (ARCHITECTURE.md §2.5–2.7): `native`,
// Tandem's own SI model, and `phaze-compat`, PHAZE's formulas reproduced bit for bit
// (PHAZE's public code). Kept apart from cost_model.h so plain result types can name a model
// without pulling in the interface.
#include <string_view>

namespace tandem::core::placement {

enum class CostModelKind { Native, PhazeCompat };

std::string_view toString(CostModelKind kind);                   // "native", "phaze-compat"
bool parseCostModel(std::string_view text, CostModelKind& out);  // accepts the names above

}  // namespace tandem::core::placement
