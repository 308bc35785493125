// Acceptance: on 320 seeded random DAGs of 2–9 tasks (mixed classes including Fused, Collective
// and Nop, 1–3 cores per kind) the fast path, the fast path with its MILP doing all the proving
// (state-space search off), and PHAZE's reference formulation return the makespan of an
// exhaustive search; every schedule passes the validator. The reference ILP is weak: it gets a
// CBC node limit, a work limit that stops at the same place on every machine, and must prove at
// least 9 in 10 instances within it (it proves 299 of 320). Where it does not, it must say so
// (Feasible) and still return a valid schedule whose bound does not exceed the optimum; where it
// claims optimality it must agree. Time limits here are only watchdogs against hangs.
#include <QtTest>

#include "brute_force_scheduler.h"
#include "schedule_test_support.h"

using namespace tandem;
using core::schedule::Formulation;
using core::schedule::ProofStage;
using core::schedule::ScheduleOptions;
using core::schedule::ScheduleStatus;

class TestScheduleOracle : public QObject {
    Q_OBJECT

private slots:
    void randomDagsMatchBruteForce() {
        constexpr int kInstances = 320;
        struct Config {
            const char* name;
            ScheduleOptions options;
            bool mayStopEarly;  // at its node limit
            int optimal = 0, bySearch = 0, byMilp = 0;
        };
        Config configs[3] = {
            {"fast", {}, false}, {"fast/milp-only", {}, false}, {"reference", {}, true}};
        configs[1].options.searchExpansionLimit = 0;
        configs[2].options.formulation = Formulation::Reference;
        configs[2].options.milpNodeLimit = 600;
        for (Config& config : configs) config.options.timeLimitSeconds = 600;
        int maxTasks = 0;
        long long oracleNodes = 0;
        for (int seed = 1; seed <= kInstances; ++seed) {
            const auto problem = testing::randomProblem(static_cast<std::uint64_t>(seed));
            maxTasks = std::max(maxTasks, static_cast<int>(problem.tasks.size()));
            testing::BruteForceScheduler oracle(problem);
            const double optimum = oracle.optimalMakespan();
            oracleNodes += oracle.nodes();
            for (Config& config : configs) {
                std::string error;
                const auto s = testing::solveChecked(problem, config.options, error);
                const QString where = QString("seed %1, %2").arg(seed).arg(config.name);
                QVERIFY2(s, qPrintable(where + ": " + QString::fromStdString(error)));
                // Never better than the optimum, whatever the status.
                QVERIFY2(s->makespanSeconds >= optimum * (1 - 1e-9), qPrintable(where));
                QVERIFY2(s->lowerBoundSeconds <= optimum * (1 + 1e-9), qPrintable(where));
                if (s->status != ScheduleStatus::Optimal) {
                    QVERIFY2(config.mayStopEarly && s->status == ScheduleStatus::Feasible,
                             qPrintable(where + ": status " +
                                        QString::fromStdString(std::string(toString(s->status)))));
                    continue;
                }
                ++config.optimal;
                config.bySearch += s->stats.provedBy == ProofStage::Search ? 1 : 0;
                config.byMilp += s->stats.provedBy == ProofStage::Milp ? 1 : 0;
                QVERIFY2(testing::sameMakespan(s->makespanSeconds, optimum),
                         qPrintable(where + QString(": makespan %1, brute force %2")
                                                .arg(s->makespanSeconds, 0, 'g', 17)
                                                .arg(optimum, 0, 'g', 17)));
            }
        }
        for (const Config& c : configs)
            qInfo("%s: %d/%d optimal (%d proved by the state-space search, %d by CBC)", c.name,
                  c.optimal, kInstances, c.bySearch, c.byMilp);
        qInfo("largest instance %d tasks; brute force visited %lld nodes", maxTasks, oracleNodes);
        QCOMPARE(maxTasks, 9);
        QCOMPARE(configs[0].optimal, kInstances);
        QCOMPARE(configs[1].optimal, kInstances);
        // Each stage must actually be exercised, not only the bound shortcut.
        QVERIFY(configs[0].bySearch >= 20);
        QVERIFY(configs[1].byMilp >= 50);
        QVERIFY(configs[2].optimal >= kInstances * 9 / 10);
    }

    void oracleDistinguishesModes() {
        // The oracle itself must be able to fail: two independent TC tasks on 2 TCs.
        core::schedule::ScheduleProblem p;
        p.numTensorCores = 2;
        p.numVectorCores = 1;
        for (int i = 0; i < 2; ++i) {
            core::schedule::ScheduleTask t;
            t.opClass = core::model::OpClass::TensorCore;
            t.oneCoreSeconds = 4;
            t.allCoresSeconds = 1.5;
            p.tasks.push_back(t);
        }
        QCOMPARE(testing::BruteForceScheduler(p).optimalMakespan(), 3.0);  // parallel, serial
        p.tasks[1].allCoresSeconds = 3;  // now 1.5 + 3 = 4.5 serial; both one-core at once: 4
        QCOMPARE(testing::BruteForceScheduler(p).optimalMakespan(), 4.0);
        p.tasks[1].predecessors = {0};  // a chain: 1.5 + 3
        QCOMPARE(testing::BruteForceScheduler(p).optimalMakespan(), 4.5);
        p.tasks[0].predecessors = {1};  // its precondition (predecessors first) is checked
        QVERIFY(std::isnan(testing::BruteForceScheduler(p).optimalMakespan()));
    }
};

QTEST_GUILESS_MAIN(TestScheduleOracle)
#include "test_schedule_oracle.moc"
