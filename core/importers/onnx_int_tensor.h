#pragma once
// Internal to the ONNX importer: the small integer and bool tensors that shapes are computed
// with (onnx_shape_folding.h), read from and written to TensorProtos, and the check that a
// TensorProto carries all of its data. The wire reader (onnx_wire_reader.h) skips large
// payloads, so an initializer or Constant may have dims without data; only complete tensors are
// ever read or shown to the ONNX library.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tandem::core::importers {

// The most elements a folded tensor may have: shape tensors are tiny, and masks or position
// indices beyond this size only need their shape, which inference gets without their values.
inline constexpr std::int64_t kMaxFoldedElements = 1024;

// An integer or bool tensor with its values widened to int64 (bool: 0 or 1).
struct OnnxIntTensor {
    int dataType = onnx::TensorProto::INT64;
    std::vector<std::int64_t> dims;
    std::vector<std::int64_t> values;
};

bool isOnnxIntegerType(int dataType);

// The element count of a tensor of these dims when it is at most kMaxFoldedElements; nullopt for
// negative dims or a larger count (checked without overflow).
std::optional<std::int64_t> foldableElementCount(const std::vector<std::int64_t>& dims);

// `value` converted to the range of an integer `dataType` (wrapping, as a C cast does; bool is
// 0 or 1).
std::int64_t normalizeOnnxInt(int dataType, std::int64_t value);

// Whether `tensor` carries all of its data inline (its payload matches its dims and type), so
// that the ONNX library may read it. Payloads the wire reader skipped or external data are not.
bool hasCompleteOnnxData(const onnx::TensorProto& tensor);

// The value of a complete integer/bool tensor of at most kMaxFoldedElements, else nullopt.
std::optional<OnnxIntTensor> readOnnxIntTensor(const onnx::TensorProto& tensor);
onnx::TensorProto toOnnxTensor(const OnnxIntTensor& tensor, const std::string& name);

}  // namespace tandem::core::importers
