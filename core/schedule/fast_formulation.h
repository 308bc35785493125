#pragma once
// The compact MILP for one series block (the fast path's last resort). Time is scaled so that
// the warm-start (heuristic) makespan is 1. Variables: makespan T, starts s_i bounded by heads
// and tails, a mode binary y_i only where all-cores is strictly faster, and order binaries x_ij /
// x_ji only for incomparable pairs that can actually conflict (two collectives; two compute tasks
// of which one may run in parallel mode or which share a core kind whose capacity can bind). A
// capacity binds only if the widest antichain of its one-core users (Dilworth, by bipartite
// matching on the precomputed closure) exceeds the core count: then a unary kind gets
// disjunctions and a multi-core kind gets a resource-flow network (unit flows along ordered
// pairs, no lane symmetry). Big-M values come from heads, tails and the heuristic bound; x_ij is
// fixed to 0 when i before j cannot fit under it. Valid cuts strengthen the relaxation: work per
// core kind (parallel time plus one-core work over the core count) and chain cuts (a path's
// compute time plus every off-path parallel task's time).
#include <vector>

#include "core/schedule/list_scheduler.h"
#include "core/schedule/lower_bounds.h"
#include "core/schedule/milp_answer.h"
#include "core/schedule/milp_builder.h"
#include "core/schedule/schedule_instance.h"

namespace tandem::core::schedule {

class FastFormulation {
public:
    FastFormulation(const ScheduleInstance& instance, const BoundSet& bounds,
                    const BlockSchedule& incumbent);

    const MilpBuilder& model() const { return model_; }
    // Fills the warm start from the incumbent and runs CBC.
    MilpAnswer solve(MilpSettings settings) const;

private:
    struct FlowNetwork {
        bool unary = false;                 // capacity 1: disjunctions, no flow
        std::vector<int> users;             // tasks holding one unit in one-core mode
        std::vector<int> source;            // column of the source arc into each user (by position)
        std::vector<std::vector<int>> arc;  // arc[a][b]: column for users[a] → users[b] or −1
    };
    int pair(int i, int j) const { return x_[static_cast<std::size_t>(i) * n_ + j]; }
    void build();
    void addPairs();
    void addFlow(FlowNetwork& network, int capacity);
    void addCuts();
    std::vector<double> warmStart() const;
    double d1(int i) const { return instance_.task(i).oneCoreSeconds / unit_; }
    double da(int i) const { return instance_.task(i).allCoresSeconds / unit_; }
    double fastest(int i) const { return instance_.fastestDuration(i) / unit_; }

    const ScheduleInstance& instance_;
    const BoundSet& bounds_;
    const BlockSchedule& incumbent_;
    int n_ = 0;
    double unit_ = 1;                  // seconds per model time unit (the incumbent's makespan)
    std::vector<double> head_, tail_;  // scaled
    MilpBuilder model_;
    int makespan_ = -1;
    std::vector<int> start_, y_, x_;
    bool tcBinds_ = false, vcBinds_ = false;
    std::vector<FlowNetwork> networks_;
};

}  // namespace tandem::core::schedule
