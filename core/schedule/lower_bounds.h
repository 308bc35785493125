#pragma once
// Combinatorial lower bounds on a block's makespan, each valid whatever modes are chosen:
// the critical path with every task at its fastest latency; per resource (TC, VC, link) the
// total work divided by the usable units, where a task's work is the cheaper of one core for
// its one-core latency and the whole chip for its all-cores latency, and the usable units are
// min(cores, widest antichain of the kind's users) because concurrent tasks are incomparable;
// a combined compute bound: parallel periods exclude all one-core work, so for every λ in [0, 1]
// T ≥ Σ min(allCores, λ·TC share + (1 − λ)·VC share); and per resource the head–work–tail
// bound max over (h, q) of h + work of the tasks with head ≥ h and tail ≥ q + q.
// Heads and tails (longest paths before and after a task at fastest latencies) also give the
// MILP its variable bounds and big-M values.
#include <vector>

#include "core/schedule/schedule_instance.h"

namespace tandem::core::schedule {

struct BoundSet {
    std::vector<double> head;  // earliest possible start of each task
    std::vector<double> tail;  // least time needed after each task ends
    double criticalPath = 0;
    double tensorWork = 0;
    double vectorWork = 0;
    double linkWork = 0;
    double combinedWork = 0;
    double headWorkTail = 0;
    double best() const;
};

class LowerBounds {
public:
    static BoundSet compute(const ScheduleInstance& instance);

    // The λ values the combined compute bound is evaluated at (also used by the search).
    static constexpr double kLambdas[] = {0.0, 0.25, 0.5, 0.75, 1.0};
};

}  // namespace tandem::core::schedule
