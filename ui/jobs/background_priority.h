#pragma once
// Background work (single-point evaluations, searches) runs at a lower scheduling priority than
// the GUI thread so that a search that keeps every core busy cannot starve the event loop: the
// window stays responsive even on a machine with two cores. On Linux the nice value is per
// thread and inherited by threads the caller creates afterwards, so a search driver that lowers
// its own priority before it builds its core::search::ThreadPool lowers every worker of that
// pool too. Elsewhere this is a no-op (QThread priorities do not affect SCHED_OTHER threads).
namespace tandem::ui {

// Lowers the calling thread's priority to the background level; idempotent, never fails loudly
// (an environment that forbids it simply keeps the normal priority).
void lowerCurrentThreadPriority();

}  // namespace tandem::ui
