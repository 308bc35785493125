#pragma once
// Internal to the ONNX importer. Binds the symbolic dimensions of the prepared model to one
// build's microbatch and sequence length (names classified at load time, see OnnxPlan::symbols;
// other symbolic names on outputs and value_info are cleared and re-inferred), infers every
// node's output types in topological order (onnx_node_inference.h: the library's per-operator
// inference behind Tandem's checks, with shape tensors folded to values so that Reshape targets
// computed from Shape → Gather → Concat resolve), and returns every tensor of the main graph
// whose shape is then fully known. Errors name the file, the node and, for files with symbolic
// dimensions, the microbatch and sequence length they were found at.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/common/expected.h"
#include "core/importers/onnx_import_state.h"

namespace tandem::core::importers {

struct OnnxTensorShape {
    int dataType = 0;  // onnx::TensorProto::DataType
    std::vector<std::int64_t> dims;
    std::int64_t elements = 0;
};

using OnnxShapes = std::unordered_map<std::string, OnnxTensorShape>;

Expected<OnnxShapes> inferOnnxShapes(const OnnxImportState& state, std::int64_t batch,
                                     std::int64_t sequence);

// Bytes of one element when the tensor is stored in the build's precision: floating-point
// tensors take `bytesPerElement`, others their natural size.
std::int64_t onnxElementBytes(int dataType, std::int64_t bytesPerElement);
bool isOnnxFloatType(int dataType);

}  // namespace tandem::core::importers
