#include "core/search/pareto.h"

#include <algorithm>
#include <cmath>

namespace tandem::core::search {

std::vector<std::size_t> paretoFront(std::span<const ParetoCandidate> points) {
    std::vector<std::size_t> order;
    order.reserve(points.size());
    for (std::size_t i = 0; i < points.size(); ++i)
        if (!std::isnan(points[i].cost) && !std::isnan(points[i].value)) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const ParetoCandidate& p = points[a];
        const ParetoCandidate& q = points[b];
        if (p.cost != q.cost) return p.cost < q.cost;
        if (p.value != q.value) return p.value > q.value;
        return a < b;
    });
    std::vector<std::size_t> front;
    bool anyCheaper = false;
    double bestCheaper = 0;  // best value among points of strictly lower cost
    for (std::size_t begin = 0; begin < order.size();) {
        const double cost = points[order[begin]].cost;
        const double groupBest = points[order[begin]].value;  // first of the group: highest
        std::size_t end = begin;
        while (end < order.size() && points[order[end]].cost == cost) ++end;
        // Equal cost: only the group's best value survives (a lower one is dominated by it),
        // and only if no strictly cheaper point is at least as good.
        if (!anyCheaper || groupBest > bestCheaper)
            for (std::size_t k = begin; k < end && points[order[k]].value == groupBest; ++k)
                front.push_back(order[k]);
        if (!anyCheaper || groupBest > bestCheaper) bestCheaper = groupBest;
        anyCheaper = true;
        begin = end;
    }
    return front;
}

}  // namespace tandem::core::search
