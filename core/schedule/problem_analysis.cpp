#include "core/schedule/problem_analysis.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <sstream>

namespace tandem::core::schedule {

namespace {

using model::OpClass;

std::string taskLabel(const ScheduleProblem& problem, int i) {
    std::ostringstream label;
    label << "schedule problem: tasks[" << i << "]";
    if (!problem.tasks[i].name.empty()) label << " \"" << problem.tasks[i].name << "\"";
    return label.str();
}

bool isKnownClass(OpClass c) {
    return c == OpClass::TensorCore || c == OpClass::VectorCore || c == OpClass::Fused ||
           c == OpClass::Collective || c == OpClass::Nop;
}

bool isCompute(OpClass c) {
    return c == OpClass::TensorCore || c == OpClass::VectorCore || c == OpClass::Fused;
}

Status checkTask(const ScheduleProblem& problem, int i) {
    const ScheduleTask& task = problem.tasks[i];
    const int n = static_cast<int>(problem.tasks.size());
    std::ostringstream message;
    if (!isKnownClass(task.opClass)) {
        message << taskLabel(problem, i) << ": opClass = " << static_cast<int>(task.opClass)
                << ", allowed TensorCore, VectorCore, Fused, Collective or Nop";
        return Error{message.str()};
    }
    const auto checkLatency = [&](const char* field, double value) -> Status {
        if (std::isfinite(value) && value >= 0) return Status::success();
        std::ostringstream m;
        m << taskLabel(problem, i) << ": " << field << " = " << value
          << ", allowed a finite number of seconds >= 0";
        return Error{m.str()};
    };
    if (Status s = checkLatency("oneCoreSeconds", task.oneCoreSeconds); !s) return s;
    // A collective has no parallel mode, so its allCoresSeconds is never read.
    if (task.opClass != OpClass::Collective) {
        if (Status s = checkLatency("allCoresSeconds", task.allCoresSeconds); !s) return s;
    }
    if (task.opClass == OpClass::Nop && (task.oneCoreSeconds != 0 || task.allCoresSeconds != 0)) {
        message << taskLabel(problem, i)
                << ": a Nop must take 0 s, got oneCoreSeconds = " << task.oneCoreSeconds
                << " and allCoresSeconds = " << task.allCoresSeconds;
        return Error{message.str()};
    }
    for (std::size_t k = 0; k < task.predecessors.size(); ++k) {
        const int p = task.predecessors[k];
        if (p < 0 || p >= n || p == i) {
            message << taskLabel(problem, i) << ": predecessors[" << k << "] = " << p
                    << ", allowed 0.." << n - 1 << " except " << i;
            return Error{message.str()};
        }
    }
    return Status::success();
}

}  // namespace

Expected<ProblemAnalysis> ProblemAnalysis::analyse(const ScheduleProblem& problem) {
    std::ostringstream message;
    const auto checkCores = [&](const char* field, int value) -> Status {
        if (value >= 1 && value <= kMaxCores) return Status::success();
        std::ostringstream m;
        m << "schedule problem: " << field << " = " << value << ", allowed 1.." << kMaxCores;
        return Error{m.str()};
    };
    if (Status s = checkCores("numTensorCores", problem.numTensorCores); !s)
        return Error{s.message()};
    if (Status s = checkCores("numVectorCores", problem.numVectorCores); !s)
        return Error{s.message()};
    const int n = static_cast<int>(problem.tasks.size());
    if (problem.tasks.size() > static_cast<std::size_t>(kMaxTasks)) {
        message << "schedule problem: " << problem.tasks.size() << " tasks, allowed 0.."
                << kMaxTasks;
        return Error{message.str()};
    }
    for (int i = 0; i < n; ++i)
        if (Status s = checkTask(problem, i); !s) return Error{s.message()};

    ProblemAnalysis analysis;
    analysis.canParallel_.assign(n, 0);
    analysis.zeroLength_.assign(n, 0);
    for (int i = 0; i < n; ++i) {
        const ScheduleTask& task = problem.tasks[i];
        const bool compute = isCompute(task.opClass);
        analysis.canParallel_[i] = compute && task.allCoresSeconds < task.oneCoreSeconds;
        const double fastest =
            analysis.canParallel_[i] ? task.allCoresSeconds : task.oneCoreSeconds;
        analysis.zeroLength_[i] = task.opClass == OpClass::Nop || fastest == 0;
    }

    // Kahn's algorithm, smallest index first, so the order does not depend on anything but the
    // input.
    std::vector<std::vector<int>> successors(n);
    std::vector<int> indegree(n, 0);
    for (int i = 0; i < n; ++i) {
        for (int p : problem.tasks[i].predecessors) {
            successors[p].push_back(i);
            ++indegree[i];
        }
    }
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int i = 0; i < n; ++i)
        if (indegree[i] == 0) ready.push(i);
    while (!ready.empty()) {
        const int i = ready.top();
        ready.pop();
        analysis.order_.push_back(i);
        for (int s : successors[i])
            if (--indegree[s] == 0) ready.push(s);
    }
    if (static_cast<int>(analysis.order_.size()) != n) {
        // Every unfinished task has an unfinished predecessor; walking back from one must
        // revisit a task, and that task lies on a cycle.
        int at = 0;
        while (indegree[at] == 0) ++at;
        std::vector<char> seen(n, 0);
        while (!seen[at]) {
            seen[at] = 1;
            for (int p : problem.tasks[at].predecessors) {
                if (indegree[p] > 0) {
                    at = p;
                    break;
                }
            }
        }
        message << taskLabel(problem, at)
                << ": lies on a precedence cycle; the predecessors must form a DAG";
        return Error{message.str()};
    }

    analysis.ancestors_ = BitMatrix(n);
    for (int b : analysis.order_) {
        for (int p : problem.tasks[b].predecessors) {
            analysis.ancestors_.set(b, p);
            analysis.ancestors_.orRow(b, p);
        }
    }
    analysis.findBlocks();
    return analysis;
}

void ProblemAnalysis::findBlocks() {
    std::vector<int> positive;
    for (int i : order_)
        if (!zeroLength_[i]) positive.push_back(i);
    const int m = static_cast<int>(positive.size());
    // covered[j]: how many leading positive tasks are all ancestors of positive[j].
    std::vector<int> covered(m, 0);
    for (int j = 0; j < m; ++j) {
        int k = 0;
        while (k < j && precedes(positive[k], positive[j])) ++k;
        covered[j] = k;
    }
    // A cut before position k needs covered[j] ≥ k for every j ≥ k.
    std::vector<int> suffixMin(m + 1, m);
    for (int j = m - 1; j >= 0; --j) suffixMin[j] = std::min(suffixMin[j + 1], covered[j]);
    blocks_.clear();
    std::vector<int> current;
    for (int k = 0; k < m; ++k) {
        if (k > 0 && suffixMin[k] >= k) {
            blocks_.push_back(current);
            current.clear();
        }
        current.push_back(positive[k]);
    }
    if (!current.empty()) blocks_.push_back(current);
}

}  // namespace tandem::core::schedule
