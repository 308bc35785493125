#include "core/schedule/lane_assigner.h"

#include <algorithm>
#include <sstream>

namespace tandem::core::schedule {

using model::OpClass;

namespace {

bool holds(OpClass c, LaneKind kind) {
    switch (kind) {
        case LaneKind::TensorCore:
            return c == OpClass::TensorCore || c == OpClass::Fused;
        case LaneKind::VectorCore:
            return c == OpClass::VectorCore || c == OpClass::Fused;
        case LaneKind::Link:
            return c == OpClass::Collective;
    }
    return false;
}

}  // namespace

Status LaneAssigner::assign(const ScheduleProblem& problem, std::vector<ScheduledTask>& tasks,
                            double tolerance) {
    const int n = static_cast<int>(tasks.size());
    for (int i = 0; i < n; ++i) {
        tasks[i].lanes.clear();
        if (tasks[i].mode == TaskMode::IntraOpParallel) {
            tasks[i].lanes = {LaneRange{LaneKind::TensorCore, 0, problem.numTensorCores},
                              LaneRange{LaneKind::VectorCore, 0, problem.numVectorCores}};
        }
    }
    for (const LaneKind kind : {LaneKind::TensorCore, LaneKind::VectorCore, LaneKind::Link}) {
        const int capacity = kind == LaneKind::TensorCore   ? problem.numTensorCores
                             : kind == LaneKind::VectorCore ? problem.numVectorCores
                                                            : 1;
        std::vector<int> users;
        for (int i = 0; i < n; ++i)
            if (tasks[i].mode == TaskMode::OneCore && holds(problem.tasks[i].opClass, kind))
                users.push_back(i);
        std::sort(users.begin(), users.end(), [&](int a, int b) {
            if (tasks[a].startSeconds != tasks[b].startSeconds)
                return tasks[a].startSeconds < tasks[b].startSeconds;
            return a < b;
        });
        std::vector<double> laneEnd;  // lanes opened so far, lowest index first
        for (int i : users) {
            const double start = tasks[i].startSeconds;
            int lane = -1;
            for (int l = 0; l < static_cast<int>(laneEnd.size()) && lane < 0; ++l)
                if (laneEnd[l] <= start + tolerance) lane = l;
            if (tasks[i].durationSeconds <= 0) {
                tasks[i].lanes.push_back(LaneRange{kind, lane < 0 ? 0 : lane, 1});
                continue;
            }
            if (lane < 0) {
                if (static_cast<int>(laneEnd.size()) >= capacity) {
                    std::ostringstream message;
                    message << "internal: schedule needs more than " << capacity
                            << (kind == LaneKind::TensorCore   ? " TC"
                                : kind == LaneKind::VectorCore ? " VC"
                                                               : " link")
                            << " lanes at " << start << " s (task " << i << ")";
                    return Error{message.str()};
                }
                laneEnd.push_back(0);
                lane = static_cast<int>(laneEnd.size()) - 1;
            }
            laneEnd[lane] = tasks[i].endSeconds();
            tasks[i].lanes.push_back(LaneRange{kind, lane, 1});
        }
    }
    return Status::success();
}

}  // namespace tandem::core::schedule
