#include "core/search/point_placement_request.h"

namespace tandem::core::search {

placement::ModelPlacementRequest placementRequestFor(const SearchRequest& request,
                                                     const SearchPoint& point, std::size_t model) {
    placement::ModelPlacementRequest out;
    out.model = request.models.at(model);
    out.hardware = request.space.base;
    out.hardware.accelerator = point.accelerator;
    out.hardware.name = "chip of point " + std::to_string(point.index);
    out.hardware.description.clear();
    out.training = request.training;
    out.training.microbatch = point.microbatchSize;
    out.training.recompute = point.recompute;
    out.widths = request.space.widthsFor(*out.model);
    out.costModel = request.costModel;
    out.scheduleOptions = request.scheduleOptions;
    return out;
}

}  // namespace tandem::core::search
