// GanttLayout checked against the schedules it draws: real GPT-3 175B layers (t = 8) on the
// TPUv4-like chip and on chips with 1 and 4096 cores per kind, plus 300 random small problems.
// The oracles read the LayerSchedule directly (expanded lanes, modes, durations) and find rows by
// a linear search over row lane ranges, never through GanttLayout::rowOf().
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

#include "core/estimate/layer_cost_table.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/schedule/gantt_layout.h"
#include "core/schedule/model_schedule.h"
#include "tests/core/schedule/schedule_test_support.h"

using namespace tandem;
using namespace tandem::core::schedule;
using core::model::OpClass;

namespace {

int rowByScan(const GanttLayout& layout, const Lane& lane) {
    const auto& rows = layout.rows();
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].kind == lane.kind && lane.index >= rows[r].firstLane &&
            lane.index < rows[r].firstLane + rows[r].laneCount)
            return int(r);
    }
    return -1;
}

// Every property the chart relies on; returns an empty string or the first violation.
std::string check(const ScheduleProblem& p, const LayerSchedule& s, const GanttLayout& layout,
                  int maxRows) {
    const double eps = 1e-9 * std::max(1e-12, s.makespanSeconds);
    // Rows: per kind the lane ranges tile 0 … cores − 1 in order, at most maxRows rows.
    std::map<LaneKind, int> covered, rowsOfKind;
    for (const auto& row : layout.rows()) {
        if (row.firstLane != covered[row.kind]) return "row " + row.label + " leaves a gap";
        covered[row.kind] += row.laneCount;
        ++rowsOfKind[row.kind];
        if (row.subRows < 1 || row.subRows > row.laneCount) return "row " + row.label + " subRows";
    }
    if (covered[LaneKind::TensorCore] != p.numTensorCores) return "TC rows do not add up";
    if (covered[LaneKind::VectorCore] != p.numVectorCores) return "VC rows do not add up";
    if (covered[LaneKind::Link] != 1 || rowsOfKind[LaneKind::Link] != 1) return "link row";
    for (auto kind : {LaneKind::TensorCore, LaneKind::VectorCore})
        if (rowsOfKind[kind] > maxRows) return "too many rows";

    // Every scheduled operator appears, with exactly the lanes it holds; nothing else does.
    int scheduled = 0;
    for (std::size_t i = 0; i < s.tasks.size(); ++i) {
        const auto& t = s.tasks[i];
        const bool drawn = t.mode != TaskMode::None && t.durationSeconds > 0;
        scheduled += drawn;
        std::vector<const GanttBar*> mine;
        for (const auto& b : layout.bars())
            if (b.task == int(i)) mine.push_back(&b);
        if (!drawn && !mine.empty()) return "a Nop or zero-length task has a bar";
        if (!drawn) continue;
        if (mine.empty()) return "operator " + p.tasks[i].name + " is missing";
        const auto lanes = expandLanes(t.lanes);
        int held = 0;
        for (const auto* b : mine) {
            held += b->lanes;
            if (b->startSeconds != t.startSeconds || b->endSeconds != t.endSeconds())
                return "bar times differ from the schedule";
            if (b->opClass != p.tasks[i].opClass || b->mode != t.mode) return "class/mode";
        }
        if (held != int(lanes.size())) return "lane count of " + p.tasks[i].name;
        std::set<int> rowsHeld;
        for (const auto& lane : lanes) {
            const int r = rowByScan(layout, lane);
            rowsHeld.insert(r);
            const bool inBar = std::any_of(mine.begin(), mine.end(), [r](const GanttBar* b) {
                return b->firstRow <= r && r <= b->lastRow;
            });
            if (!inBar) return "lane " + toString(lane) + " of " + p.tasks[i].name + " not drawn";
        }
        // Bars are the maximal runs of adjacent held rows (of one kind unless parallel): count
        // the runs independently.
        int runs = 0, previous = -2;
        for (int r : rowsHeld) {
            const bool split =
                previous >= 0 && t.mode != TaskMode::IntraOpParallel &&
                layout.rows()[std::size_t(r)].kind != layout.rows()[std::size_t(previous)].kind;
            runs += r != previous + 1 || split;
            previous = r;
        }
        if (runs != int(mine.size())) return "bar count of " + p.tasks[i].name;
        if (t.mode == TaskMode::IntraOpParallel &&
            !(mine.size() == 1 && mine[0]->firstRow == 0 &&
              layout.rows()[std::size_t(mine[0]->lastRow)].kind == LaneKind::VectorCore))
            return "parallel " + p.tasks[i].name + " does not span every TC and VC row";
        if (p.tasks[i].opClass == OpClass::Fused && t.mode == TaskMode::OneCore && mine.size() != 2)
            return "one-core fused " + p.tasks[i].name + " is not two bars";
    }
    if (scheduled != layout.operatorCount()) return "operatorCount";

    // Inside [0, makespan]; per row, busy lanes never exceed the row's cores; subRows never clash.
    for (const auto& b : layout.bars()) {
        if (b.startSeconds < -eps || b.endSeconds > s.makespanSeconds + eps)
            return "bar outside [0, makespan]";
        if (b.subRow < 0 || b.subRow >= layout.rows()[std::size_t(b.firstRow)].subRows)
            return "subRow";
    }
    for (std::size_t r = 0; r < layout.rows().size(); ++r) {
        std::vector<std::pair<double, int>> events;  // (+lanes at start, −lanes at end)
        std::map<int, std::vector<std::pair<double, double>>> bySlot;
        for (const auto& b : layout.bars()) {
            if (b.firstRow > int(r) || b.lastRow < int(r)) continue;
            const auto& t = s.tasks[std::size_t(b.task)];
            int lanesHere = 0;
            for (const auto& lane : expandLanes(t.lanes))
                lanesHere += rowByScan(layout, lane) == int(r);
            events.push_back({b.startSeconds, lanesHere});
            events.push_back({b.endSeconds - eps, -lanesHere});
            if (b.firstRow == b.lastRow) bySlot[b.subRow].push_back({b.startSeconds, b.endSeconds});
        }
        std::sort(events.begin(), events.end());
        int busy = 0;
        for (const auto& [time, delta] : events) {
            busy += delta;
            if (busy > layout.rows()[r].laneCount)
                return "row " + layout.rows()[r].label + " over-booked";
        }
        for (auto& [subRow, spans] : bySlot) {
            std::sort(spans.begin(), spans.end());
            for (std::size_t k = 1; k < spans.size(); ++k)
                if (spans[k].first < spans[k - 1].second - eps) return "subRow overlap";
        }
    }
    return {};
}

}  // namespace

