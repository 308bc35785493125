#include "core/schedule/gantt_layout.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace tandem::core::schedule {

namespace {
std::string laneText(LaneKind kind) {
    switch (kind) {
        case LaneKind::TensorCore:
            return "TC";
        case LaneKind::VectorCore:
            return "VC";
        case LaneKind::Link:
            return "Link";
    }
    return "?";
}

int kindIndex(LaneKind kind) {
    return static_cast<int>(kind);
}
}  // namespace

Expected<GanttLayout> GanttLayout::build(const ScheduleProblem& problem,
                                         const LayerSchedule& schedule, int maxRowsPerClass) {
    std::vector<GanttTaskInfo> tasks;
    tasks.reserve(problem.tasks.size());
    for (const auto& t : problem.tasks)
        tasks.push_back({t.name, t.opClass, t.flops, 0, model::CollectiveKind::AllReduce});
    if (problem.numTensorCores != schedule.numTensorCores ||
        problem.numVectorCores != schedule.numVectorCores) {
        return Error{"Gantt layout: the schedule is for " +
                     std::to_string(schedule.numTensorCores) + " TC / " +
                     std::to_string(schedule.numVectorCores) + " VC but the problem has " +
                     std::to_string(problem.numTensorCores) + " TC / " +
                     std::to_string(problem.numVectorCores) + " VC"};
    }
    return make(std::move(tasks), schedule, maxRowsPerClass);
}

Expected<GanttLayout> GanttLayout::build(const model::LayerGraph& graph, Direction direction,
                                         const LayerSchedule& schedule, int maxRowsPerClass) {
    const auto& ops = direction == Direction::Forward ? graph.forward() : graph.backward();
    std::vector<GanttTaskInfo> tasks;
    tasks.reserve(ops.size());
    for (const auto& op : ops)
        tasks.push_back(
            {op.name, op.opClass, op.flops(), double(op.collectiveBytes), op.collective});
    return make(std::move(tasks), schedule, maxRowsPerClass);
}

void GanttLayout::addRows(LaneKind kind, int cores, int maxRows, const std::string& prefix) {
    const int k = kindIndex(kind);
    firstRowOfKind_[k] = int(rows_.size());
    // Equal ranges of ceil(cores / maxRows) lanes keep rowOf() a division; only the last range
    // may be shorter.
    const int perRow = cores <= maxRows ? 1 : (cores + maxRows - 1) / maxRows;
    for (int first = 0; first < cores; first += perRow) {
        GanttRow row;
        row.kind = kind;
        row.firstLane = first;
        row.laneCount = std::min(perRow, cores - first);
        if (kind == LaneKind::Link) {
            row.label = prefix;
        } else if (perRow == 1) {
            row.label = prefix + " " + std::to_string(first);
        } else if (row.laneCount == 1) {
            row.label = prefix + " " + std::to_string(first) + " (1 core)";
        } else {
            row.label = prefix + " " + std::to_string(first) + "–" +
                        std::to_string(first + row.laneCount - 1) + " (" +
                        std::to_string(row.laneCount) + " cores)";
        }
        rows_.push_back(std::move(row));
    }
    rowsOfKind_[k] = int(rows_.size()) - firstRowOfKind_[k];
}

int GanttLayout::rowOf(LaneKind kind, int index) const {
    const int k = kindIndex(kind);
    const int cores = kind == LaneKind::TensorCore   ? numTensorCores_
                      : kind == LaneKind::VectorCore ? numVectorCores_
                                                     : 1;
    if (index < 0 || index >= cores || rowsOfKind_[k] == 0) return -1;
    const int perRow = rows_[std::size_t(firstRowOfKind_[k])].laneCount;
    return firstRowOfKind_[k] + index / perRow;
}

