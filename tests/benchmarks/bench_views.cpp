// Views benchmark: the replot times the view tests used to assert, measured here instead (the
// tests check what is drawn, not how long it takes). Offscreen unless QT_QPA_PLATFORM says
// otherwise; GUI-thread CPU time with wall time alongside, median and worst of --repeat runs.
//   - core PipelineTimeline::build for 64 stages × 512 microbatches (65,536 blocks);
//   - the Pipeline tab's chart on that timeline (1400 × 800): full replot, zoomed replot;
//   - the Placement tab's device map of 65,536 devices: full replot;
//   - the Schedule tab's Gantt chart on a 4,000-operator layer: setLayout, one keyboard zoom step
//     (zoom + replot; 20 in and Home out, per step).
// Goals (what the tests asserted before): timeline ≤ 100 ms, full pipeline and device-map
// replots ≤ 200 ms, Gantt setLayout ≤ 1 s and 21 zoom steps ≤ 3 s.
//
// Usage: bench_views [--repeat N]
#include <QApplication>
#include <QElapsedTimer>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "core/placement/pipeline_timeline.h"
#include "core/schedule/gantt_layout.h"
#include "tests/ui/placement_views/synthetic_plan.h"
#include "ui/charts/device_map_chart.h"
#include "ui/charts/gantt_chart.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/panels/pipeline_view.h"
#include "ui/panels/placement_view.h"

using namespace tandem;
namespace sch = core::schedule;

namespace {

double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Runs `work` `repeat` times; prints median and worst GUI-thread CPU and wall milliseconds.
template <class F>
void report(const char* what, int repeat, F&& work) {
    std::vector<double> cpu, wall;
    for (int i = 0; i < repeat; ++i) {
        QElapsedTimer timer;
        timer.start();
        const double cpu0 = threadCpuMs();
        work();
        cpu.push_back(threadCpuMs() - cpu0);
        wall.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(cpu.begin(), cpu.end());
    std::sort(wall.begin(), wall.end());
    std::printf("%-58s CPU median %7.1f ms  worst %7.1f | wall median %7.1f  worst %7.1f\n", what,
                cpu[cpu.size() / 2], cpu.back(), wall[wall.size() / 2], wall.back());
    std::fflush(stdout);
}

// 4,000 one-core GEMMs, 500 rounds on 8 TCs (the Schedule tab test's large layer).
std::shared_ptr<const sch::GanttLayout> largeLayer() {
    const int n = 4000, tcs = 8;
    sch::ScheduleProblem problem;
    problem.numTensorCores = tcs;
    problem.numVectorCores = 2;
    sch::LayerSchedule schedule;
    schedule.numTensorCores = tcs;
    schedule.numVectorCores = 2;
    const double d = 1e-6;
    for (int i = 0; i < n; ++i) {
        problem.tasks.push_back(
            {"gemm." + std::to_string(i), core::model::OpClass::TensorCore, d, d, 1e6, {}});
        schedule.tasks.push_back(
            {(i / tcs) * d, d, sch::TaskMode::OneCore, {{sch::LaneKind::TensorCore, i % tcs, 1}}});
    }
    schedule.makespanSeconds = (n / tcs) * d;
    schedule.lowerBoundSeconds = schedule.makespanSeconds;
    auto layout = sch::GanttLayout::build(problem, schedule);
    if (!layout) {
        std::fprintf(stderr, "gantt layout: %s\n", layout.message().c_str());
        std::exit(1);
    }
    return std::make_shared<const sch::GanttLayout>(std::move(*layout));
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int repeat = 5;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: bench_views [--repeat N]\n");
            return 2;
        }
    }
    std::printf("bench_views: median and worst of %d runs, offscreen\n", repeat);

    const auto pipelinePlan =
        std::make_shared<const core::placement::Plan>(test::syntheticPlan(64, 512, 1, 1));
    report("pipeline timeline build, 64 x 512 (65,536 blocks)", repeat, [&] {
        if (!core::placement::PipelineTimeline::build(*pipelinePlan)) std::exit(1);
    });

    {
        ui::PipelineView view;
        view.resize(1400, 800);
        view.setPlan(pipelinePlan);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view)) return 1;
        auto* chart = view.chart();
        report("pipeline chart full replot (resetView), 65,536 blocks", repeat,
               [&] { chart->resetView(); });
        report("pipeline chart zoomed replot (60 ms x 16 stages)", repeat,
               [&] { chart->showRange(0, 0.06, 0, 15); });
    }
    {
        auto plan = std::make_shared<core::placement::Plan>(test::syntheticPlan(60, 64, 4, 256));
        core::placement::assignDevices(*plan, 65536);
        ui::PlacementView view;
        view.resize(1400, 800);
        view.setPlan(plan, {}, 65536);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view)) return 1;
        report("device map full replot (resetView), 65,536 devices", repeat,
               [&] { view.deviceMap()->resetView(); });
    }
    {
        const auto layout = largeLayer();
        ui::GanttChart chart;
        chart.resize(1000, 600);
        chart.show();
        if (!QTest::qWaitForWindowExposed(&chart)) return 1;
        report("gantt setLayout, 4,000 operators", repeat, [&] {
            chart.setLayout(nullptr);
            chart.setLayout(layout, "synthetic");
        });
        report("gantt 21 keyboard zoom steps (20 in, Home)", repeat, [&] {
            for (int i = 0; i < 20; ++i) QTest::keyClick(&chart, Qt::Key_Plus);
            QTest::keyClick(&chart, Qt::Key_Home);
        });
    }
    return 0;
}
