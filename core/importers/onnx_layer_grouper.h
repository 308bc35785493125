#pragma once
// Groups the operators of an imported graph into layers, PHAZE's unit of pipeline placement.
// A node belongs to the block named by the first path component of its name that looks like a
// repeated module: `h.3`, `layer.3`, `layers.3`, `block(s).3`, `resblocks.3`, `stage(s).3`,
// `blk.3`, torchvision's `layer2.1` (separator '.' or '_'; the component ends at '/', '.', '_'
// or the end). The block's key is the name up to and including that component
// ("/transformer/h.3"), so encoder and decoder blocks with the same number stay apart. Nodes
// without a key go to a "prologue" layer before the first keyed node (in topological order),
// an "epilogue" layer after the last one, and otherwise join the most recent keyed block. A
// graph without any key is one layer. Should the blocks' data flow form a cycle (names that
// interleave), the layers on the cycle are merged, so the layer graph is always a DAG; layers
// are returned in a topological order that keeps first appearance where it can.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tandem::core::importers {

struct LayerKey {
    std::size_t end = 0;  // the key is name.substr(0, end)
};

std::optional<LayerKey> findLayerKey(std::string_view nodeName);

struct GroupedLayer {
    std::string name;    // the key without a leading '/', "prologue", "epilogue", or the graph's
    std::string kind;    // "block", "prologue", "epilogue", "graph"
    std::string prefix;  // stripped from member names to give operator names ("" to keep them)
    std::vector<int> members;  // node indices, ascending (= topological)
};

struct LayerGrouping {
    std::vector<GroupedLayer> layers;  // topological order
    std::vector<int> layerOf;          // per node
};

// `names[i]` and `predecessors[i]` (indices < i) describe node i of a topologically ordered DAG.
LayerGrouping groupOnnxLayers(const std::vector<std::string>& names,
                              const std::vector<std::vector<int>>& predecessors,
                              const std::string& graphName);

}  // namespace tandem::core::importers
