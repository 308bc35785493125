#pragma once
// CBC polls its event handler only between nodes; a single LP (the root relaxation, strong
// branching, a heuristic's sub-solve) can run longer than the 200 ms cancellation promise. This
// handler sits in the Clp simplex and ends the current LP at the next iteration or factorization
// once the RunControl is cancelled or the deadline has passed, and raises `interrupted`: CBC may
// then have discarded a node whose LP it never finished, so neither its "optimal" nor its bound
// is trusted. Clones (CBC copies solvers freely) share the flag.
#include <atomic>
#include <chrono>

#include <ClpEventHandler.hpp>

#include "core/common/run_control.h"

namespace tandem::core::schedule {

class ClpStopHandler : public ClpEventHandler {
public:
    ClpStopHandler(const RunControl* control, std::chrono::steady_clock::time_point deadline,
                   std::atomic<bool>* interrupted)
        : control_(control), deadline_(deadline), interrupted_(interrupted) {}

    int event(Event whichEvent) override;
    ClpEventHandler* clone() const override { return new ClpStopHandler(*this); }

private:
    const RunControl* control_;
    std::chrono::steady_clock::time_point deadline_;
    std::atomic<bool>* interrupted_;
};

}  // namespace tandem::core::schedule
