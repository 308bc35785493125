#pragma once
// Internal to the ONNX importer. The ONNX library's shape inference trusts some attribute values
// it does not validate (a zero stride divides by zero in the convolution and pooling inference
// of ONNX 1.12, killing the process with SIGFPE, and so does a DepthToSpace blocksize of 2^32,
// whose square is 0 in 64 bits), so the importer checks those values itself (between their
// minimum and 2^31 − 1), in every node of the main graph, its subgraphs and the model's
// functions, before inference runs. Checks that need the inputs' shapes are in
// onnx_node_checks.h. Found by the loader fuzz test (tests/core/importers/test_importers_fuzz.cpp)
// and issue 12; extend the list when another turns up. Errors name the node, the attribute and
// its value.
#include <onnx/onnx_pb.h>

#include "core/common/expected.h"

namespace tandem::core::importers {

Status checkOnnxAttributes(const onnx::ModelProto& model);

}  // namespace tandem::core::importers
