#include "ui/jobs/pool_handoff.h"

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace tandem::ui {

namespace {

#if defined(__SANITIZE_THREAD__)
char handoff;  // only its address is used: TSan's synchronisation object for every hand-off
void releaseHandoff() {
    __tsan_release(&handoff);
}
void acquireHandoff() {
    __tsan_acquire(&handoff);
}
#else
void releaseHandoff() {}
void acquireHandoff() {}
#endif

}  // namespace

void startOnPool(QThreadPool& pool, std::function<void()> task) {
    // The wrapper's capture is written here, before the release; the worker acquires before it
    // reads the capture.
    std::function<void()> wrapped = [task = std::move(task)] {
        acquireHandoff();
        task();
    };
    releaseHandoff();
    pool.start(std::move(wrapped));
}

}  // namespace tandem::ui
