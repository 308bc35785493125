#pragma once
// Runs one MILP through CBC's C++ API with the project's settings: a model of its own per call
// (so calls on different threads never share state), logging off, CbcStrategyDefault cuts and
// heuristics, wall-clock time limit, optional node limit, relative gap, optional warm start, and
// stop handlers on both the branch-and-bound (CbcEventHandler) and the simplex (ClpEventHandler) so
// that cancellation lands within milliseconds. The objective must be scaled to about 1: the
// tolerances are tuned for that.
#include <chrono>
#include <string>
#include <vector>

#include "core/common/run_control.h"
#include "core/schedule/milp_builder.h"

namespace tandem::core::schedule {

struct MilpSettings {
    std::chrono::steady_clock::time_point deadline;
    double relativeGap = 0;
    int threads = 1;
    long long nodeLimit = 0;  // branch-and-bound nodes; 0 = no limit
    const RunControl* control = nullptr;
    std::vector<double> warmStart;  // a feasible solution, or empty
    double warmStartObjective = 0;
};

struct MilpRun {
    enum class Outcome {
        Solved,     // search completed: `solution` (if any) is optimal within `relativeGap`
        Stopped,    // deadline passed: `solution` is the best found, `bound` valid or −∞
        NodeLimit,  // the node limit ended the search first: as Stopped, but not for lack of time
        Cancelled,  // RunControl cancelled
        Failed,     // CBC gave up (numerical trouble); nothing it says is used
    };
    Outcome outcome = Outcome::Failed;
    std::vector<double> solution;  // empty when no feasible solution is known
    double objective = 0;
    double bound = 0;  // best possible objective; −∞ when CBC could not prove one
    bool warmStartAccepted = false;
    long long nodes = 0;
    double seconds = 0;
    std::string note;
};

class CbcRunner {
public:
    static MilpRun solve(const MilpBuilder& model, const MilpSettings& settings);

private:
    static MilpRun run(const MilpBuilder& model, const MilpSettings& settings);
};

}  // namespace tandem::core::schedule
