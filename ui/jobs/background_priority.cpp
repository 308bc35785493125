#include "ui/jobs/background_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cerrno>
#endif

namespace tandem::ui {

namespace {
// Enough below the GUI thread that it wins every contended time slice, yet not idle priority,
// so a search on an otherwise idle machine still uses the cores fully.
constexpr int kBackgroundNice = 10;
}  // namespace

void lowerCurrentThreadPriority() {
#if defined(__linux__)
    // On Linux PRIO_PROCESS with a thread id addresses that single thread.
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    errno = 0;
    const int current = ::getpriority(PRIO_PROCESS, tid);
    if (errno == 0 && current < kBackgroundNice) ::setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

}  // namespace tandem::ui
