#pragma once
// Internal to the ONNX importer: the element-wise ONNX operators on small integer tensors that
// shape computations use (onnx_shape_folding.h) — Add, Sub, Mul, Div (truncating, as ONNX's
// integer Div), Mod (fmod or the divisor's sign), Min, Max, Equal, Less(OrEqual),
// Greater(OrEqual), And, Or, Xor, Not, Neg, Abs, Where — with numpy broadcasting, and Expand's
// broadcast to a shape. Results that overflow, divisions by zero, shapes that do not broadcast
// and results beyond kMaxFoldedElements give nullopt.
#include <optional>
#include <string>
#include <vector>

#include "core/importers/onnx_int_tensor.h"

namespace tandem::core::importers {

std::optional<OnnxIntTensor> foldOnnxElementwise(const std::string& op,
                                                 const std::vector<const OnnxIntTensor*>& args,
                                                 bool fmod);

std::optional<OnnxIntTensor> broadcastOnnxInts(const OnnxIntTensor& data,
                                               const std::vector<std::int64_t>& dims);

}  // namespace tandem::core::importers
