// Zoo-wide check: every unique layer (forward and backward) of every zoo model, at t = 1
// and t = 8 (where the model divides by 8), on the TPUv4-like chip and on chips across PHAZE's
// space — 1 TC / 1 VC, a few cores, and 4,096 cores — is scheduled with status Optimal, and
// every schedule passes the validator and respects the combinatorial lower bounds recomputed
// here independently (critical path of fastest latencies; total work per core class).
#include <QtTest>
#include <algorithm>

#include "core/estimate/layer_cost_table.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/model/transformer_source.h"
#include "core/schedule/model_schedule.h"
#include "core/schedule/schedule_validator.h"

using namespace tandem::core;

namespace {
struct Chip {
    const char* label;
    std::int64_t tcs, rows, cols, vcs, lanes, glbMiB;
};

// The reference chip plus eight configurations from PHAZE's search space.
const Chip kChips[] = {
    {"tpuv4-like", 8, 128, 128, 2, 128, 128},  {"1 TC / 1 VC", 1, 256, 256, 1, 256, 128},
    {"2 TC / 1 VC", 2, 128, 64, 1, 64, 32},    {"1 TC / 4 VC", 1, 128, 128, 4, 128, 64},
    {"4 TC / 2 VC", 4, 64, 64, 2, 64, 16},     {"16 TC / 16 VC", 16, 32, 32, 16, 32, 8},
    {"64 TC / 8 VC", 64, 16, 16, 8, 16, 64},   {"4096 TC / 4096 VC", 4096, 2, 2, 4096, 2, 2},
    {"4096 TC / 1 VC", 4096, 4, 4, 1, 4, 128},
};

// Independent lower bound: longest path with each task's fastest duration.
double criticalPath(const schedule::ScheduleProblem& p) {
    std::vector<double> finish(p.tasks.size(), 0.0);
    double longest = 0;
    for (std::size_t i = 0; i < p.tasks.size(); ++i) {  // tasks are in topological order
        double start = 0;
        for (int pred : p.tasks[i].predecessors) start = std::max(start, finish[std::size_t(pred)]);
        const auto& t = p.tasks[i];
        double fastest = t.oneCoreSeconds;
        if (t.opClass != model::OpClass::Collective && t.opClass != model::OpClass::Nop)
            fastest = std::min(fastest, t.allCoresSeconds);
        if (t.opClass == model::OpClass::Nop) fastest = 0;
        finish[i] = start + fastest;
        longest = std::max(longest, finish[i]);
    }
    return longest;
}
}  // namespace

class TestScheduleZoo : public QObject {
    Q_OBJECT

private slots:
    void everyZooLayerIsOptimal() {
        const schedule::LayerScheduler scheduler;
        const schedule::ScheduleValidator validator;
        const auto base = hardware::PresetLibrary::preset("tpuv4-like");
        QVERIFY(base.ok());
        int solved = 0;
        for (const auto& entry : model::zooModels()) {
            const auto source = model::zooModel(entry.name);
            QVERIFY2(source.ok(), entry.name.c_str());
            for (std::int64_t t : {1, 8}) {
                model::BuildOptions options;
                options.tensorParallel = t;
                const auto graph = (*source)->build(options);
                if (!graph) {
                    // Only t = 8 on a model whose heads do not divide by 8 may fail.
                    QVERIFY2(t == 8, graph.message().c_str());
                    continue;
                }
                for (const Chip& chip : kChips) {
                    auto acc = base->accelerator;
                    acc.numTensorCores = chip.tcs;
                    acc.tensorCoreRows = chip.rows;
                    acc.tensorCoreCols = chip.cols;
                    acc.numVectorCores = chip.vcs;
                    acc.vectorCoreLanes = chip.lanes;
                    acc.globalBufferBytes = chip.glbMiB << 20;
                    const estimate::OperatorEstimator estimator(acc, base->cluster);
                    const auto schedules = schedule::scheduleModel(*graph, estimator, scheduler);
                    QVERIFY2(schedules.ok(), schedules.ok() ? "" : schedules.message().c_str());
                    for (std::size_t u = 0; u < schedules->unique.size(); ++u) {
                        const auto& us = schedules->unique[u];
                        const auto costs = estimate::LayerCostTable::build(estimator, *us.graph);
                        for (auto d :
                             {schedule::Direction::Forward, schedule::Direction::Backward}) {
                            const auto& s =
                                d == schedule::Direction::Forward ? *us.forward : *us.backward;
                            const auto problem = schedule::makeScheduleProblem(
                                *us.graph, d, costs, int(chip.tcs), int(chip.vcs));
                            const QString where =
                                QString("%1 t=%2 %3 unique layer %4 %5")
                                    .arg(entry.name.c_str())
                                    .arg(t)
                                    .arg(chip.label)
                                    .arg(u)
                                    .arg(d == schedule::Direction::Forward ? "forward"
                                                                           : "backward");
                            QVERIFY2(s.status == schedule::ScheduleStatus::Optimal,
                                     qPrintable(where + ": " +
                                                QString::fromUtf8(toString(s.status).data())));
                            const auto valid = validator.validate(problem, s);
                            QVERIFY2(
                                valid.ok(),
                                qPrintable(where + ": " + QString::fromStdString(valid.message())));
                            const double cp = criticalPath(problem);
                            QVERIFY2(s.makespanSeconds >= cp * (1 - 1e-9), qPrintable(where));
                            QVERIFY(s.lowerBoundSeconds <= s.makespanSeconds * (1 + 1e-9));
                            ++solved;
                        }
                    }
                }
            }
        }
        qInfo("%d unique layer directions solved optimally", solved);
        QVERIFY(solved >= 8 * 9 * 3 * 2);
    }
};

QTEST_GUILESS_MAIN(TestScheduleZoo)
#include "test_schedule_zoo.moc"
