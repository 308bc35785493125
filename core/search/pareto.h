#pragma once
// Pareto fronts of a search (ARCHITECTURE.md §2.9): the points no other point beats on both
// axes, for "maximise throughput, minimise area" and "maximise throughput, minimise HBM". Point
// p dominates q when p.cost ≤ q.cost and p.value ≥ q.value with at least one strict; points with
// identical (cost, value) do not dominate each other, so all copies of a front point are on the
// front. Points with a NaN coordinate are never on the front. O(n log n): one sort by cost, then
// a sweep keeping the best value of strictly cheaper points.
#include <cstddef>
#include <span>
#include <vector>

namespace tandem::core::search {

struct ParetoCandidate {
    double cost = 0;   // minimised (area mm², HBM bytes)
    double value = 0;  // maximised (throughput, objective)
};

// Indices into `points` of the non-dominated ones, ordered by cost ascending, then value
// descending, then index ascending (so ties come out the same for any input order of equal
// points).
std::vector<std::size_t> paretoFront(std::span<const ParetoCandidate> points);

}  // namespace tandem::core::search
