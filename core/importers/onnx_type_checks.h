#pragma once
// Internal to the ONNX importer: every tensor element type a model declares — on graph inputs,
// outputs and value_info, initializers (dense and sparse), tensor attributes (Constant values,
// ConstantOfShape fills) and the `to` of Cast, in the main graph, its subgraphs and its
// functions — must be one ONNX 1.12 knows (TensorProto.DataType 1..16). 0 (UNDEFINED) and
// unknown numbers would otherwise flow into shape inference and the byte counts unnoticed.
// Errors name the tensor (or node and attribute), the value and what is allowed.
#include <onnx/onnx_pb.h>

#include "core/common/expected.h"

namespace tandem::core::importers {

Status checkOnnxElementTypes(const onnx::ModelProto& model);

}  // namespace tandem::core::importers
