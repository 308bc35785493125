#pragma once
// Search results ranked by another objective without evaluating anything again (issue 27 item
// 12: the design space plots any objective, the Pareto front and the best point follow). Every
// point's plan is its chip's fastest whatever the objective (search_objective.h), so a point's
// objective under another ranking follows from its stored plan figures — throughput, devices in
// use, joules per iteration — and the global batch: exactly what a search with that objective
// stores, bit for bit (test_ranking checks it against such a search).
//
// Refused, with the reason and what to do instead:
//  - multi-model results: their objective is a geometric mean of each model's objective over
//    its reference chip's, and points keep only each model's throughput;
//  - results of the pruned explorer that skipped points: it skipped them because they could not
//    beat its best by the objective it searched, which says nothing of another;
//  - feasible points without the energy or devices the objective needs (results files written
//    before plans recorded them).
#include <cstdint>

#include "core/common/expected.h"
#include "core/search/search_objective.h"
#include "core/search/search_results.h"

namespace tandem::core::search {

// `globalBatch`: the samples per iteration of the searched training (> 0).
Expected<SearchResults> rankResults(const SearchResults& results, SearchObjective objective,
                                    std::int64_t globalBatch);

}  // namespace tandem::core::search