Expected<GanttLayout> GanttLayout::make(std::vector<GanttTaskInfo> tasks,
                                        const LayerSchedule& schedule, int maxRowsPerClass) {
    if (maxRowsPerClass < 1) {
        return Error{"Gantt layout: maxRowsPerClass = " + std::to_string(maxRowsPerClass) +
                     " must be at least 1"};
    }
    if (schedule.numTensorCores < 1 || schedule.numVectorCores < 1) {
        return Error{"Gantt layout: the schedule has " + std::to_string(schedule.numTensorCores) +
                     " tensor cores and " + std::to_string(schedule.numVectorCores) +
                     " vector cores; both must be at least 1"};
    }
    if (tasks.size() != schedule.tasks.size()) {
        return Error{"Gantt layout: the schedule has " + std::to_string(schedule.tasks.size()) +
                     " operators but the layer has " + std::to_string(tasks.size())};
    }
    GanttLayout layout;
    layout.tasks_ = std::move(tasks);
    layout.scheduled_ = schedule.tasks;
    layout.numTensorCores_ = schedule.numTensorCores;
    layout.numVectorCores_ = schedule.numVectorCores;
    layout.makespanSeconds_ = schedule.makespanSeconds;
    layout.lowerBoundSeconds_ = schedule.lowerBoundSeconds;
    layout.status_ = schedule.status;
    layout.gap_ = schedule.gap;
    layout.provedBy_ = schedule.stats.provedBy;
    layout.addRows(LaneKind::TensorCore, schedule.numTensorCores, maxRowsPerClass, "TC");
    layout.addRows(LaneKind::VectorCore, schedule.numVectorCores, maxRowsPerClass, "VC");
    layout.addRows(LaneKind::Link, 1, maxRowsPerClass, laneText(LaneKind::Link));

    for (std::size_t i = 0; i < schedule.tasks.size(); ++i) {
        const auto& task = schedule.tasks[i];
        const std::string who =
            "Gantt layout: operator " + std::to_string(i) + " '" + layout.tasks_[i].name + "'";
        if (!std::isfinite(task.startSeconds) || !std::isfinite(task.durationSeconds) ||
            task.startSeconds < 0 || task.durationSeconds < 0) {
            return Error{who + " has start " + std::to_string(task.startSeconds) +
                         " s and duration " + std::to_string(task.durationSeconds) +
                         " s; both must be finite and ≥ 0"};
        }
        if (task.mode == TaskMode::None || task.durationSeconds <= 0) continue;
        if (task.lanes.empty())
            return Error{who + " lasts " + std::to_string(task.durationSeconds) +
                         " s but holds no lane"};
        std::map<int, int> lanesPerRow;  // ordered, so runs of adjacent rows are easy to find
        for (const auto& range : task.lanes) {
            const int first = layout.rowOf(range.kind, range.first);
            const int last = layout.rowOf(range.kind, range.first + range.count - 1);
            if (range.count < 1 || first < 0 || last < 0) {
                return Error{who + " holds " + laneText(range.kind) + " lanes " +
                             std::to_string(range.first) + " … " +
                             std::to_string(range.first + range.count - 1) +
                             ", outside the chip's " + std::to_string(schedule.numTensorCores) +
                             " TC / " + std::to_string(schedule.numVectorCores) + " VC / 1 link"};
            }
            for (int r = first; r <= last; ++r) {
                const auto& row = layout.rows_[std::size_t(r)];
                const int lo = std::max(range.first, row.firstLane);
                const int hi = std::min(range.first + range.count, row.firstLane + row.laneCount);
                lanesPerRow[r] += hi - lo;
            }
        }
        GanttBar bar;
        bar.task = int(i);
        bar.startSeconds = task.startSeconds;
        bar.endSeconds = task.endSeconds();
        bar.opClass = layout.tasks_[i].opClass;
        bar.mode = task.mode;
        bar.firstRow = bar.lastRow = -2;
        bar.lanes = 0;
        for (const auto& [row, lanes] : lanesPerRow) {
            // A one-core Fused operator's TC and VC stay two bars even when its rows touch, so
            // the bar count does not depend on which cores it got; a parallel one is one block.
            const bool kindChanges =
                bar.lanes > 0 &&
                layout.rows_[std::size_t(row)].kind != layout.rows_[std::size_t(bar.lastRow)].kind;
            if (row != bar.lastRow + 1 || (kindChanges && task.mode != TaskMode::IntraOpParallel)) {
                if (bar.lanes > 0) layout.bars_.push_back(bar);
                bar.firstRow = row;
                bar.lanes = 0;
            }
            bar.lastRow = row;
            bar.lanes += lanes;
        }
        layout.bars_.push_back(bar);
        ++layout.operatorCount_;
    }
    std::stable_sort(layout.bars_.begin(), layout.bars_.end(),
                     [](const GanttBar& a, const GanttBar& b) {
                         if (a.startSeconds != b.startSeconds)
                             return a.startSeconds < b.startSeconds;
                         return a.firstRow < b.firstRow;
                     });
    layout.assignSubRows();
    return layout;
}

void GanttLayout::assignSubRows() {
    // Interval colouring per aggregated row (bars are sorted by start): each bar takes the
    // lowest sub-row free at its start, so the sub-row count is the busiest instant's overlap.
    std::vector<std::vector<double>> slotEnds(rows_.size());
    for (auto& bar : bars_) {
        if (bar.firstRow != bar.lastRow) continue;
        auto& row = rows_[std::size_t(bar.firstRow)];
        if (row.laneCount == 1) continue;
        auto& ends = slotEnds[std::size_t(bar.firstRow)];
        const double tolerance = 1e-12 * std::max(1.0, std::abs(bar.startSeconds));
        auto free = std::find_if(ends.begin(), ends.end(),
                                 [&](double end) { return end <= bar.startSeconds + tolerance; });
        if (free == ends.end()) {
            bar.subRow = int(ends.size());
            ends.push_back(bar.endSeconds);
        } else {
            bar.subRow = int(free - ends.begin());
            *free = bar.endSeconds;
        }
        row.subRows = std::max(row.subRows, int(ends.size()));
    }
}

}  // namespace tandem::core::schedule
