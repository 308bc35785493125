// The exact solver against brute force on hundreds of random small problems (chains, chains with
// skip edges, branching DAGs; ≤ 8 layers, ≤ 16 devices; both cost models; recompute off, on,
// auto and (native) selective; random HBM limits): the optimum must equal the brute-force minimum
// bit for bit, and every returned plan is re-priced by the independent oracle, checked for
// structure (each layer once, stages contiguous, devices within the cluster, a consistent device
// map) and for memory. Solving with pruning by bounds off, with chain candidates shared with the
// same problem under other recomputation settings, or (native) with a time to beat just above
// the plan's, must give the identical plan; a time to beat equal to it, none.
#include <QtTest>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include "core/placement/placement_solver.h"
#include "oracle/brute_force.h"
#include "oracle/random_problem.h"

using namespace tandem::core::placement;
using tandem::core::hardware::Recompute;

namespace {

// Checks a plan's structure; returns an empty string or what is wrong.
QString structureProblem(const PlacementProblem& pb, const Plan& plan) {
    const LayerCostSet* set = pb.width(plan.tensorParallel);
    if (!set) return "unknown width";
    const int n = int(set->layers.size());
    std::set<int> placed;
    std::int64_t perPipeline = 0;
    for (std::size_t k = 0; k < plan.stages.size(); ++k) {
        const StagePlan& st = plan.stages[k];
        if (st.layers.empty()) return QString("stage %1 is empty").arg(k);
        if (st.position != int(plan.stages.size() - k)) return QString("stage %1 position").arg(k);
        for (int v : st.layers)
            if (!placed.insert(v).second) return QString("layer %1 placed twice").arg(v);
        // Prefix closed under predecessors: every edge into this stage comes from a placed layer.
        for (const auto& e : set->edges)
            if (std::count(st.layers.begin(), st.layers.end(), e.to) && !placed.count(e.from))
                return QString("edge %1->%2 points backwards across stages").arg(e.from).arg(e.to);
        if (st.memory.totalBytes > st.memory.capacityBytes)
            return QString("stage %1 memory %2 > capacity %3")
                .arg(k)
                .arg(st.memory.totalBytes)
                .arg(st.memory.capacityBytes);
        const double sum = st.memory.weightsBytes + st.memory.gradientsBytes +
                           st.memory.optimizerBytes + st.memory.activationsBytes +
                           st.memory.stashBytes;
        if (std::fabs(sum - st.memory.totalBytes) > 1e-9 * std::max(1.0, sum))
            return QString("stage %1 memory parts do not add up").arg(k);
        perPipeline += st.devices;
    }
    if (int(placed.size()) != n) return "not every layer is placed";
    if (perPipeline * plan.dataParallel > pb.cluster.devices) return "too many devices";
    if (perPipeline != plan.devicesPerPipeline) return "devicesPerPipeline";
    if (std::int64_t(plan.devices.size()) != pb.cluster.devices) return "device map size";
    std::set<std::tuple<int, int, int>> taken;
    std::int64_t busy = 0;
    for (const DeviceAssignment& a : plan.devices) {
        if (a.idle()) continue;
        ++busy;
        if (a.replica < 0 || a.replica >= plan.dataParallel || a.stage < 0 ||
            a.stage >= int(plan.stages.size()) || a.tensorRank < 0 ||
            a.tensorRank >= plan.stages[std::size_t(a.stage)].devices)
            return "device map entry out of range";
        if (!taken.insert({a.replica, a.stage, a.tensorRank}).second) return "device map repeats";
    }
    if (busy != plan.devicesUsed) return "device map does not cover devicesUsed";
    return {};
}

std::vector<std::vector<int>> stagesOf(const Plan& plan) {
    std::vector<std::vector<int>> stages;
    for (const StagePlan& st : plan.stages) stages.push_back(st.layers);
    return stages;
}

}  // namespace

class TestPlacementOracle : public QObject {
    Q_OBJECT

