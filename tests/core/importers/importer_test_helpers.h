#pragma once
// Small helpers the importer tests share: where the ONNX test files are, build options for a
// microbatch and sequence length, a GEMM shape, and a substring test for error messages.
#include <cstdint>
#include <string>

#include "core/model/model_graph.h"
#include "core/model/operator.h"
#include "test_paths.h"

namespace importer_test {

inline std::string onnxPath(const std::string& name) {
    return tandem::test::testDataDir() + "/importers/onnx/" + name;
}

inline tandem::core::model::BuildOptions options(std::int64_t b, std::int64_t s) {
    tandem::core::model::BuildOptions o;
    o.microbatch = b;
    o.sequenceLength = s;
    return o;
}

inline tandem::core::model::GemmShape gemm(std::int64_t batch, std::int64_t m, std::int64_t n,
                                           std::int64_t k) {
    return {batch, m, n, k};
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace importer_test
