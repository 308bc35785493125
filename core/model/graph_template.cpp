#include "core/model/graph_template.h"

#include <functional>
#include <queue>
#include <utility>

namespace tandem::core::model {

void sortTopologically(std::vector<OperatorTemplate>& ops) {
    const std::size_t n = ops.size();
    std::vector<std::vector<int>> consumers(n);
    std::vector<int> pending(n, 0);
    for (std::size_t v = 0; v < n; ++v) {
        pending[v] = int(ops[v].inputs.size());
        for (int u : ops[v].inputs) consumers[std::size_t(u)].push_back(int(v));
    }
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (std::size_t v = 0; v < n; ++v)
        if (pending[v] == 0) ready.push(int(v));
    std::vector<int> order, newIndex(n, -1);
    while (!ready.empty()) {
        const int u = ready.top();
        ready.pop();
        newIndex[std::size_t(u)] = int(order.size());
        order.push_back(u);
        for (int v : consumers[std::size_t(u)])
            if (--pending[std::size_t(v)] == 0) ready.push(v);
    }
    std::vector<OperatorTemplate> sorted;
    for (int old : order) {
        sorted.push_back(std::move(ops[std::size_t(old)]));
        for (int& input : sorted.back().inputs) input = newIndex[std::size_t(input)];
    }
    ops = std::move(sorted);
}

}  // namespace tandem::core::model
