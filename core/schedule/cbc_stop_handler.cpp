#include "core/schedule/cbc_stop_handler.h"

namespace tandem::core::schedule {

CbcEventHandler::CbcAction CbcStopHandler::event(CbcEvent /*whichEvent*/) {
    if ((control_ && control_->cancelled()) || std::chrono::steady_clock::now() >= deadline_)
        return stop;
    return noAction;
}

}  // namespace tandem::core::schedule
