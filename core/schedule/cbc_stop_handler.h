#pragma once
// CBC calls this at every branch-and-bound node (and a few other points); it answers "stop" once
// the RunControl is cancelled or the wall-clock deadline has passed. CBC clones event handlers,
// so the handler holds only a pointer to the caller's RunControl and a time point.
#include <chrono>

#include <CbcEventHandler.hpp>

#include "core/common/run_control.h"

namespace tandem::core::schedule {

class CbcStopHandler : public CbcEventHandler {
public:
    CbcStopHandler(const RunControl* control, std::chrono::steady_clock::time_point deadline)
        : control_(control), deadline_(deadline) {}

    CbcAction event(CbcEvent whichEvent) override;
    CbcEventHandler* clone() const override { return new CbcStopHandler(*this); }

private:
    const RunControl* control_;
    std::chrono::steady_clock::time_point deadline_;
};

}  // namespace tandem::core::schedule
