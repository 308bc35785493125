#pragma once
// A lane is one execution resource of the chip as a Gantt chart shows it: tensor core i ("TC3"),
// vector core j ("VC0") or the device's single network link ("LINK"). Schedules store lanes as
// ranges so that an intra-operator-parallel operator on a 4096-core chip costs two entries, not
// 8192; expandLanes() lists them one by one for display and export.
#include <string>
#include <vector>

namespace tandem::core::schedule {

enum class LaneKind { TensorCore, VectorCore, Link };

struct Lane {
    LaneKind kind = LaneKind::TensorCore;
    int index = 0;
    bool operator==(const Lane&) const = default;
};

// Lanes first, first + 1, …, first + count − 1 of one kind.
struct LaneRange {
    LaneKind kind = LaneKind::TensorCore;
    int first = 0;
    int count = 1;
    bool operator==(const LaneRange&) const = default;
};

// "TC0", "VC3", "LINK".
std::string toString(Lane lane);

std::vector<Lane> expandLanes(const std::vector<LaneRange>& ranges);

}  // namespace tandem::core::schedule
