#pragma once
// The graph form of a native model file after parsing and before building: every operator's
// sizes are SizeExpressions over b, s, t, e, inputs are resolved to indices (in topological
// order), and every value remembers its JSON path so that build errors point into the file.
// GraphSource turns one of these into a ModelGraph per set of build options.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/model_graph.h"
#include "core/model/operator.h"
#include "core/model/size_expression.h"

namespace tandem::core::model {

// The integer fields of an operator, in file order; kOperatorSizeKeys gives their JSON keys.
enum class OperatorSize {
    Batch,
    M,
    N,
    K,
    Elements,
    StreamedTensors,
    BackwardStreamedTensors,
    CollectiveBytes,
    ParameterBytes,
    TiedParameterBytes,
    OutputBytes,
    SavedBytes,
    DiscardedBytes,
    StreamedBytes,
    Count
};
inline constexpr std::size_t kOperatorSizeCount = std::size_t(OperatorSize::Count);
inline constexpr std::array<std::string_view, kOperatorSizeCount> kOperatorSizeKeys{
    "batch",
    "m",
    "n",
    "k",
    "elements",
    "streamed_tensors",
    "backward_streamed_tensors",
    "collective_bytes",
    "parameter_bytes",
    "tied_parameter_bytes",
    "output_bytes",
    "saved_bytes",
    "discarded_bytes",
    "streamed_bytes"};
inline constexpr std::array<std::int64_t, kOperatorSizeCount> kOperatorSizeDefaults{
    1, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0};

// Cycles per element may be fractional: a plain number, or an integer expression. At most a
// million: far above the costliest element-wise operator (tens of cycles for exp or erf), low
// enough that latencies stay finite for the largest operator and the slowest allowed clock.
inline constexpr double kMaxCyclesPerElement = 1e6;

struct CyclesTemplate {
    double number = 0;
    std::optional<SizeExpression> expression;
};

struct OperatorTemplate {
    std::string path;  // e.g. "layers[3].operators[2]"
    std::string name;
    std::string kind;
    OpClass opClass = OpClass::Nop;
    BackwardRule backwardRule = BackwardRule::None;
    bool sharded = false;
    CollectiveKind collective = CollectiveKind::AllReduce;
    bool selectiveRecompute = false;
    std::array<SizeExpression, kOperatorSizeCount> sizes;
    CyclesTemplate cyclesPerElement;
    CyclesTemplate backwardCyclesPerElement;
    std::vector<int> inputs;
};

struct LayerTemplate {
    std::string path;  // "layers[3]"
    std::string name;
    std::string kind;
    bool tensorParallel = false;
    int sameAs = -1;  // index of an earlier layer whose operators this one repeats
    std::vector<OperatorTemplate> operators;
};

struct EdgeTemplate {
    std::string path;  // "edges[2]"
    int from = 0;
    int to = 0;
    SizeExpression bytes;
};

struct GraphTemplate {
    std::string name;
    std::string description;
    std::int64_t defaultSequence = 1;
    std::vector<std::int64_t> tensorParallelWidths{1};
    // A graph exported with numbers for one build only accepts those options.
    std::optional<BuildOptions> builtFor;
    std::vector<LayerTemplate> layers;
    std::vector<EdgeTemplate> edges;
};

// Reorders a layer's operators (whose inputs form a DAG) into topological order, remapping the
// inputs. Files may list operators in any order; LayerGraph needs producers before consumers.
// Kahn's algorithm taking the lowest position first leaves an already ordered list unchanged.
void sortTopologically(std::vector<OperatorTemplate>& operators);

}  // namespace tandem::core::model
