#pragma once
// What the search tests (core, CLI-free runs and the GUI's jobs) share: byte units, a zoo model
// or a grid that must exist (a failure here is a broken fixture, so it stops the test).
#include <QtGlobal>
#include <cstdint>

#include "core/model/model_zoo.h"
#include "core/search/search_grid.h"

namespace search_test {

constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

inline tandem::core::model::ModelSourcePtr zoo(const char* name) {
    auto m = tandem::core::model::zooModel(name);
    if (!m) qFatal("%s", m.message().c_str());
    return *m;
}

inline tandem::core::search::SearchGrid gridOf(const tandem::core::search::SearchSpace& space) {
    auto grid = tandem::core::search::SearchGrid::create(space);
    if (!grid) qFatal("%s", grid.message().c_str());
    return std::move(grid).value();
}

}  // namespace search_test