class TestGanttLayout : public QObject {
    Q_OBJECT

    struct Real {
        ScheduleProblem problem;
        std::shared_ptr<const LayerSchedule> schedule;
    };

    Real gpt3Layer(int tcs, int vcs, Direction d) {
        auto hardware = core::hardware::PresetLibrary::preset("tpuv4-like").value();
        hardware.accelerator.numTensorCores = tcs;
        hardware.accelerator.numVectorCores = vcs;
        const auto source = core::model::zooModel("gpt3-175b").value();
        core::model::BuildOptions options;
        options.tensorParallel = 8;
        const auto graph = source->build(options).value();
        const auto& layer = *graph.layers()[1].graph;  // layer.0: a transformer block
        const core::estimate::OperatorEstimator estimator(hardware.accelerator, hardware.cluster);
        const auto costs = core::estimate::LayerCostTable::build(estimator, layer);
        Real real{makeScheduleProblem(layer, d, costs, tcs, vcs), nullptr};
        std::string error;
        real.schedule = testing::solveChecked(real.problem, {}, error);
        if (!real.schedule) qWarning("%s", error.c_str());
        return real;
    }

private slots:
    void realGpt3Layers_data() {
        QTest::addColumn<int>("tcs");
        QTest::addColumn<int>("vcs");
        QTest::addColumn<bool>("forward");
        for (bool forward : {true, false}) {
            const char* d = forward ? "forward" : "backward";
            QTest::addRow("tpuv4-like %s", d) << 8 << 2 << forward;
            QTest::addRow("1 core %s", d) << 1 << 1 << forward;
            QTest::addRow("4096 cores %s", d) << 4096 << 4096 << forward;
            QTest::addRow("40 TC, 3 VC %s", d) << 40 << 3 << forward;
        }
    }

    void realGpt3Layers() {
        QFETCH(int, tcs);
        QFETCH(int, vcs);
        QFETCH(bool, forward);
        const auto real = gpt3Layer(tcs, vcs, forward ? Direction::Forward : Direction::Backward);
        QVERIFY(real.schedule);
        const auto layout = GanttLayout::build(real.problem, *real.schedule);
        QVERIFY2(layout, layout ? "" : layout.message().c_str());
        const std::string problem = check(real.problem, *real.schedule, *layout, 16);
        QVERIFY2(problem.empty(), problem.c_str());
        // Row count from the inputs: min(cores, 16) per kind, aggregated in equal ranges, + link.
        auto rowsFor = [](int cores) {
            const int per = cores <= 16 ? 1 : (cores + 15) / 16;
            return (cores + per - 1) / per;
        };
        QCOMPARE(int(layout->rows().size()), rowsFor(tcs) + rowsFor(vcs) + 1);
        QCOMPARE(layout->makespanSeconds(), real.schedule->makespanSeconds);
        QCOMPARE(layout->lowerBoundSeconds(), real.schedule->lowerBoundSeconds);
        QVERIFY(layout->operatorCount() > 0);
        if (tcs == 4096) {
            QCOMPARE(QString::fromStdString(layout->rows()[1].label),
                     QString::fromUtf8("TC 256–511 (256 cores)"));
        }
        if (tcs == 40) {  // ceil(40 / 16) = 3 per row: 13 rows of 3 and one of 1
            QCOMPARE(QString::fromStdString(layout->rows()[13].label), QString("TC 39 (1 core)"));
            QCOMPARE(QString::fromStdString(layout->rows()[14].label), QString("VC 0"));
        }
        // The same layout from the layer graph (the GUI's route) gives the same bars.
        const auto source = core::model::zooModel("gpt3-175b").value();
        core::model::BuildOptions options;
        options.tensorParallel = 8;
        const auto graph = source->build(options).value();
        const auto viaGraph =
            GanttLayout::build(*graph.layers()[1].graph,
                               forward ? Direction::Forward : Direction::Backward, *real.schedule);
        QVERIFY(viaGraph);
        QCOMPARE(viaGraph->bars().size(), layout->bars().size());
        QCOMPARE(viaGraph->tasks().back().name, real.problem.tasks.back().name);
    }

