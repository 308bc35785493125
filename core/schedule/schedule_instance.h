#pragma once
// One series block of a layer, ready for the solver stages: only positive-duration tasks,
// numbered 0..n−1 in topological order (a predecessor always has the smaller index), with the
// closure restricted to the block and its transitive reduction. Durations, resource demands and
// mode rules live here so that bounds, heuristics and both MILP formulations read one definition
// of the semantics documented in layer_scheduler.h.
#include <vector>

#include "core/model/operator.h"
#include "core/schedule/bit_matrix.h"
#include "core/schedule/problem_analysis.h"
#include "core/schedule/resource_profile.h"
#include "core/schedule/schedule_problem.h"

namespace tandem::core::schedule {

struct InstanceTask {
    int task = 0;  // index in ScheduleProblem::tasks
    model::OpClass opClass = model::OpClass::TensorCore;
    double oneCoreSeconds = 0;
    double allCoresSeconds = 0;
    bool canParallel = false;
};

class ScheduleInstance {
public:
    // `tasks` are indices into the problem, in topological order, all of positive duration.
    ScheduleInstance(const ScheduleProblem& problem, const ProblemAnalysis& analysis,
                     const std::vector<int>& tasks);

    int size() const { return static_cast<int>(tasks_.size()); }
    const InstanceTask& task(int i) const { return tasks_[i]; }
    int numTensorCores() const { return numTensorCores_; }
    int numVectorCores() const { return numVectorCores_; }

    bool precedes(int i, int j) const { return ancestors_.test(j, i); }
    bool comparable(int i, int j) const { return precedes(i, j) || precedes(j, i); }
    // Transitive reduction inside the block.
    const std::vector<int>& predecessors(int i) const { return predecessors_[i]; }
    const std::vector<int>& successors(int i) const { return successors_[i]; }

    bool isCompute(int i) const { return tasks_[i].opClass != model::OpClass::Collective; }
    bool isCollective(int i) const { return !isCompute(i); }
    // Whether the task holds a TC (resp. VC) when it runs on one core.
    bool usesTensorCore(int i) const;
    bool usesVectorCore(int i) const;

    double duration(int i, bool parallel) const {
        return parallel ? tasks_[i].allCoresSeconds : tasks_[i].oneCoreSeconds;
    }
    double fastestDuration(int i) const { return duration(i, tasks_[i].canParallel); }
    Demand demand(int i, bool parallel) const;
    // The largest set of pairwise incomparable tasks among `subset` (Dilworth: |subset| minus a
    // maximum matching of the comparability bipartite graph): how many of them can ever run at
    // the same instant.
    int width(const std::vector<int>& subset) const;
    // How many one-core users of a core kind can ever run at once: min(cores, widest antichain
    // of its users). Capacities above it never bind.
    int effectiveTensorCores() const { return effectiveTensorCores_; }
    int effectiveVectorCores() const { return effectiveVectorCores_; }

private:
    std::vector<InstanceTask> tasks_;
    int numTensorCores_ = 1;
    int numVectorCores_ = 1;
    int effectiveTensorCores_ = 1;
    int effectiveVectorCores_ = 1;
    BitMatrix ancestors_;
    std::vector<std::vector<int>> predecessors_;
    std::vector<std::vector<int>> successors_;
};

}  // namespace tandem::core::schedule
