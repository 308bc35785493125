#pragma once
// Internal to the ONNX importer: constant folding of the small integer tensors exporters compute
// shapes with. torch.onnx.export with dynamic axes writes a Reshape target as Shape → Gather →
// (Div, Cast) → Unsqueeze → Concat, a position index as Range(0, Cast(Gather(Shape))), a mask
// as Slice(buffer, 0, Unsqueeze(Gather(Shape))). Once a build binds every symbolic dimension,
// these are plain numbers: foldOnnxNode evaluates one such node from its inputs' values (and,
// for Shape and Size, their inferred dimensions) so that shape inference downstream sees real
// data (onnx_node_inference.h). Only integer and bool tensors of at most kMaxFoldedElements
// are folded; anything else (floats, large tensors, division by zero, out-of-range indices) is
// left unfolded, never guessed.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "core/importers/onnx_int_tensor.h"

namespace tandem::core::importers {

// What the folder knows about one node input: its value, or (for Shape and Size) its dims.
struct OnnxFoldInput {
    const OnnxIntTensor* value = nullptr;           // nullptr: not a known integer tensor
    std::optional<std::vector<std::int64_t>> dims;  // fully known dims, if any
};

// The values of `node`'s outputs, or nullopt when the node cannot be folded.
std::optional<std::vector<OnnxIntTensor>> foldOnnxNode(const onnx::NodeProto& node,
                                                       const std::vector<OnnxFoldInput>& inputs);

}  // namespace tandem::core::importers
