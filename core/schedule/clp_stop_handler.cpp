#include "core/schedule/clp_stop_handler.h"

namespace tandem::core::schedule {

int ClpStopHandler::event(Event whichEvent) {
    // Both after every iteration and after every factorization: on a large model (PHAZE's
    // O(n³) rows) a refactorization costs ~10 ms, and CBC re-solves several times after a stop;
    // ending each of those LPs before its first iteration keeps cancellation well under 200 ms.
    // Reading the clock costs a few tens of nanoseconds.
    if (whichEvent != endOfIteration && whichEvent != endOfFactorization) return -1;
    if ((control_ && control_->cancelled()) || std::chrono::steady_clock::now() >= deadline_) {
        if (interrupted_) interrupted_->store(true, std::memory_order_relaxed);
        return 0;  // Clp stops the solve with status 5 ("stopped by event")
    }
    return -1;
}

}  // namespace tandem::core::schedule
