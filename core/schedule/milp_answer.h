#pragma once
// What a MILP formulation hands back about one block, in the block's own terms: the CBC run,
// and, when CBC has a solution, the chosen modes, the ordering decisions (pairs i, j with "i
// ends before j starts") and the solver's start times. The schedule itself is rebuilt from these
// by ScheduleRebuilder, never read off the solver's floating-point values.
#include <utility>
#include <vector>

#include "core/schedule/cbc_runner.h"

namespace tandem::core::schedule {

struct MilpAnswer {
    MilpRun run;
    bool hasSolution = false;
    std::vector<char> parallel;
    std::vector<std::pair<int, int>> before;
    std::vector<double> startSeconds;
    double secondsPerUnit = 1;  // the model's time unit, to turn run.bound into seconds
    int solves = 0;             // CBC runs (the reference formulation adds core constraints lazily)
    long long nodes = 0;
    double milpSeconds = 0;
};

}  // namespace tandem::core::schedule
