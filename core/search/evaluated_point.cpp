#include "core/search/evaluated_point.h"

namespace tandem::core::search {

std::string_view toString(PointStatus status) {
    switch (status) {
        case PointStatus::Feasible:
            return "feasible";
        case PointStatus::Infeasible:
            return "infeasible";
        case PointStatus::Error:
            return "error";
        case PointStatus::Cancelled:
            return "cancelled";
    }
    return "unknown";
}

}  // namespace tandem::core::search
