#pragma once
// PHAZE's per-layer scheduling ILP (the PHAZE paper's constraints 3–18), kept as the oracle the
// fast path is tested against and the baseline it is benchmarked against. It works on the whole
// layer (Nops and zero-length tasks removed, precedence kept through them): order binaries x_ij
// for every ordered pair, O(n³) transitivity rows, precedence rows for every descendant, serial
// big-M H = Σ max(one-core, all-cores), parallel tasks ordered against every incomparable compute
// task, and core-assignment binaries z_ic added lazily: solve without them, rebuild a schedule
// from x, and if it over-uses a core kind (TC, VC, or the link, which has one "core") add that
// kind's assignment constraints and solve again. Deviation from PHAZE, as our semantics demand:
// a Fused task takes any TC and any VC (PHAZE pairs TC_c with VC_c). Time is scaled by H.
#include "core/schedule/milp_answer.h"
#include "core/schedule/milp_builder.h"
#include "core/schedule/schedule_instance.h"

namespace tandem::core::schedule {

class ReferenceFormulation {
public:
    explicit ReferenceFormulation(const ScheduleInstance& instance);

    // Runs the lazy rounds until the rebuilt schedule fits the cores, the deadline passes or the
    // run is cancelled. settings.warmStart is ignored (PHAZE starts cold).
    MilpAnswer solve(const MilpSettings& settings) const;

    // Size of the first round's model, for the benchmark's report.
    int firstRoundRows() const;
    int firstRoundColumns() const;

private:
    enum Kind { kTensor = 0, kVector = 1, kLink = 2 };
    struct Layout {
        int makespan = -1;
        std::vector<int> start, y, x;
    };
    MilpBuilder build(const bool (&lazy)[3], Layout& layout) const;
    bool uses(int i, int kind) const;
    int capacity(int kind) const;

    const ScheduleInstance& instance_;
    int n_ = 0;
    double unit_ = 1;
};

}  // namespace tandem::core::schedule
