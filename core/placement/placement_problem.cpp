#include "core/placement/placement_problem.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

namespace tandem::core::placement {
namespace {

std::string fmt(double v) {
    std::ostringstream out;
    out.precision(17);
    out << v;
    return out.str();
}

Error fieldError(const std::string& where, const std::string& field, const std::string& value,
                 const std::string& allowed) {
    return Error{"placement problem: " + where + field + " = " + value +
                 " is invalid; allowed: " + allowed};
}

bool nonNegativeFinite(double v) {
    return std::isfinite(v) && v >= 0;
}

// `where` makes the message prefix only when there is an error (validation runs for every
// placement a search prices, so the happy path builds no strings).
template <typename Where>
Status checkLayer(const Where& where, const LayerCost& layer) {
    const std::pair<const char*, double> fields[] = {
        {"forwardSeconds", layer.forwardSeconds},
        {"backwardSeconds", layer.backwardSeconds},
        {"parameterBytes", layer.parameterBytes},
        {"tiedParameterBytes", layer.tiedParameterBytes},
        {"activationBytes", layer.activationBytes},
        {"stashBytesRecompute", layer.stashBytesRecompute},
        {"selectiveRecomputeSeconds", layer.selectiveRecomputeSeconds},
    };
    for (const auto& [name, value] : fields)
        if (!nonNegativeFinite(value))
            return fieldError(where(), name, fmt(value), "a finite number >= 0");
    if (layer.tiedParameterBytes > layer.parameterBytes)
        return fieldError(where(), "tiedParameterBytes", fmt(layer.tiedParameterBytes),
                          "at most parameterBytes (" + fmt(layer.parameterBytes) + ")");
    const double selective = layer.activationBytesSelective;
    if (!std::isfinite(selective) || (selective >= 0 && selective > layer.activationBytes))
        return fieldError(
            where(), "activationBytesSelective", fmt(selective),
            "< 0 (none) or at most activationBytes (" + fmt(layer.activationBytes) + ")");
    return Status::success();
}

// The smallest index whose key appeared at a smaller index (a value's second occurrence), or
// keyed.size() when every key is unique. Sorts `keyed` (key, index) pairs.
template <typename Key>
std::size_t firstRepeat(std::vector<std::pair<Key, std::size_t>>& keyed) {
    std::sort(keyed.begin(), keyed.end());
    std::size_t repeat = keyed.size();
    for (std::size_t k = 1; k < keyed.size(); ++k)
        if (keyed[k].first == keyed[k - 1].first) repeat = std::min(repeat, keyed[k].second);
    return repeat;
}

// Kahn's algorithm; returns the index of a layer on a cycle, or -1 when the graph is acyclic.
int layerOnCycle(int n, const std::vector<LayerEdgeCost>& edges) {
    std::vector<int> indegree(std::size_t(n), 0);
    std::vector<std::vector<int>> successors(static_cast<std::size_t>(n));
    for (const LayerEdgeCost& e : edges) {
        successors[std::size_t(e.from)].push_back(e.to);
        ++indegree[std::size_t(e.to)];
    }
    std::vector<int> ready;
    for (int v = 0; v < n; ++v)
        if (indegree[std::size_t(v)] == 0) ready.push_back(v);
    int seen = 0;
    while (!ready.empty()) {
        const int v = ready.back();
        ready.pop_back();
        ++seen;
        for (int w : successors[std::size_t(v)])
            if (--indegree[std::size_t(w)] == 0) ready.push_back(w);
    }
    if (seen == n) return -1;
    for (int v = 0; v < n; ++v)
        if (indegree[std::size_t(v)] > 0) return v;
    return -1;
}

Status checkWidth(const LayerCostSet& set, const LayerCostSet& reference, std::size_t index) {
    const auto where = [&] {
        return "widths[" + std::to_string(index) + "] (t=" + std::to_string(set.tensorParallel) +
               ").";
    };
    if (set.tensorParallel < 1 || set.tensorParallel > PlacementProblem::kMaxDevices)
        return fieldError(where(), "tensorParallel", std::to_string(set.tensorParallel),
                          "1.." + std::to_string(PlacementProblem::kMaxDevices));
    if (set.layers.empty()) return fieldError(where(), "layers", "[]", "at least one layer");
    if (std::int64_t(set.layers.size()) > PlacementProblem::kMaxLayers)
        return fieldError(where(), "layers", std::to_string(set.layers.size()) + " layers",
                          "at most " + std::to_string(PlacementProblem::kMaxLayers));
    if (set.layers.size() != reference.layers.size())
        return fieldError(
            where(), "layers", std::to_string(set.layers.size()) + " layers",
            "the same " + std::to_string(reference.layers.size()) + " layers as widths[0]");
    // Widths after the first are checked against it, which validate() has checked already: a
    // name repeated in them differs from the first width's at that index or earlier, which is
    // reported first, so only widths[0] is searched for repeats.
    const bool first = &set == &reference;
    std::size_t repeatedName = set.layers.size();
    if (first) {
        std::vector<std::pair<std::string_view, std::size_t>> names;
        names.reserve(set.layers.size());
        for (std::size_t i = 0; i < set.layers.size(); ++i)
            names.emplace_back(set.layers[i].name, i);
        repeatedName = firstRepeat(names);
    }
    for (std::size_t i = 0; i < set.layers.size(); ++i) {
        const auto at = [&] {
            return where() + "layers[" + std::to_string(i) + "] '" + set.layers[i].name + "'.";
        };
        if (Status s = checkLayer(at, set.layers[i]); !s) return s;
        if (set.layers[i].name != reference.layers[i].name)
            return fieldError(at(), "name", "'" + set.layers[i].name + "'",
                              "'" + reference.layers[i].name + "' as in widths[0]");
        if (i == repeatedName)
            return fieldError(at(), "name", "'" + set.layers[i].name + "'", "a unique layer name");
    }
    const int n = int(set.layers.size());
    // The same edges in the same order as the checked first width: only the sizes can be wrong.
    const bool sameEdges = !first && set.edges.size() == reference.edges.size() &&
                           std::equal(set.edges.begin(), set.edges.end(), reference.edges.begin(),
                                      [](const LayerEdgeCost& a, const LayerEdgeCost& b) {
                                          return a.from == b.from && a.to == b.to;
                                      });
    if (sameEdges) {
        for (std::size_t k = 0; k < set.edges.size(); ++k)
            if (!nonNegativeFinite(set.edges[k].bytes))
                return fieldError(where() + "edges[" + std::to_string(k) + "].", "bytes",
                                  fmt(set.edges[k].bytes), "a finite number >= 0");
        return Status::success();
    }
    std::vector<std::pair<std::pair<int, int>, std::size_t>> indexed;
    indexed.reserve(set.edges.size());
    for (std::size_t k = 0; k < set.edges.size(); ++k)
        indexed.push_back({{set.edges[k].from, set.edges[k].to}, k});
    const std::size_t repeatedPair = firstRepeat(indexed);
    std::vector<std::pair<int, int>> pairs;
    pairs.reserve(set.edges.size());
    for (std::size_t k = 0; k < set.edges.size(); ++k) {
        const LayerEdgeCost& e = set.edges[k];
        const auto at = [&] { return where() + "edges[" + std::to_string(k) + "]."; };
        if (e.from < 0 || e.from >= n)
            return fieldError(at(), "from", std::to_string(e.from),
                              "a layer index 0.." + std::to_string(n - 1));
        if (e.to < 0 || e.to >= n)
            return fieldError(at(), "to", std::to_string(e.to),
                              "a layer index 0.." + std::to_string(n - 1));
        if (e.from == e.to)
            return fieldError(at(), "to", std::to_string(e.to),
                              "a layer other than from (no self-loops)");
        if (!nonNegativeFinite(e.bytes))
            return fieldError(at(), "bytes", fmt(e.bytes), "a finite number >= 0");
        if (k == repeatedPair)
            return fieldError(at(), "to", std::to_string(e.to),
                              "one edge per layer pair (" + std::to_string(e.from) + " -> " +
                                  std::to_string(e.to) + " repeats; merge the sizes)");
        pairs.emplace_back(e.from, e.to);
    }
    std::vector<std::pair<int, int>> referencePairs;
    referencePairs.reserve(reference.edges.size());
    for (const LayerEdgeCost& e : reference.edges) referencePairs.emplace_back(e.from, e.to);
    std::sort(pairs.begin(), pairs.end());
    std::sort(referencePairs.begin(), referencePairs.end());
    referencePairs.erase(std::unique(referencePairs.begin(), referencePairs.end()),
                         referencePairs.end());
    if (pairs != referencePairs)
        return fieldError(where(), "edges", std::to_string(set.edges.size()) + " edges",
                          "the same layer pairs as widths[0]");
    if (const int v = layerOnCycle(n, set.edges); v >= 0)
        return Error{"placement problem: " + where() + "edges form a cycle through layer " +
                     std::to_string(v) + " '" + set.layers[std::size_t(v)].name +
                     "'; the layer graph must be a DAG"};
    return Status::success();
}

}  // namespace

Status PlacementProblem::validate() const {
    if (widths.empty()) return fieldError("", "widths", "[]", "at least one tensor-parallel width");
    std::set<std::int64_t> seen;
    for (std::size_t i = 0; i < widths.size(); ++i) {
        if (Status s = checkWidth(widths[i], widths[0], i); !s) return s;
        if (!seen.insert(widths[i].tensorParallel).second)
            return fieldError("widths[" + std::to_string(i) + "].", "tensorParallel",
                              std::to_string(widths[i].tensorParallel), "a width listed once");
        // Layers that all take no time would train at infinite speed: nothing to place.
        const auto& layers = widths[i].layers;
        if (std::none_of(layers.begin(), layers.end(), [](const LayerCost& l) {
                return l.forwardSeconds > 0 || l.backwardSeconds > 0;
            })) {
            return Error{"placement problem: widths[" + std::to_string(i) +
                         "] (t = " + std::to_string(widths[i].tensorParallel) +
                         "): every layer takes 0 s forward and backward; the model does no work"};
        }
    }
    if (cluster.devices < 1 || cluster.devices > kMaxDevices)
        return fieldError("cluster.", "devices", std::to_string(cluster.devices),
                          "1.." + std::to_string(kMaxDevices));
    if (cluster.devicesPerNode < 1)
        return fieldError("cluster.", "devicesPerNode", std::to_string(cluster.devicesPerNode),
                          ">= 1");
    if (!std::isfinite(cluster.intraNodeBandwidthBytesPerSecond) ||
        !(cluster.intraNodeBandwidthBytesPerSecond > 0))
        return fieldError("cluster.", "intraNodeBandwidthBytesPerSecond",
                          fmt(cluster.intraNodeBandwidthBytesPerSecond), "a finite number > 0");
    if (!std::isfinite(cluster.interNodeBandwidthBytesPerSecond) ||
        !(cluster.interNodeBandwidthBytesPerSecond > 0))
        return fieldError("cluster.", "interNodeBandwidthBytesPerSecond",
                          fmt(cluster.interNodeBandwidthBytesPerSecond), "a finite number > 0");
    if (!nonNegativeFinite(cluster.hopLatencySeconds))
        return fieldError("cluster.", "hopLatencySeconds", fmt(cluster.hopLatencySeconds),
                          "a finite number >= 0");
    if (training.globalBatch < 1)
        return fieldError("training.", "globalBatch", std::to_string(training.globalBatch), ">= 1");
    if (training.microbatch < 1 || training.microbatch > training.globalBatch)
        return fieldError("training.", "microbatch", std::to_string(training.microbatch),
                          "1..globalBatch (" + std::to_string(training.globalBatch) + ")");
    if (!nonNegativeFinite(memoryBandwidthBytesPerSecond))
        return fieldError("", "memoryBandwidthBytesPerSecond", fmt(memoryBandwidthBytesPerSecond),
                          "a finite number >= 0 (0: the optimizer step is not priced)");
    if (training.interleave < 1 || training.interleave > 1024)
        return fieldError("training.", "interleave", std::to_string(training.interleave),
                          "1..1024 model chunks per device");
    if (!std::isfinite(hbmCapacityBytes) || !(hbmCapacityBytes > 0))
        return fieldError("", "hbmCapacityBytes", fmt(hbmCapacityBytes), "a finite number > 0");
    if (bytesPerElement < 1 || bytesPerElement > 8)
        return fieldError("", "bytesPerElement", std::to_string(bytesPerElement),
                          "1..8 (mixed-precision Adam keeps 16 bytes per parameter)");
    if (gradientBytesPerElement < 0 || gradientBytesPerElement > 8)
        return fieldError("", "gradientBytesPerElement", std::to_string(gradientBytesPerElement),
                          "0..8 (0: bytesPerElement)");
    return Status::success();
}

double PlacementProblem::gradientBytesFactor(std::int64_t zero) const {
    if (zero >= 2 || gradientBytesPerElement <= 0) return 1.0;
    return double(gradientBytesPerElement) / double(bytesPerElement);
}

std::int64_t PlacementProblem::microbatchesPerBatch() const {
    return (training.globalBatch + training.microbatch - 1) / training.microbatch;
}

const LayerCostSet* PlacementProblem::width(std::int64_t t) const {
    for (const LayerCostSet& set : widths)
        if (set.tensorParallel == t) return &set;
    return nullptr;
}

}  // namespace tandem::core::placement
