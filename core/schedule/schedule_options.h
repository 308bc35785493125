#pragma once
// How LayerScheduler solves: which MILP formulation, how long CBC may run, which optimality gap
// is good enough, how many CBC threads, how many CBC nodes and whether to consult the result cache.
// The defaults give proven-optimal schedules; validate() reports out-of-range fields by name.
#include <string_view>

#include "core/common/expected.h"

namespace tandem::core::schedule {

enum class Formulation {
    Fast,  // series blocks; bounds → list heuristics → exact state-space search → compact
           // warm-started MILP
    Reference,  // PHAZE's ILP: all ordered pairs, O(n³) transitivity, serial big-M, lazy cores
};

std::string_view toString(Formulation formulation);
bool parseFormulation(std::string_view text, Formulation& out);

struct ScheduleOptions {
    double timeLimitSeconds = 10;  // wall-clock budget for one solve; (0, 86400]
    double relativeGap = 0;        // stop when (makespan − bound)/makespan ≤ this; [0, 1)
    Formulation formulation = Formulation::Fast;
    int cbcThreads = 1;  // CBC branch-and-bound threads; 1..64
    // States the exact state-space search may expand per block before the MILP takes over;
    // 0 skips that stage (the MILP then proves every block the bounds do not close). 0..1e9
    long long searchExpansionLimit = 100000;
    // Branch-and-bound nodes each CBC solve may explore; 0 = no limit (time only). A block whose
    // MILP stops at this limit keeps its best schedule with status Feasible. Unlike the time
    // limit, this bounds the work the same way on every machine. 0..1e9
    long long milpNodeLimit = 0;
    bool useCache = true;  // reuse results of identical problems

    Status validate() const;
};

}  // namespace tandem::core::schedule
