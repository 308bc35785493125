#pragma once
// Internal to the ONNX importer: one planned node plus the inferred shapes of one build → one
// model::Operator (class, kind, GEMM dimensions or vector work, cycles per element, HBM streams,
// output and saved bytes, backward rule). The caller fills in `inputs` and the parameter bytes.
// GEMM lowering:
//  - MatMul A[…, M, K]·B[…, K, N]: with a 1- or 2-D B (a shared weight) the leading dims of A
//    fold into m (batch 1, m = ∏A[:-1]); otherwise batch = ∏ of the broadcast leading dims.
//  - Gemm: 2-D, honouring transA/transB (its bias is part of the GEMM).
//  - Conv X[N, C, …]·W[Cout, C/g, kernel…] → Y[N, Cout, out…]: batch = g, m = N·∏out,
//    n = Cout/g, k = C/g·∏kernel. ConvTranspose: batch = g, m = N·∏in, n = Cout/g·∏kernel,
//    k = C/g.
// A GEMM with a weight (or other constant) operand derives dX and dW backward GEMMs; one of two
// activations derives dA and dB. Vector ops: elements from the output (element-wise) or the
// first input (norms, softmax, reductions, pooling); streamed tensors count the full-size
// activation inputs plus the output; an Add of a weight is a bias add, of two full-size
// activations a residual add (vector_op_costs.h). Errors name the node and the tensor whose
// shape is missing or inconsistent.
#include <cstdint>

#include "core/common/expected.h"
#include "core/importers/onnx_import_state.h"
#include "core/importers/onnx_shape_inference.h"
#include "core/model/operator.h"

namespace tandem::core::importers {

Expected<model::Operator> mapOnnxOperator(const OnnxImportState& state,
                                          const OnnxPlannedNode& planned, const OnnxShapes& shapes,
                                          std::int64_t bytesPerElement);

}  // namespace tandem::core::importers
