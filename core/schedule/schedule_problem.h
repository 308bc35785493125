#pragma once
// The input of the per-layer scheduler, detached from the model: one operator DAG (forward or
// backward of one layer) with each operator's resource class and its two latencies, plus the
// chip's core counts (ARCHITECTURE.md §2.4).
#include <string>
#include <vector>

#include "core/model/operator.h"

namespace tandem::core::schedule {

struct ScheduleTask {
    std::string name;
    model::OpClass opClass = model::OpClass::Nop;  // TensorCore, VectorCore, Fused, Collective, Nop
    double oneCoreSeconds = 0;      // duration on one core of its class (Fused: one TC + one VC)
    double allCoresSeconds = 0;     // duration intra-operator parallel on all cores of its class
    double flops = 0;               // shown in tooltips and traces
    std::vector<int> predecessors;  // indices of tasks that must finish before this one starts
};

struct ScheduleProblem {
    std::vector<ScheduleTask> tasks;
    int numTensorCores = 1;
    int numVectorCores = 1;
    // hardware::OperatorExecution::Serial: operators run one at a time in topological order,
    // each on all cores of its class (a GPU's kernels on one stream); nothing to optimise.
    bool serial = false;
};

}  // namespace tandem::core::schedule
