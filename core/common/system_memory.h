#pragma once
// How much memory a computation starting now can take (ARCHITECTURE.md §2.9, the size of a
// search): the smaller of what the system can give without swapping — MemAvailable of
// /proc/meminfo (Linux), else the free physical pages, sysconf(_SC_AVPHYS_PAGES) — and what
// this process's soft limits (RLIMIT_AS, RLIMIT_DATA; e.g. `ulimit -v`, a batch system's memory
// limit) leave above what it already maps (VmSize, VmData of /proc/self/status). -1 when none of
// these can be read.
#include <cstdint>

namespace tandem::core {

std::int64_t availableMemoryBytes();

}  // namespace tandem::core
