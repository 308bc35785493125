#pragma once
// Internal to the ONNX importer. The ONNX library's shape inference trusts some attribute values
// it does not validate (a zero stride divides by zero in the convolution and pooling inference
// of ONNX 1.12, killing the process with SIGFPE), so the importer checks those values itself, in
// every node of the main graph, its subgraphs and the model's functions, before inference runs.
// Found by the loader fuzz test (tests/core/importers/test_importers_fuzz.cpp); extend the list
// when it finds another. Errors name the node, the attribute and its value.
#include <onnx/onnx_pb.h>

#include "core/common/expected.h"

namespace tandem::core::importers {

Status checkOnnxAttributes(const onnx::ModelProto& model);

}  // namespace tandem::core::importers
