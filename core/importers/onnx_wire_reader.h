#pragma once
// Reads the structure of an ONNX file without reading its weights. The file is walked as raw
// protobuf wire format with 64-bit offsets (so files beyond protobuf's 2 GB message limit are
// fine) and re-encoded as a smaller ModelProto: every field is copied except the payloads of
// tensors (initializers, Constant/attribute tensors, sparse tensors, in the main graph, in
// subgraphs, functions and training graphs), which are skipped with a seek — never read —
// unless they are tiny. Kept: payloads of at most `keepAnyPayloadBytes` (scalars, Resize
// scales) and integer/bool payloads of at most `keepIntegerPayloadBytes` (Reshape shapes, Split
// sizes, indices), because ONNX shape inference needs those values. Everything else about a
// tensor (name, dims, data type, external-data references) is kept, so parameter counts come
// from shapes. External data files are never opened. Malformed input (truncation, bad varints,
// lengths past the end, nesting deeper than `maxDepth`, a structure above `maxStructureBytes`)
// is an Error naming the file and the byte offset.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/common/expected.h"

namespace tandem::core::importers {

struct OnnxWireLimits {
    std::int64_t keepAnyPayloadBytes = 256;
    std::int64_t keepIntegerPayloadBytes = std::int64_t(64) << 10;
    std::int64_t maxStructureBytes = std::int64_t(256) << 20;
    int maxDepth = 48;
};

// Where the skipped raw_data of one initializer of the main graph lies in the file, so that a
// few of its values can be read later without loading it (onnx_tied_weights.h).
struct OnnxRawPayload {
    std::string name;
    std::int64_t dataType = 0;
    std::int64_t offset = 0;  // absolute byte offset of the first element
    std::int64_t bytes = 0;
};

struct OnnxStructure {
    std::string bytes;  // a serialized onnx.ModelProto without big payloads
    std::int64_t fileBytes = 0;
    std::int64_t skippedPayloadBytes = 0;             // tensor data seeked over, never read
    std::vector<OnnxRawPayload> initializerPayloads;  // main-graph initializers, skipped raw_data
};

Expected<OnnxStructure> readOnnxStructure(const std::filesystem::path& path,
                                          const OnnxWireLimits& limits = {});

}  // namespace tandem::core::importers
