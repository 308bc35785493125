#include "core/schedule/schedule_validator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <utility>

namespace tandem::core::schedule {

using model::OpClass;

namespace {

std::string label(const ScheduleProblem& problem, int i) {
    std::ostringstream s;
    s << "tasks[" << i << "]";
    if (!problem.tasks[i].name.empty()) s << " \"" << problem.tasks[i].name << "\"";
    return s.str();
}

Error fail(const std::string& text) {
    return Error{"schedule: " + text};
}

bool isCompute(OpClass c) {
    return c == OpClass::TensorCore || c == OpClass::VectorCore || c == OpClass::Fused;
}

// The lane ranges a task must hold, in canonical order (TC before VC before link).
std::vector<LaneRange> sortedRanges(std::vector<LaneRange> ranges) {
    std::sort(ranges.begin(), ranges.end(), [](const LaneRange& a, const LaneRange& b) {
        return std::pair{static_cast<int>(a.kind), a.first} <
               std::pair{static_cast<int>(b.kind), b.first};
    });
    return ranges;
}

}  // namespace

Status ScheduleValidator::checkTask(const ScheduleProblem& problem, const LayerSchedule& schedule,
                                    int i, double tolerance) const {
    const ScheduleTask& task = problem.tasks[i];
    const ScheduledTask& s = schedule.tasks[i];
    std::ostringstream m;
    m << label(problem, i) << ": ";
    if (!std::isfinite(s.startSeconds) || s.startSeconds < -tolerance ||
        !std::isfinite(s.durationSeconds)) {
        m << "start " << s.startSeconds << " s / duration " << s.durationSeconds
          << " s must be finite, start >= 0";
        return fail(m.str());
    }
    const bool modeAllowed = task.opClass == OpClass::Nop          ? s.mode == TaskMode::None
                             : task.opClass == OpClass::Collective ? s.mode == TaskMode::OneCore
                                                                   : s.mode != TaskMode::None;
    if (!modeAllowed) {
        m << "mode " << toString(s.mode) << " is not allowed for class "
          << model::toString(task.opClass);
        return fail(m.str());
    }
    const double expected = s.mode == TaskMode::None              ? 0.0
                            : s.mode == TaskMode::IntraOpParallel ? task.allCoresSeconds
                                                                  : task.oneCoreSeconds;
    if (std::abs(s.durationSeconds - expected) > tolerance) {
        m << "duration " << s.durationSeconds << " s, but mode " << toString(s.mode) << " takes "
          << expected << " s";
        return fail(m.str());
    }
    std::vector<LaneRange> want;
    const auto tc = [&](int first, int count) {
        want.push_back({LaneKind::TensorCore, first, count});
    };
    const auto vc = [&](int first, int count) {
        want.push_back({LaneKind::VectorCore, first, count});
    };
    const std::vector<LaneRange> have = sortedRanges(s.lanes);
    if (s.mode == TaskMode::IntraOpParallel) {
        tc(0, problem.numTensorCores);
        vc(0, problem.numVectorCores);
    } else if (s.mode == TaskMode::OneCore) {
        // The lane indices are the task's choice; check they exist, then compare the shape.
        int tcLane = 0, vcLane = 0;
        for (const LaneRange& r : have) {
            const int cores = r.kind == LaneKind::TensorCore   ? problem.numTensorCores
                              : r.kind == LaneKind::VectorCore ? problem.numVectorCores
                                                               : 1;
            if (r.count != 1 || r.first < 0 || r.first >= cores) {
                m << "lane range " << toString(Lane{r.kind, r.first}) << " x" << r.count
                  << " is not one existing lane (the chip has " << cores << ")";
                return fail(m.str());
            }
            if (r.kind == LaneKind::TensorCore) tcLane = r.first;
            if (r.kind == LaneKind::VectorCore) vcLane = r.first;
        }
        if (task.opClass == OpClass::TensorCore || task.opClass == OpClass::Fused) tc(tcLane, 1);
        if (task.opClass == OpClass::VectorCore || task.opClass == OpClass::Fused) vc(vcLane, 1);
        if (task.opClass == OpClass::Collective) want.push_back({LaneKind::Link, 0, 1});
    }
    if (have != want) {
        m << "holds lanes [";
        for (const LaneRange& r : have)
            m << " " << toString(Lane{r.kind, r.first}) << "x" << r.count;
        m << " ] but mode " << toString(s.mode) << " of class " << model::toString(task.opClass)
          << " needs [";
        for (const LaneRange& r : want)
            m << " " << toString(Lane{r.kind, r.first}) << "x" << r.count;
        m << " ]";
        return fail(m.str());
    }
    for (int p : task.predecessors) {
        const double end = schedule.tasks[p].endSeconds();
        if (s.startSeconds < end - tolerance) {
            m << "starts at " << s.startSeconds << " s, before its predecessor "
              << label(problem, p) << " ends at " << end << " s";
            return fail(m.str());
        }
    }
    return Status::success();
}

Status ScheduleValidator::validate(const ScheduleProblem& problem,
                                   const LayerSchedule& schedule) const {
    std::ostringstream m;
    const int n = static_cast<int>(problem.tasks.size());
    if (static_cast<int>(schedule.tasks.size()) != n) {
        m << schedule.tasks.size() << " scheduled tasks for a problem of " << n;
        return fail(m.str());
    }
    if (schedule.numTensorCores != problem.numTensorCores ||
        schedule.numVectorCores != problem.numVectorCores) {
        m << "made for " << schedule.numTensorCores << " TC / " << schedule.numVectorCores
          << " VC, the problem has " << problem.numTensorCores << " / " << problem.numVectorCores;
        return fail(m.str());
    }
    double latest = 0;
    for (const ScheduledTask& t : schedule.tasks) latest = std::max(latest, t.endSeconds());
    const double scale = std::max({std::abs(schedule.makespanSeconds), latest, 1e-300});
    const double tolerance = relativeTolerance_ * scale;
    for (int i = 0; i < n; ++i)
        if (Status s = checkTask(problem, schedule, i, tolerance); !s) return s;

    // One task per lane at a time (positive-length intervals only).
    std::map<std::pair<int, int>, std::vector<int>> perLane;
    for (int i = 0; i < n; ++i) {
        const ScheduledTask& t = schedule.tasks[i];
        if (t.mode != TaskMode::OneCore || t.durationSeconds <= 0) continue;
        for (const LaneRange& r : t.lanes)
            perLane[{static_cast<int>(r.kind), r.first}].push_back(i);
    }
    for (auto& [lane, users] : perLane) {
        std::sort(users.begin(), users.end(), [&](int a, int b) {
            return schedule.tasks[a].startSeconds < schedule.tasks[b].startSeconds;
        });
        for (std::size_t k = 1; k < users.size(); ++k) {
            const ScheduledTask& before = schedule.tasks[users[k - 1]];
            const ScheduledTask& after = schedule.tasks[users[k]];
            if (after.startSeconds < before.endSeconds() - tolerance) {
                m << "lane " << toString(Lane{static_cast<LaneKind>(lane.first), lane.second})
                  << " runs " << label(problem, users[k - 1]) << " [" << before.startSeconds << ", "
                  << before.endSeconds() << ") and " << label(problem, users[k]) << " ["
                  << after.startSeconds << ", " << after.endSeconds() << ") at once";
                return fail(m.str());
            }
        }
    }
    // A parallel task computes alone.
    for (int i = 0; i < n; ++i) {
        const ScheduledTask& a = schedule.tasks[i];
        if (a.mode != TaskMode::IntraOpParallel || a.durationSeconds <= 0) continue;
        for (int j = 0; j < n; ++j) {
            const ScheduledTask& b = schedule.tasks[j];
            if (j == i || !isCompute(problem.tasks[j].opClass) || b.durationSeconds <= 0) continue;
            const double overlap =
                std::min(a.endSeconds(), b.endSeconds()) - std::max(a.startSeconds, b.startSeconds);
            if (overlap > tolerance) {
                m << label(problem, i) << " runs intra-operator parallel but overlaps "
                  << label(problem, j) << " for " << overlap << " s";
                return fail(m.str());
            }
        }
    }
    if (std::abs(schedule.makespanSeconds - latest) > tolerance) {
        m << "makespan " << schedule.makespanSeconds << " s, but the last task ends at " << latest
          << " s";
        return fail(m.str());
    }
    if (!std::isfinite(schedule.lowerBoundSeconds) || schedule.lowerBoundSeconds < 0 ||
        schedule.lowerBoundSeconds > schedule.makespanSeconds + tolerance) {
        m << "lower bound " << schedule.lowerBoundSeconds << " s is not within [0, makespan "
          << schedule.makespanSeconds << " s]";
        return fail(m.str());
    }
    const double gap =
        schedule.makespanSeconds > 0
            ? (schedule.makespanSeconds - schedule.lowerBoundSeconds) / schedule.makespanSeconds
            : 0.0;
    if (std::abs(schedule.gap - gap) > 1e-9 ||
        (schedule.status == ScheduleStatus::Optimal && gap > relativeTolerance_)) {
        m << "status " << toString(schedule.status) << " with gap " << schedule.gap
          << ", but makespan and bound give " << gap;
        return fail(m.str());
    }
    return Status::success();
}

}  // namespace tandem::core::schedule
