#pragma once
// Validates a ScheduleProblem and derives the structure every solver stage shares: a
// deterministic topological order, the transitive closure (computed once), which tasks are
// zero-length, and the series blocks. Zero-length tasks (Nops, and operators whose fastest mode
// takes 0 s) hold no resource for any time, so they are taken out of the solvers with precedence
// kept through them and placed afterwards at the end of their last predecessor. A series cut is a
// point of the topological order where every positive task before it is an ancestor of every
// positive task after it: the blocks on either side then never overlap in time, so the optimal
// makespan is the sum of the blocks' optimal makespans and each block is solved on its own.
#include <vector>

#include "core/common/expected.h"
#include "core/schedule/bit_matrix.h"
#include "core/schedule/schedule_problem.h"

namespace tandem::core::schedule {

class ProblemAnalysis {
public:
    // The largest accepted problem and chip; bigger inputs are reported as errors.
    static constexpr int kMaxTasks = 5000;
    static constexpr int kMaxCores = 1 << 20;

    // Checks core counts, latencies (finite, ≥ 0; a Nop's must be 0), classes and predecessor
    // indices, and that the precedence graph is acyclic.
    static Expected<ProblemAnalysis> analyse(const ScheduleProblem& problem);

    int size() const { return static_cast<int>(canParallel_.size()); }
    const std::vector<int>& topologicalOrder() const { return order_; }
    // a must finish before b starts, directly or through other tasks.
    bool precedes(int a, int b) const { return ancestors_.test(b, a); }
    // Whether running on all cores is ever worth it: it must be strictly faster than one core
    // (otherwise one-core mode does the same work sooner on a subset of the resources).
    bool canParallel(int task) const { return canParallel_[task]; }
    bool zeroLength(int task) const { return zeroLength_[task]; }
    // Positive-duration tasks cut into series blocks, each in topological order.
    const std::vector<std::vector<int>>& blocks() const { return blocks_; }

private:
    ProblemAnalysis() = default;
    void findBlocks();

    std::vector<int> order_;
    BitMatrix ancestors_;  // row b: ancestors of b
    std::vector<char> canParallel_;
    std::vector<char> zeroLength_;
    std::vector<std::vector<int>> blocks_;
};

}  // namespace tandem::core::schedule