    void randomProblems() {
        int fusedSplit = 0, parallel = 0, aggregated = 0;
        for (std::uint64_t seed = 1; seed <= 300; ++seed) {
            const auto p = testing::randomProblem(seed, seed % 3 == 0 ? 12 : 0);
            std::string error;
            const auto s = testing::solveChecked(p, {}, error);
            QVERIFY2(s, error.c_str());
            // Small maxRows forces aggregation (e.g. 3 TCs in rows of 2 and 1).
            for (int maxRows : {16, 2, 1}) {
                const auto layout = GanttLayout::build(p, *s, maxRows);
                QVERIFY2(layout, layout ? "" : layout.message().c_str());
                const std::string problem = check(p, *s, *layout, maxRows);
                QVERIFY2(problem.empty(), (problem + " (seed " + std::to_string(seed) +
                                           ", maxRows " + std::to_string(maxRows) + ")")
                                              .c_str());
                for (const auto& b : layout->bars()) {
                    fusedSplit += b.opClass == OpClass::Fused && b.mode == TaskMode::OneCore;
                    parallel += b.mode == TaskMode::IntraOpParallel;
                    aggregated += layout->rows()[std::size_t(b.firstRow)].laneCount > 1;
                }
            }
        }
        // The random set must actually exercise the interesting cases.
        QVERIFY(fusedSplit > 20);
        QVERIFY(parallel > 20);
        QVERIFY(aggregated > 20);
    }

    void handMadeFusedAndParallel() {
        // t0 fused on TC1+VC0 alongside t1 on TC0; then t2 parallel on everything.
        ScheduleProblem p;
        p.numTensorCores = 2;
        p.numVectorCores = 1;
        p.tasks = {{"f", OpClass::Fused, 1, 1, 10, {}},
                   {"g", OpClass::TensorCore, 2, 1, 20, {}},
                   {"nop", OpClass::Nop, 0, 0, 0, {0, 1}},
                   {"par", OpClass::TensorCore, 4, 1, 30, {2}}};
        LayerSchedule s;
        s.numTensorCores = 2;
        s.numVectorCores = 1;
        s.tasks = {
            {0, 1, TaskMode::OneCore, {{LaneKind::TensorCore, 1, 1}, {LaneKind::VectorCore, 0, 1}}},
            {0, 2, TaskMode::OneCore, {{LaneKind::TensorCore, 0, 1}}},
            {2, 0, TaskMode::None, {}},
            {2,
             1,
             TaskMode::IntraOpParallel,
             {{LaneKind::TensorCore, 0, 2}, {LaneKind::VectorCore, 0, 1}}}};
        s.makespanSeconds = 3;
        s.lowerBoundSeconds = 3;
        const auto layout = GanttLayout::build(p, s);
        QVERIFY(layout);
        QCOMPARE(layout->operatorCount(), 3);
        QCOMPARE(int(layout->bars().size()), 4);  // f twice (TC 1 and VC 0), g, par
        const auto& par = layout->bars().back();
        QCOMPARE(par.task, 3);
        QCOMPARE(par.firstRow, 0);
        QCOMPARE(par.lastRow, 2);  // TC 0, TC 1, VC 0
        QCOMPARE(par.lanes, 3);
        QVERIFY(check(p, s, *layout, 16).empty());
    }

    void badInputIsAnError() {
        const auto p = testing::randomProblem(7);
        std::string error;
        const auto s = testing::solveChecked(p, {}, error);
        QVERIFY(s);
        const auto zeroRows = GanttLayout::build(p, *s, 0);
        QVERIFY(!zeroRows);
        QVERIFY(zeroRows.message().find("maxRowsPerClass") != std::string::npos);
        auto fewer = p;
        fewer.tasks.pop_back();
        QVERIFY(!GanttLayout::build(fewer, *s));
        auto outside = *s;
        for (auto& t : outside.tasks)
            if (!t.lanes.empty() && t.durationSeconds > 0) t.lanes[0].first = 1000;
        const auto lanes = GanttLayout::build(p, outside);
        QVERIFY(!lanes);
        QVERIFY2(lanes.message().find("outside the chip") != std::string::npos,
                 lanes.message().c_str());
        auto negative = *s;
        negative.tasks[0].startSeconds = -1;
        QVERIFY(!GanttLayout::build(p, negative));
        auto otherChip = p;
        otherChip.numTensorCores += 1;
        QVERIFY(!GanttLayout::build(otherChip, *s));
    }
};

QTEST_APPLESS_MAIN(TestGanttLayout)
#include "test_gantt_layout.moc"
