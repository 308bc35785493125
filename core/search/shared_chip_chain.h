#pragma once
// The attribution chain of one model in a multi-model search (search_baselines.h): the search
// chooses one chip for every model, so this model's searched steps are its own evaluations on
// that chip — chipOnly and chipAndPlacement at the reference baseline's options (its fixed
// strategy, Tandem's placement), sameHbm the fastest of the chip's options at the reference
// baseline's HBM. The points' stored throughputs cannot give them: a multi-model point keeps
// each model's placed throughput, not its fixed strategy's, and its throughput field is 0.
#include <cstdint>

#include "core/search/model_evaluator.h"
#include "core/search/search_baselines.h"
#include "core/search/search_grid.h"

namespace tandem::core::search {

// `chipIndex`: the chosen (best) point's chip in `grid`; `b.referenceFixed` must be set. Steps
// that do not fit say why.
void fillSharedChipChain(SearchBaselines& b, const SearchGrid& grid, std::int64_t chipIndex,
                         const ModelEvaluator& evaluator);

}  // namespace tandem::core::search
