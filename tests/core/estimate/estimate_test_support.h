#pragma once
// Shared helpers of the estimator tests: random chips from PHAZE's search space
// (SearchSpace::phaze(), ARCHITECTURE.md §2.9), random GEMM shapes and operator builders.
// Deterministic seeds, so a failure reproduces.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "core/hardware/accelerator_config.h"
#include "core/model/operator.h"

namespace tandem::test {

namespace hw = tandem::core::hardware;
namespace md = tandem::core::model;

inline std::int64_t powerOfTwo(std::mt19937_64& rng, int minExp, int maxExp) {
    return std::int64_t(1) << std::uniform_int_distribution<int>(minExp, maxExp)(rng);
}

// Log-uniform integer in [lo, hi].
inline std::int64_t logUniform(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
    std::uniform_real_distribution<double> u(std::log(double(lo)), std::log(double(hi) + 1));
    const auto v = std::int64_t(std::exp(u(rng)));
    return v < lo ? lo : (v > hi ? hi : v);
}

// PHAZE's space: 1..4096 cores, arrays of 2..256 × 2..256, GLB 2..128 MiB, plus HBM bandwidths
// from a slow 100 GB/s to 4 TB/s so that both sides of the roofline are exercised.
// PHAZE's formulas: the ideal chip (efficiencies 1, no overheads).
inline hw::AcceleratorConfig randomChip(std::mt19937_64& rng) {
    hw::AcceleratorConfig a = hw::AcceleratorConfig{}.ideal();
    a.numTensorCores = powerOfTwo(rng, 0, 12);
    a.tensorCoreRows = powerOfTwo(rng, 1, 8);
    a.tensorCoreCols = powerOfTwo(rng, 1, 8);
    a.numVectorCores = powerOfTwo(rng, 0, 12);
    a.vectorCoreLanes = powerOfTwo(rng, 1, 8);
    a.globalBufferBytes = powerOfTwo(rng, 21, 27);
    a.hbmBandwidthBytesPerSecond =
        std::exp(std::uniform_real_distribution<double>(std::log(1e11), std::log(4e12))(rng));
    return a;
}

inline md::Operator gemmOp(std::int64_t batch, std::int64_t m, std::int64_t n, std::int64_t k) {
    md::Operator op;
    op.name = "gemm";
    op.kind = "linear";
    op.opClass = md::OpClass::TensorCore;
    op.gemm = {batch, m, n, k};
    return op;
}

inline md::Operator randomGemm(std::mt19937_64& rng) {
    return gemmOp(logUniform(rng, 1, 64), logUniform(rng, 1, 65536), logUniform(rng, 1, 65536),
                  logUniform(rng, 1, 65536));
}

inline md::Operator vectorOp(std::int64_t elements, double cyclesPerElement,
                             std::int64_t streamedTensors) {
    md::Operator op;
    op.name = "vec";
    op.kind = "softmax";
    op.opClass = md::OpClass::VectorCore;
    op.elements = elements;
    op.cyclesPerElement = cyclesPerElement;
    op.streamedTensors = streamedTensors;
    return op;
}

inline md::Operator allReduceOp(std::int64_t bytes, std::int64_t groupSize) {
    md::Operator op;
    op.name = "allreduce";
    op.kind = "all_reduce";
    op.opClass = md::OpClass::Collective;
    op.collectiveBytes = bytes;
    op.groupSize = groupSize;
    return op;
}

inline std::string describe(const hw::AcceleratorConfig& a, const md::GemmShape& g) {
    return "chip " + std::to_string(a.numTensorCores) + "x" + std::to_string(a.tensorCoreRows) +
           "x" + std::to_string(a.tensorCoreCols) + " glb " + std::to_string(a.globalBufferBytes) +
           " bw " + std::to_string(a.hbmBandwidthBytesPerSecond) + "; gemm " +
           std::to_string(g.batch) + "x" + std::to_string(g.m) + "x" + std::to_string(g.n) + "x" +
           std::to_string(g.k);
}

}  // namespace tandem::test
