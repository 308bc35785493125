#pragma once
// What the search tests (core, CLI-free runs and the GUI's jobs) share: byte units, a zoo model
// or a grid that must exist (a failure here is a broken fixture, so it stops the test).
#include <QtGlobal>
#include <cstdint>

#include "core/model/model_zoo.h"
#include "core/search/search_grid.h"
#include "core/search/search_space.h"

namespace search_test {

constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

inline tandem::core::model::ModelSourcePtr zoo(const char* name) {
    auto m = tandem::core::model::zooModel(name);
    if (!m) qFatal("%s", m.message().c_str());
    return *m;
}

// A reduced PHAZE space that contains the reference chip (8 TC 128×128, 2 VC, 128 MiB): 24 chips
// × 2 microbatch sizes × 2 HBM sizes × 2 recompute settings.
inline tandem::core::search::SearchSpace smallReferenceSpace() {
    using tandem::core::hardware::Recompute;
    auto s = tandem::core::search::SearchSpace::phaze();
    s.name = "test";
    s.numTensorCores = {4, 8, 16};
    s.tensorCoreRows = {64, 128};
    s.tensorCoreCols = {128};
    s.numVectorCores = {2, 4};
    s.globalBufferBytes = {32 * kMiB, 128 * kMiB};
    s.microbatchSizes = {1, 2};
    s.hbmCapacityBytes = {16 * kGiB, 32 * kGiB};
    s.recompute = {Recompute::Off, Recompute::On};
    return s;
}

// A hand-sized space around PHAZE's: 1–8 tensor cores of 128×128, 1–2 vector cores, 2 MiB of
// buffer, in a 100 mm² budget (areas small enough to sum by hand).
inline tandem::core::search::SearchSpace handSpace() {
    auto s = tandem::core::search::SearchSpace::phaze();
    s.numTensorCores = {1, 2, 4, 8};
    s.tensorCoreRows = {128};
    s.tensorCoreCols = {128};
    s.numVectorCores = {1, 2};
    s.globalBufferBytes = {2 * kMiB};
    s.areaBudgetSquareMillimetres = 100;
    return s;
}

inline tandem::core::search::SearchGrid gridOf(const tandem::core::search::SearchSpace& space) {
    auto grid = tandem::core::search::SearchGrid::create(space);
    if (!grid) qFatal("%s", grid.message().c_str());
    return std::move(grid).value();
}

// The message of a failed Expected or Status, for QVERIFY2 ("" when it succeeded).
template <typename E>
const char* why(const E& e) {
    return e.ok() ? "" : e.message().c_str();
}

}  // namespace search_test
