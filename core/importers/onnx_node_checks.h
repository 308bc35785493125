#pragma once
// Internal to the ONNX importer. What the ONNX library's shape inference (ONNX 1.12) assumes of a
// node's inputs without checking, and what it accepts although the graph is invalid, checked on
// the inputs' inferred types and known values right before the library sees the node
// (onnx_node_inference.h), in the main graph, every subgraph and every function body:
//  - convolutions (Conv, ConvTranspose, ConvInteger, QLinearConv): input and weight of one rank
//    >= 3, and per-axis attributes as long as the spatial rank — a weight of another rank makes
//    the library read past the weight's dims (SIGSEGV);
//  - DepthToSpace / SpaceToDepth: rank-4 input whose channels (height and width) the block size
//    divides; STFT: a rank-3 signal, scalar frame step and length, a rank-1 window — a lower
//    rank makes the library read dims that are not there (SIGSEGV);
//  - Reshape: the target has as many elements as the input (0 copies the input's dim unless
//    allowzero, one -1 is inferred); Transpose: perm is a permutation of 0..rank-1; Concat: the
//    axis is within the rank and the inputs agree on every other dim; Range: delta is not 0.
//    ONNX 1.12 infers shapes for these without complaint, or from out-of-range indices;
//  - element-wise operators with broadcasting: the inputs broadcast (ONNX says only
//    "Incompatible dimensions"; this names the inputs, their shapes and the dim).
// Unknown ranks, dims or values are not errors: they are checked once known.
#include <onnx/onnx_pb.h>

#include <optional>
#include <string>
#include <vector>

#include "core/importers/onnx_int_tensor.h"

namespace tandem::core::importers {

struct OnnxNodeInput {
    const onnx::TypeProto* type = nullptr;  // nullptr: unknown
    const OnnxIntTensor* value = nullptr;   // nullptr: not a known integer tensor
};

// The problem, worded to follow "node 'name' (Op): ", or nullopt when the node is fine.
std::optional<std::string> checkOnnxNodeInputs(const onnx::NodeProto& node,
                                               const std::vector<OnnxNodeInput>& inputs);

}  // namespace tandem::core::importers
