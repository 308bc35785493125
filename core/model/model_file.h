#pragma once
// The native model file (JSON, documented in resources/models/README.md):
//   {"format": "tandem-model", "version": 1, "name": …, "description": …, and EITHER
//    "transformer": {spec fields}                       (a parametric transformer) OR
//    "layers": [...], "edges": [...], "default_sequence", "tensor_parallel_widths",
//    "built_for"                                        (any layer DAG of operators)}
// Sizes in the graph form may be numbers or expressions over b, s, t, e (SizeExpression).
// Errors name the source, the JSON path (e.g. layers[3].operators[2].m), the value and what is
// allowed. The writers produce files the reader accepts: a transformer spec round-trips exactly,
// and a built ModelGraph is written in numeric form (valid only for the options it was built
// with, recorded in "built_for") and rebuilds to an identical graph.
#include <string>
#include <string_view>

#include "core/common/expected.h"
#include "core/model/model_graph.h"
#include "core/model/model_source.h"
#include "core/model/transformer_spec.h"

namespace tandem::core::model {

// `sourceName` (a path or "models/gpt2-xl.json") prefixes every error message.
Expected<ModelSourcePtr> parseModelJson(std::string_view text, const std::string& sourceName);

std::string transformerToJson(const TransformerSpec& spec);
std::string graphToJson(const ModelGraph& graph);

}  // namespace tandem::core::model
