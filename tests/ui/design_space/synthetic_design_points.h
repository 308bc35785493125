#pragma once
// Synthetic design-space points for the chart's tests and bench_design_space: fields cycle
// through PHAZE-like value lists (index order: chip-major, then microbatch, recompute, HBM) and
// throughput is a fixed pseudo-random function of the index, so the same index always yields the
// same point. About one point in seven is infeasible, with a message naming its HBM.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/search/evaluated_point.h"

namespace tandem::test {

inline core::search::EvaluatedPoint syntheticDesignPoint(std::int64_t index) {
    using core::search::PointStatus;
    constexpr std::int64_t kMiB = std::int64_t(1) << 20;
    constexpr std::int64_t kGiB = std::int64_t(1) << 30;
    core::search::EvaluatedPoint p;
    p.point.index = index;
    const std::int64_t chip = index / 24, option = index % 24;
    auto& a = p.point.accelerator;
    a.numTensorCores = std::int64_t(1) << (chip % 13);
    a.tensorCoreRows = std::int64_t(2) << ((chip / 13) % 8);
    a.tensorCoreCols = std::int64_t(2) << ((chip / 104) % 8);
    a.numVectorCores = std::int64_t(1) << ((chip / 832) % 13);
    a.vectorCoreLanes = a.tensorCoreCols;
    a.globalBufferBytes = (2 * kMiB) << ((chip / 10816) % 7);
    a.hbmCapacityBytes = std::array<std::int64_t, 3>{32 * kGiB, 64 * kGiB, 80 * kGiB}[option % 3];
    p.point.chipIndex = chip;
    p.point.microbatchSize = std::int64_t(1) << (option / 6);
    p.point.recompute =
        (option / 3) % 2 ? core::hardware::Recompute::On : core::hardware::Recompute::Off;
    std::uint64_t h = std::uint64_t(chip) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    p.point.areaSquareMillimetres = 84.0 + double(h % 19500) / 100.0;
    std::uint64_t g = std::uint64_t(index + 1) * 0xBF58476D1CE4E5B9ull;
    g ^= g >> 31;
    const bool fits = (g % 7) != 0;
    p.status = fits ? PointStatus::Feasible : PointStatus::Infeasible;
    if (fits) {
        p.throughputSamplesPerSecond =
            5.0 + double(g % 100000) / 100.0 * (p.point.areaSquareMillimetres / 280.0);
        p.objective = p.throughputSamplesPerSecond;
        p.baselineThroughputSamplesPerSecond = p.throughputSamplesPerSecond * 0.7;
    } else {
        p.message = "does not fit in " + std::to_string(a.hbmCapacityBytes >> 30) + " GiB of HBM";
    }
    return p;
}

// Points first, first + 1, …, first + count − 1.
inline std::vector<core::search::EvaluatedPoint> syntheticDesignBatch(std::int64_t first,
                                                                      std::int64_t count) {
    std::vector<core::search::EvaluatedPoint> out;
    out.reserve(std::size_t(count));
    for (std::int64_t i = first; i < first + count; ++i) out.push_back(syntheticDesignPoint(i));
    return out;
}

}  // namespace tandem::test