    void runMany(oracle::Shape shape, CostModelKind model, int count, std::uint64_t seed) {
        std::mt19937_64 rng(seed);
        int feasible = 0, infeasible = 0, pruned = 0, reuses = 0, optimal = 0, bounded = 0;
        double worstGap = 0;  // native: the plan's time over the best there is, minus 1
        std::int64_t plans = 0;
        for (int i = 0; i < count; ++i) {
            const PlacementProblem pb =
                oracle::randomProblem(rng, shape, 8, 16, model == CostModelKind::Native);
            QVERIFY2(pb.validate().ok(),
                     qPrintable(QString::fromStdString(pb.validate().message())));
            SolverOptions options;
            options.costModel = model;
            const auto result = PlacementSolver(options).solve(pb);
            QVERIFY2(result.ok(), result.ok() ? "" : result.message().c_str());
            // Skipping widths by their lower bound changes nothing (the plain solver agrees).
            pruned += result->statistics.widthsPruned;
            SolverOptions plainOptions = options;
            plainOptions.pruneByBound = false;
            const auto plain = PlacementSolver(plainOptions).solve(pb);
            QVERIFY(plain.ok() && plain->statistics.widthsPruned == 0);
            QCOMPARE(plain->plan.has_value(), result->plan.has_value());
            if (plain->plan) {
                QCOMPARE(plain->plan->timePerBatchSeconds, result->plan->timePerBatchSeconds);
                QCOMPARE(plain->plan->tensorParallel, result->plan->tensorParallel);
                QCOMPARE(plain->plan->dataParallel, result->plan->dataParallel);
                QVERIFY(stagesOf(*plain->plan) == stagesOf(*result->plan));
            }
            // A time to beat keeps the plan when the plan beats it, by however little, and
            // leaves no plan when it does not; the partitions it lets the DP drop (their Lmax
            // rules them out) are never the plan's.
            if (model == CostModelKind::Native && result->plan) {
                const double t = result->plan->timePerBatchSeconds;
                for (const double beat :
                     {std::nextafter(t, std::numeric_limits<double>::infinity()), t * 1.5}) {
                    SolverOptions beating = options;
                    beating.mustBeatSeconds = beat;
                    const auto again = PlacementSolver(beating).solve(pb);
                    QVERIFY(again.ok() && again->plan);
                    QCOMPARE(again->plan->timePerBatchSeconds, t);
                    QCOMPARE(again->plan->tensorParallel, result->plan->tensorParallel);
                    QCOMPARE(again->plan->dataParallel, result->plan->dataParallel);
                    QVERIFY(stagesOf(*again->plan) == stagesOf(*result->plan));
                }
                for (const bool prune : {true, false}) {
                    SolverOptions beating = options;
                    beating.mustBeatSeconds = t;
                    beating.pruneByBound = prune;
                    const auto none = PlacementSolver(beating).solve(pb);
                    QVERIFY(none.ok() && !none->plan);
                    QVERIFY(none->infeasibleReason.find("faster than the time to beat") !=
                            std::string::npos);
                }
                ++bounded;
            }
            // Chain candidates shared with the same problem under the other recomputation
            // settings (as a search shares them) change nothing either.
            StageCandidateCache shared;
            SolverOptions sharedOptions = options;
            sharedOptions.candidateCache = &shared;
            for (auto mode :
                 {Recompute::Off, Recompute::On, Recompute::Auto, Recompute::Selective}) {
                PlacementProblem other = pb;
                other.training.recompute = mode;
                (void)PlacementSolver(sharedOptions).solve(other);
            }
            const auto reused = PlacementSolver(sharedOptions).solve(pb);
            QVERIFY(reused.ok());
            reuses += reused->statistics.candidateReuses;
            QCOMPARE(reused->plan.has_value(), result->plan.has_value());
            if (reused->plan) {
                QCOMPARE(reused->plan->timePerBatchSeconds, result->plan->timePerBatchSeconds);
                QCOMPARE(reused->plan->tensorParallel, result->plan->tensorParallel);
                QCOMPARE(reused->plan->dataParallel, result->plan->dataParallel);
                QVERIFY(stagesOf(*reused->plan) == stagesOf(*result->plan));
            }
            const oracle::BruteForceResult bf = oracle::bruteForce(pb, model);
            plans += bf.plansTried;
            const QString where = QString("case %1 (seed %2)").arg(i).arg(seed);
            if (bf.best == oracle::kInf) {
                ++infeasible;
                QVERIFY2(!result->plan,
                         qPrintable(where + ": solver found a plan, brute force none"));
                QVERIFY(!result->infeasibleReason.empty());
                continue;
            }
            ++feasible;
            QVERIFY2(result->plan.has_value(), qPrintable(where + ": solver found no plan"));
            const Plan& plan = *result->plan;
            if (model == CostModelKind::PhazeCompat) {
                QVERIFY2(plan.timePerBatchSeconds == bf.best,
                         qPrintable(where + QString(": solver %1, brute force %2")
                                                .arg(plan.timePerBatchSeconds, 0, 'g', 17)
                                                .arg(bf.best, 0, 'g', 17)));
            } else {
                // Native: the fronts are exact in (Lmax, Q) and ΣL rides along, so the plan is
                // never slower than the best Lmax·(m + S − 1) + sync (each stage ≤ Lmax, so
                // ΣL ≤ S·Lmax; 1e-12 for the different summation), never faster than the best
                // plan there is, and usually that plan.
                const double bound = oracle::bruteForce(pb, model, oracle::Objective::Bound).best;
                QVERIFY2(plan.timePerBatchSeconds >= bf.best &&
                             plan.timePerBatchSeconds <= bound * (1 + 1e-12),
                         qPrintable(where + QString(": solver %1, brute force %2, bound %3")
                                                .arg(plan.timePerBatchSeconds, 0, 'g', 17)
                                                .arg(bf.best, 0, 'g', 17)
                                                .arg(bound, 0, 'g', 17)));
                if (plan.timePerBatchSeconds == bf.best)
                    ++optimal;
                else
                    worstGap = std::max(worstGap, plan.timePerBatchSeconds / bf.best - 1);
            }
            const double again = oracle::planTime(pb, model, *pb.width(plan.tensorParallel),
                                                  plan.dataParallel, stagesOf(plan));
            QVERIFY2(again == plan.timePerBatchSeconds,
                     qPrintable(where + QString(": re-priced %1").arg(again, 0, 'g', 17)));
            const QString wrong = structureProblem(pb, plan);
            QVERIFY2(wrong.isEmpty(), qPrintable(where + ": " + wrong));
            QCOMPARE(plan.throughputSamplesPerSecond,
                     plan.timePerBatchSeconds > 0
                         ? double(pb.training.globalBatch) / plan.timePerBatchSeconds
                         : std::numeric_limits<double>::infinity());
            if (shape != oracle::Shape::Dag) {  // the downset path must agree on chains
                options.forceDownsets = true;
                const auto viaDownsets = PlacementSolver(options).solve(pb);
                QVERIFY(viaDownsets.ok() && viaDownsets->plan);
                QVERIFY2(viaDownsets->plan->timePerBatchSeconds == plan.timePerBatchSeconds,
                         qPrintable(where));
            }
        }
        qInfo(
            "%s %s: %d feasible + %d infeasible problems, %lld brute-force plans, %d widths "
            "pruned",
            shape == oracle::Shape::Dag     ? "DAG"
            : shape == oracle::Shape::Chain ? "chain"
                                            : "skip-chain",
            std::string(toString(model)).c_str(), feasible, infeasible, (long long)plans, pruned);
        if (model == CostModelKind::Native) {
            qInfo("  native: %d of %d plans the fastest there is, the others within %.2f %%",
                  optimal, feasible, 100 * worstGap);
            QVERIFY(optimal >= feasible * 3 / 4);  // ΣL riding along finds most optima
        }
        QVERIFY(feasible > count / 4);  // the generator must exercise real plans
        QVERIFY(infeasible > 0);        // and memory limits that bite
        if (model == CostModelKind::Native) QVERIFY(pruned > 0);   // and the width bound
        if (model == CostModelKind::Native) QVERIFY(bounded > 0);  // and the time to beat
        QVERIFY(reuses > 0);  // and the shared candidates (chain-like graphs; DAGs may be)
    }

private slots:
    void chainsPhaze() { runMany(oracle::Shape::Chain, CostModelKind::PhazeCompat, 200, 11); }
    void chainsNative() { runMany(oracle::Shape::Chain, CostModelKind::Native, 200, 12); }
    void skipChainsPhaze() {
        runMany(oracle::Shape::ChainWithSkips, CostModelKind::PhazeCompat, 100, 13);
    }
    void skipChainsNative() {
        runMany(oracle::Shape::ChainWithSkips, CostModelKind::Native, 100, 14);
    }
    void dagsPhaze() { runMany(oracle::Shape::Dag, CostModelKind::PhazeCompat, 150, 15); }
    void dagsNative() { runMany(oracle::Shape::Dag, CostModelKind::Native, 150, 16); }

    void oracleCanFail() {
        // The comparison must be able to fail: a deliberately wrong plan prices differently.
        std::mt19937_64 rng(99);
        for (int i = 0; i < 50; ++i) {
            const PlacementProblem pb = oracle::randomProblem(rng, oracle::Shape::Chain);
            const auto result = PlacementSolver().solve(pb);
            QVERIFY(result.ok());
            if (!result->plan || result->plan->stages.size() < 2) continue;
            auto stages = stagesOf(*result->plan);
            stages.front().insert(stages.front().end(), stages[1].begin(), stages[1].end());
            stages.erase(stages.begin() + 1);
            const double merged =
                oracle::planTime(pb, CostModelKind::Native, *pb.width(result->plan->tensorParallel),
                                 result->plan->dataParallel, stages);
            QVERIFY(merged >= result->plan->timePerBatchSeconds);
            if (merged != result->plan->timePerBatchSeconds) return;
        }
        QFAIL("no plan whose merged variant prices differently");
    }
};

QTEST_GUILESS_MAIN(TestPlacementOracle)
#include "test_placement_oracle.moc"
