#pragma once
// What a Gantt chart of one layer schedule shows, computed without any drawing: the rows (one per
// tensor core, vector core and the link, or — when a class has more cores than fit — one per
// contiguous range of its cores, labelled with the count) and the bars. A bar is one maximal run
// of consecutive rows of one core kind an operator holds for its whole duration, so an operator
// holding lanes in several places is drawn as several bars sharing one task index: a one-core
// Fused operator always gives one bar on its TC row and one on its VC row, while an
// intra-operator-parallel operator (every TC and VC row, which are adjacent) gives a single bar
// spanning them all. That is why operatorCount() and bars().size() differ. Nops and zero-length
// operators hold nothing for any time and get no bar. In an aggregated row several one-core bars
// may overlap; each gets a sub-row (found by interval colouring) so none hides another.
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/model/layer_graph.h"
#include "core/schedule/layer_schedule.h"
#include "core/schedule/model_schedule.h"
#include "core/schedule/schedule_problem.h"

namespace tandem::core::schedule {

struct GanttRow {
    std::string label;  // "TC 3", "TC 16–31 (16 cores)", "VC 0", "Link"
    LaneKind kind = LaneKind::TensorCore;
    int firstLane = 0;
    int laneCount = 1;  // cores this row stands for (1 unless aggregated)
    int subRows = 1;    // sub-rows its one-row bars occupy (≤ laneCount; 1 for plain rows)
};

struct GanttBar {
    int task = 0;      // index into the problem's tasks / the schedule's tasks
    int firstRow = 0;  // rows [firstRow, lastRow] of GanttLayout::rows()
    int lastRow = 0;
    double startSeconds = 0;
    double endSeconds = 0;
    model::OpClass opClass = model::OpClass::TensorCore;
    TaskMode mode = TaskMode::OneCore;
    int lanes = 1;   // lanes held inside those rows
    int subRow = 0;  // sub-row inside an aggregated row (0 for multi-row bars and plain rows)
};

// Name, class and work of one task, read from the problem or the layer graph.
struct GanttTaskInfo {
    std::string name;
    model::OpClass opClass = model::OpClass::Nop;
    double flops = 0;
    double collectiveBytes = 0;  // bytes of the collective (known only from a layer graph)
    model::CollectiveKind collective = model::CollectiveKind::AllReduce;
};

class GanttLayout {
public:
    static constexpr int kDefaultMaxRowsPerClass = 16;

    // Errors: maxRowsPerClass < 1, a schedule whose task count differs from the problem's, core
    // counts < 1, a lane outside the chip, or a negative / non-finite start or duration.
    static Expected<GanttLayout> build(const ScheduleProblem& problem,
                                       const LayerSchedule& schedule,
                                       int maxRowsPerClass = kDefaultMaxRowsPerClass);
    // The same from one direction of a layer graph (what a ModelSchedule pairs with each
    // LayerSchedule); the core counts are the schedule's own.
    static Expected<GanttLayout> build(const model::LayerGraph& graph, Direction direction,
                                       const LayerSchedule& schedule,
                                       int maxRowsPerClass = kDefaultMaxRowsPerClass);

    const std::vector<GanttRow>& rows() const { return rows_; }
    const std::vector<GanttBar>& bars() const { return bars_; }  // by start, then first row
    const std::vector<GanttTaskInfo>& tasks() const { return tasks_; }
    const std::vector<ScheduledTask>& scheduled() const { return scheduled_; }
    int operatorCount() const { return operatorCount_; }  // tasks that got at least one bar
    int numTensorCores() const { return numTensorCores_; }
    int numVectorCores() const { return numVectorCores_; }
    double makespanSeconds() const { return makespanSeconds_; }
    double lowerBoundSeconds() const { return lowerBoundSeconds_; }
    ScheduleStatus status() const { return status_; }
    double gap() const { return gap_; }
    ProofStage provedBy() const { return provedBy_; }

    // The row holding lane `index` of `kind`; -1 when there is no such lane.
    int rowOf(LaneKind kind, int index) const;

private:
    static Expected<GanttLayout> make(std::vector<GanttTaskInfo> tasks,
                                      const LayerSchedule& schedule, int maxRowsPerClass);
    void addRows(LaneKind kind, int cores, int maxRows, const std::string& prefix);
    void assignSubRows();

    std::vector<GanttRow> rows_;
    std::vector<GanttBar> bars_;
    std::vector<GanttTaskInfo> tasks_;
    std::vector<ScheduledTask> scheduled_;
    int operatorCount_ = 0;
    int numTensorCores_ = 1;
    int numVectorCores_ = 1;
    int firstRowOfKind_[3] = {0, 0, 0};
    int rowsOfKind_[3] = {0, 0, 0};
    double makespanSeconds_ = 0;
    double lowerBoundSeconds_ = 0;
    ScheduleStatus status_ = ScheduleStatus::Optimal;
    double gap_ = 0;
    ProofStage provedBy_ = ProofStage::None;
};

}  // namespace tandem::core::schedule
