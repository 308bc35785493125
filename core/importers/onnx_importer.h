#pragma once
// Imports an ONNX model file as a ModelSource (OnnxSource), without ever reading its weights:
// the file's structure is read by readOnnxStructure (onnx_wire_reader.h: tensor payloads are
// seeked over, external-data files are never opened, files beyond protobuf's 2 GB limit work),
// parsed as an onnx::ModelProto, checked for unknown element types (onnx_type_checks.h),
// attribute values the ONNX library cannot take (onnx_attribute_checks.h) and recursive
// model-local functions (onnx_local_functions.h), its weight initializers turned into typed
// graph inputs, every node checked (defined inputs, one producer per tensor, acyclic, known
// operators verified against their ONNX schema), and planned into layers
// (onnx_layer_grouper.h). Unknown operators are costed as one-cycle-per-element vector work and
// listed in the warnings. The source is built once with the default options so that shape
// problems (onnx_node_checks.h, onnx_node_inference.h) surface here.
// Errors (truncated or corrupt files, cycles, undefined tensors, unbindable symbolic dims,
// invalid or crashing inputs, shapes that cannot be inferred) name the file and the node or
// tensor, and the value at fault.
#include <filesystem>

#include "core/common/expected.h"
#include "core/importers/loaded_model.h"

namespace tandem::core::importers {

Expected<LoadedModel> importOnnxModel(const std::filesystem::path& path);

}  // namespace tandem::core::importers
