#pragma once
// Tied weights in exported ONNX files. A weight two modules share (GPT-2's token embedding and
// LM head) is stored twice by torch.onnx.export when one use needs it transposed: the
// embedding's Gather reads `wte.weight` [V, d], the head's MatMul a constant-folded copy
// `onnx::MatMul_342` [d, V]. Counting both adds V·d parameters the model does not have.
//
// A 2-D floating-point initializer whose raw data was skipped is a tied copy of an earlier one
// when its dimensions are swapped (or equal) and its values are the other's transposed (or the
// same): candidates are matched on their first row against the other's first column (or row),
// at most 16 values, then confirmed on 64 pseudo-random positions. Only those bytes are read,
// never a whole tensor, so large files stay cheap. A tensor whose sampled values are all equal
// (zero-initialised, untrained) is never called tied: sampling cannot tell copies apart there.
#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/importers/onnx_wire_reader.h"

namespace tandem::core::importers {

// Returns copy name → the name of the earlier initializer it repeats. `dims` gives each
// parameter initializer's dimensions; payloads of other tensors are ignored. A file that cannot
// be read again yields no ties (the weights are then counted as stored).
std::unordered_map<std::string, std::string> findTiedWeights(
    const std::filesystem::path& file, const std::vector<OnnxRawPayload>& payloads,
    const std::unordered_map<std::string, std::vector<std::int64_t>>& dims);

}  // namespace tandem::core::importers
