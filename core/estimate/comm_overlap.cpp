#include "core/estimate/comm_overlap.h"

#include <algorithm>

namespace tandem::core::estimate {

Overlap pipelinedOverlap(double comm, double compute, std::int64_t chunks, double computeShare,
                         bool firstChunkLocal) {
    if (!(comm > 0)) return {};
    const double g = std::max(0.0, compute);
    double exposed = comm;
    if (chunks == kConcurrent) {
        exposed = std::max(0.0, comm - g);
    } else if (chunks > 1) {
        const double k = double(chunks);
        exposed = std::max(firstChunkLocal ? 0.0 : comm / k, comm - g * (k - 1.0) / k);
    }
    const double hidden = comm - exposed;
    const double contention = hidden * std::clamp(computeShare, 0.0, 1.0);
    return {exposed + contention, hidden - contention};
}

}  // namespace tandem::core::estimate
