#include "core/schedule/lane.h"

namespace tandem::core::schedule {

std::string toString(Lane lane) {
    switch (lane.kind) {
        case LaneKind::TensorCore:
            return "TC" + std::to_string(lane.index);
        case LaneKind::VectorCore:
            return "VC" + std::to_string(lane.index);
        case LaneKind::Link:
            return "LINK";
    }
    return "?";
}

std::vector<Lane> expandLanes(const std::vector<LaneRange>& ranges) {
    std::vector<Lane> lanes;
    for (const LaneRange& range : ranges)
        for (int i = 0; i < range.count; ++i) lanes.push_back(Lane{range.kind, range.first + i});
    return lanes;
}

}  // namespace tandem::core::schedule
