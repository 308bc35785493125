#pragma once
// Internal to the ONNX importer (not a public header: it includes the ONNX protobuf types, which
// need the ONNX_ML / ONNX_NAMESPACE definitions the importers library carries). The state an
// OnnxSource builds from, fixed at load time: the prepared model (initializers that are weights
// turned into typed graph inputs, so neither the checker nor shape inference needs their data)
// and the plan — which nodes become operators, in which layer, owning which parameters.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/common/expected.h"
#include "core/common/text_excerpt.h"
#include "core/importers/onnx_op_table.h"

namespace tandem::core::importers {

// The unknown-operator warning quotes each operator and its first node in at most
// kOperatorChars bytes and lists the first kOperatorsShown operators, then "and N more"
// (text_excerpt.h): a file with a thousand custom operators still gets a short warning.
inline constexpr std::size_t kOperatorChars = 60;
inline constexpr std::size_t kOperatorsShown = 5;

struct OnnxInitializer {
    std::vector<std::int64_t> dims;
    int dataType = 0;
    std::int64_t elements = 0;
    bool parameter = false;  // a floating-point weight with more than one element
};

// One node that becomes an operator (nodes folded away as static are not listed).
struct OnnxPlannedNode {
    int node = 0;                      // index into model.graph().node()
    int layer = 0;                     // index into OnnxPlan::layers
    std::string name;                  // operator name, unique within its layer
    const OnnxOpInfo* info = nullptr;  // nullptr: an unknown operator
    std::vector<int> producers;        // per node input: the planned node producing it, or -1
    std::vector<bool> staticInput;     // per node input: an initializer or folded value
    std::vector<bool> weightInput;     // per node input: derived from a weight
    std::int64_t ownedParameterElements = 0;  // first use of a weight
    std::int64_t tiedParameterElements = 0;   // a weight owned by another layer, used here too
};

struct OnnxPlannedLayer {
    std::string name;
    std::string kind;        // "block", "prologue", "epilogue" or "graph"
    std::vector<int> nodes;  // planned-node indices, topological order
};

// How a symbolic dimension name is bound at build time.
enum class SymbolRole { Batch, Sequence };

struct OnnxPlan {
    std::vector<int> order;                               // every graph node, topological order
    std::vector<OnnxPlannedNode> nodes;                   // topological order
    std::vector<OnnxPlannedLayer> layers;                 // topological order of the layer DAG
    std::unordered_map<std::string, SymbolRole> symbols;  // dim_param names on graph inputs
    bool symbolicBatch = false;
    bool symbolicSequence = false;
    std::int64_t fixedBatch = 1;  // without a symbolic batch: dim 0 of the first input
    std::string fixedBatchWhere;  // e.g. "input 'x' dimension 0"
    std::vector<std::string> unknownOperators;  // "com.example.FancyAct x2 (first: '/act/…')"
    int foldedNodes = 0;
};

struct OnnxImportState {
    std::string sourceName;  // the path, for messages
    std::string modelName;
    onnx::ModelProto model;  // prepared (see the summary above)
    std::unordered_map<std::string, OnnxInitializer> initializers;
    // Initializers that repeat an earlier one (tied weights, onnx_tied_weights.h): copy → original.
    std::unordered_map<std::string, std::string> weightAliases;
    OnnxPlan plan;
};

// Builds the plan: validates the graph (defined inputs, single producers, acyclic, known
// operators verified against their ONNX schema), folds static values, groups nodes into layers
// (onnx_layer_grouper.h), assigns weights to the operators that first use them, and reads the
// symbolic dimensions of the graph inputs. Errors name the file and the node or input.
Expected<OnnxPlan> planOnnxGraph(const OnnxImportState& state);

}  // namespace tandem::core::importers
