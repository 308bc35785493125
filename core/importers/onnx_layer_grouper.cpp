#include "core/importers/onnx_layer_grouper.h"

#include <algorithm>
#include <array>
#include <map>
#include <queue>
#include <set>

namespace tandem::core::importers {

namespace {

bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

constexpr std::array<std::string_view, 9> kBlockWords{
    "h", "layer", "layers", "block", "blocks", "resblocks", "stage", "stages", "blk"};

// The key ending at the component that starts at `p`, if it is one.
std::optional<LayerKey> keyAt(std::string_view name, std::size_t p) {
    std::size_t q = p;
    while (q < name.size() && isAlpha(name[q])) ++q;
    const std::string_view word = name.substr(p, q - p);
    if (word.empty() ||
        std::find(kBlockWords.begin(), kBlockWords.end(), word) == kBlockWords.end())
        return std::nullopt;
    if (word == "layer")  // torchvision: layer1.0
        while (q < name.size() && isDigit(name[q])) ++q;
    if (q >= name.size() || (name[q] != '.' && name[q] != '_')) return std::nullopt;
    ++q;
    const std::size_t digits = q;
    while (q < name.size() && isDigit(name[q])) ++q;
    if (q == digits) return std::nullopt;
    if (q < name.size() && name[q] != '/' && name[q] != '.' && name[q] != '_') return std::nullopt;
    return LayerKey{q};
}

// Strongly connected components of a small digraph (Kosaraju, iterative); comp[v] numbers them.
std::vector<int> components(const std::vector<std::set<int>>& succ) {
    const int n = int(succ.size());
    std::vector<std::vector<int>> pred(std::size_t(n), std::vector<int>{});
    for (int v = 0; v < n; ++v)
        for (int w : succ[std::size_t(v)]) pred[std::size_t(w)].push_back(v);
    std::vector<int> finish;
    std::vector<bool> seen(std::size_t(n), false);
    for (int root = 0; root < n; ++root) {
        if (seen[std::size_t(root)]) continue;
        std::vector<std::pair<int, std::set<int>::const_iterator>> stack;
        seen[std::size_t(root)] = true;
        stack.emplace_back(root, succ[std::size_t(root)].begin());
        while (!stack.empty()) {
            auto& [v, it] = stack.back();
            if (it == succ[std::size_t(v)].end()) {
                finish.push_back(v);
                stack.pop_back();
                continue;
            }
            const int w = *it++;
            if (!seen[std::size_t(w)]) {
                seen[std::size_t(w)] = true;
                stack.emplace_back(w, succ[std::size_t(w)].begin());
            }
        }
    }
    std::vector<int> comp(std::size_t(n), -1);
    int count = 0;
    for (auto r = finish.rbegin(); r != finish.rend(); ++r) {
        if (comp[std::size_t(*r)] >= 0) continue;
        std::vector<int> stack{*r};
        comp[std::size_t(*r)] = count;
        while (!stack.empty()) {
            const int v = stack.back();
            stack.pop_back();
            for (int w : pred[std::size_t(v)])
                if (comp[std::size_t(w)] < 0) {
                    comp[std::size_t(w)] = count;
                    stack.push_back(w);
                }
        }
        ++count;
    }
    return comp;
}

std::string mergedName(const std::vector<std::string>& names) {
    if (names.size() <= 3) {
        std::string joined;
        for (const std::string& n : names) joined += (joined.empty() ? "" : "+") + n;
        return joined;
    }
    return names.front() + "+…+" + names.back();
}

}  // namespace

std::optional<LayerKey> findLayerKey(std::string_view nodeName) {
    for (std::size_t p = 0; p < nodeName.size(); ++p) {
        if (p > 0 && nodeName[p - 1] != '/' && nodeName[p - 1] != '.') continue;
        if (auto key = keyAt(nodeName, p)) return key;
    }
    return std::nullopt;
}

LayerGrouping groupOnnxLayers(const std::vector<std::string>& names,
                              const std::vector<std::vector<int>>& predecessors,
                              const std::string& graphName) {
    const int n = int(names.size());
    LayerGrouping result;
    result.layerOf.assign(std::size_t(n), 0);
    // First pass: raw groups in order of first appearance.
    std::vector<GroupedLayer> raw;
    std::map<std::string, int> byKey;
    std::vector<int> rawOf(std::size_t(n), -1);
    int firstKeyed = -1, lastKeyed = -1;
    for (int i = 0; i < n; ++i) {
        const auto key = findLayerKey(names[std::size_t(i)]);
        if (!key) continue;
        const std::string prefix = names[std::size_t(i)].substr(0, key->end);
        auto [it, inserted] = byKey.emplace(prefix, int(raw.size()));
        if (inserted) {
            const std::size_t skip = prefix.find_first_not_of('/');
            raw.push_back(
                {skip == std::string::npos ? prefix : prefix.substr(skip), "block", prefix, {}});
        }
        rawOf[std::size_t(i)] = it->second;
        if (firstKeyed < 0) firstKeyed = i;
        lastKeyed = i;
    }
    if (raw.empty()) {
        GroupedLayer all{graphName.empty() ? "graph" : graphName, "graph", "", {}};
        for (int i = 0; i < n; ++i) all.members.push_back(i);
        result.layers.push_back(std::move(all));
        return result;
    }
    int prologue = -1, epilogue = -1, recent = -1;
    for (int i = 0; i < n; ++i) {
        int& group = rawOf[std::size_t(i)];
        if (group >= 0) {
            recent = group;
        } else if (i < firstKeyed) {
            if (prologue < 0) {
                prologue = int(raw.size());
                raw.push_back({"prologue", "prologue", "", {}});
            }
            group = prologue;
        } else if (i > lastKeyed) {
            if (epilogue < 0) {
                epilogue = int(raw.size());
                raw.push_back({"epilogue", "epilogue", "", {}});
            }
            group = epilogue;
        } else {
            group = recent;
        }
        raw[std::size_t(group)].members.push_back(i);
    }
    // Order of first appearance: the prologue first, the epilogue last.
    std::vector<int> rank(raw.size());
    for (std::size_t g = 0; g < raw.size(); ++g) rank[g] = raw[g].members.front();
    // Layer DAG, with cycles merged.
    std::vector<std::set<int>> succ(raw.size());
    for (int i = 0; i < n; ++i)
        for (int p : predecessors[std::size_t(i)]) {
            const int from = rawOf[std::size_t(p)], to = rawOf[std::size_t(i)];
            if (from != to) succ[std::size_t(from)].insert(to);
        }
    const std::vector<int> comp = components(succ);
    const int count = 1 + *std::max_element(comp.begin(), comp.end());
    std::vector<std::vector<int>> groupsOf(std::size_t(count), std::vector<int>{});
    for (std::size_t g = 0; g < raw.size(); ++g) groupsOf[std::size_t(comp[g])].push_back(int(g));
    std::vector<GroupedLayer> merged(static_cast<std::size_t>(count));
    std::vector<int> mergedRank(std::size_t(count), n);
    for (int c = 0; c < count; ++c) {
        auto& groups = groupsOf[std::size_t(c)];
        std::sort(groups.begin(), groups.end(),
                  [&](int a, int b) { return rank[std::size_t(a)] < rank[std::size_t(b)]; });
        GroupedLayer& layer = merged[std::size_t(c)];
        if (groups.size() == 1) {
            layer = raw[std::size_t(groups.front())];
        } else {
            std::vector<std::string> parts;
            for (int g : groups) parts.push_back(raw[std::size_t(g)].name);
            layer = {mergedName(parts), "block", "", {}};
            for (int g : groups)
                layer.members.insert(layer.members.end(), raw[std::size_t(g)].members.begin(),
                                     raw[std::size_t(g)].members.end());
            std::sort(layer.members.begin(), layer.members.end());
        }
        mergedRank[std::size_t(c)] = layer.members.front();
    }
    // Kahn over the condensation, lowest first appearance first.
    std::vector<std::set<int>> condensed(static_cast<std::size_t>(count));
    std::vector<int> indegree(std::size_t(count), 0);
    for (std::size_t g = 0; g < raw.size(); ++g)
        for (int h : succ[g]) {
            const int a = comp[g], b = comp[std::size_t(h)];
            if (a != b && condensed[std::size_t(a)].insert(b).second) ++indegree[std::size_t(b)];
        }
    using Item = std::pair<int, int>;  // (rank, component)
    std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
    for (int c = 0; c < count; ++c)
        if (indegree[std::size_t(c)] == 0) ready.emplace(mergedRank[std::size_t(c)], c);
    while (!ready.empty()) {
        const int c = ready.top().second;
        ready.pop();
        const int index = int(result.layers.size());
        for (int member : merged[std::size_t(c)].members)
            result.layerOf[std::size_t(member)] = index;
        result.layers.push_back(std::move(merged[std::size_t(c)]));
        for (int d : condensed[std::size_t(c)])
            if (--indegree[std::size_t(d)] == 0) ready.emplace(mergedRank[std::size_t(d)], d);
    }
    return result;
}

}  // namespace tandem::core::importers
