#pragma once
// Serial schedule generation for one block: with every task's mode fixed, repeatedly take the
// eligible task (all predecessors placed) with the smallest priority key and start it at the
// earliest time precedence and free resources allow. Such schedules are "active", and some
// priority order reproduces an optimal schedule for the given modes, which is what makes list
// scheduling both the heuristic and the final, exact rebuild of a MILP answer. Start times are
// always the end of some other task or 0 — sums of durations, never solver output.
#include <limits>
#include <vector>

#include "core/schedule/schedule_instance.h"

namespace tandem::core::schedule {

struct BlockSchedule {
    std::vector<double> start;
    std::vector<char> parallel;  // 1 = intra-operator parallel
    double makespan = std::numeric_limits<double>::infinity();

    double end(const ScheduleInstance& instance, int i) const {
        return start[i] + instance.duration(i, parallel[i] != 0);
    }
};

class ListScheduler {
public:
    explicit ListScheduler(const ScheduleInstance& instance) : instance_(instance) {}

    BlockSchedule forward(const std::vector<char>& parallel, const std::vector<double>& keys) const;
    // Schedules the mirrored DAG (successors first) and mirrors the result back, so tasks are
    // packed to the right. Its start times carry rounding; use it only to derive keys for a
    // forward pass (forward–backward improvement).
    BlockSchedule backward(const std::vector<char>& parallel,
                           const std::vector<double>& keys) const;

private:
    // Places tasks in priority order on the DAG or its mirror; returns (start, makespan).
    BlockSchedule place(const std::vector<char>& parallel, const std::vector<double>& keys,
                        bool mirrored) const;
    const ScheduleInstance& instance_;
};

}  // namespace tandem::core::schedule
