#pragma once
// Starting a task on a QThreadPool so that ThreadSanitizer sees the hand-off. Debian's Qt is not
// built with TSan, and QThreadPool passes a task to its worker under a futex-based QMutex that
// TSan cannot see: to TSan, the worker then reads the task's captures (written by the caller)
// with no ordering, and it reports a race that cannot happen (tests/sanitizers/tsan.supp). The
// caller releases, and the worker acquires, one synchronisation address around the hand-off;
// outside TSan builds this is QThreadPool::start.
#include <QThreadPool>
#include <functional>

namespace tandem::ui {

void startOnPool(QThreadPool& pool, std::function<void()> task);

}  // namespace tandem::ui
