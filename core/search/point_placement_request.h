#pragma once
// The placement request that reproduces one point of a search (ARCHITECTURE.md §2.9): model
// `model` of the request, the space's base hardware (cluster included) with the point's
// accelerator, the request's training at the point's microbatch size and recompute setting, the
// tensor-parallel widths the space gives that model, and the request's cost model and schedule
// options. placeModel() on it finds the point's plan, the one the search ranked: the app shows
// it when a design-space point is selected, and "Use as set-up" starts from it.
#include <cstddef>
#include <string>

#include "core/placement/model_placement.h"
#include "core/search/search_point.h"
#include "core/search/search_run.h"

namespace tandem::core::search {

// `model` must index request.models. The hardware is named "chip of point <index>".
placement::ModelPlacementRequest placementRequestFor(const SearchRequest& request,
                                                     const SearchPoint& point,
                                                     std::size_t model = 0);

}  // namespace tandem::core::search
