// The exact solver against the textbook DP with the full device dimension (oracle/reference_dp.h)
// on random chains larger than brute force can handle (≤ 20 layers, ≤ 64 devices, both cost
// models, recompute off/on/auto, with and without skip edges): same optimum bit for bit, same
// width and data-parallel degree. Also: the layer order of the input does not matter.
#include <QtTest>
#include <algorithm>
#include <numeric>
#include <random>

#include "core/placement/placement_solver.h"
#include "oracle/random_problem.h"
#include "oracle/reference_dp.h"

using namespace tandem::core::placement;

namespace {

// The same problem with its layers listed in another order.
PlacementProblem permuted(const PlacementProblem& pb, const std::vector<int>& newIndexOf) {
    PlacementProblem out = pb;
    for (std::size_t w = 0; w < pb.widths.size(); ++w) {
        for (std::size_t v = 0; v < pb.widths[w].layers.size(); ++v)
            out.widths[w].layers[std::size_t(newIndexOf[v])] = pb.widths[w].layers[v];
        for (auto& e : out.widths[w].edges) {
            e.from = newIndexOf[std::size_t(e.from)];
            e.to = newIndexOf[std::size_t(e.to)];
        }
    }
    return out;
}

}  // namespace

class TestPlacementReference : public QObject {
    Q_OBJECT

    void compare(oracle::Shape shape, CostModelKind model, int count, std::uint64_t seed) {
        std::mt19937_64 rng(seed);
        int feasible = 0;
        for (int i = 0; i < count; ++i) {
            const PlacementProblem pb =
                oracle::randomProblem(rng, shape, 20, 64, model == CostModelKind::Native);
            SolverOptions options;
            options.costModel = model;
            const auto result = PlacementSolver(options).solve(pb);
            QVERIFY2(result.ok(), result.ok() ? "" : result.message().c_str());
            const oracle::ReferenceResult ref = oracle::referenceDp(pb, model);
            const QString where = QString("case %1 (seed %2)").arg(i).arg(seed);
            if (ref.best == oracle::kInf) {
                QVERIFY2(!result->plan, qPrintable(where));
                continue;
            }
            ++feasible;
            QVERIFY2(result->plan, qPrintable(where + ": no plan"));
            QVERIFY2(result->plan->timePerBatchSeconds == ref.best,
                     qPrintable(where + QString(": solver %1, reference %2")
                                            .arg(result->plan->timePerBatchSeconds, 0, 'g', 17)
                                            .arg(ref.best, 0, 'g', 17)));
            QCOMPARE(result->plan->tensorParallel, ref.t);
            QCOMPARE(result->plan->dataParallel, ref.d);
        }
        qInfo("%s: %d of %d random problems feasible, all equal to the reference DP",
              std::string(toString(model)).c_str(), feasible, count);
        QVERIFY(feasible > count / 4);
    }

private slots:
    void chainsPhaze() { compare(oracle::Shape::Chain, CostModelKind::PhazeCompat, 120, 21); }
    void chainsNative() { compare(oracle::Shape::Chain, CostModelKind::Native, 120, 22); }
    void skipChainsPhaze() {
        compare(oracle::Shape::ChainWithSkips, CostModelKind::PhazeCompat, 60, 23);
    }
    void skipChainsNative() {
        compare(oracle::Shape::ChainWithSkips, CostModelKind::Native, 60, 24);
    }

    void referenceCanFail() {
        // A wrong answer must be caught: shrink HBM so the old optimum no longer fits.
        std::mt19937_64 rng(5);
        for (int i = 0; i < 100; ++i) {
            PlacementProblem pb = oracle::randomProblem(rng, oracle::Shape::Chain, 12, 32);
            const auto before = oracle::referenceDp(pb, CostModelKind::Native);
            if (before.best == oracle::kInf) continue;
            pb.hbmCapacityBytes *= 0.5;
            const auto after = oracle::referenceDp(pb, CostModelKind::Native);
            if (after.best != before.best) return;
        }
        QFAIL("halving HBM never changed the reference optimum");
    }

    void layerOrderDoesNotMatter() {
        std::mt19937_64 rng(31);
        for (int i = 0; i < 60; ++i) {
            const auto shape = i % 2 ? oracle::Shape::Dag : oracle::Shape::ChainWithSkips;
            const PlacementProblem pb = oracle::randomProblem(rng, shape, 8, 16);
            const int n = int(pb.widths.front().layers.size());
            std::vector<int> newIndexOf(static_cast<std::size_t>(n));
            std::iota(newIndexOf.begin(), newIndexOf.end(), 0);
            std::shuffle(newIndexOf.begin(), newIndexOf.end(), rng);
            const PlacementProblem shuffled = permuted(pb, newIndexOf);
            for (CostModelKind model : {CostModelKind::Native, CostModelKind::PhazeCompat}) {
                SolverOptions options;
                options.costModel = model;
                const auto a = PlacementSolver(options).solve(pb);
                const auto b = PlacementSolver(options).solve(shuffled);
                QVERIFY(a.ok() && b.ok());
                QCOMPARE(a->plan.has_value(), b->plan.has_value());
                if (!a->plan) continue;
                // Chains have one topological order, so the same doubles come out. A branching
                // DAG's order (and thus PHAZE's generalised sums) may change with the listing.
                if (shape != oracle::Shape::Dag || model == CostModelKind::Native)
                    QVERIFY(a->plan->timePerBatchSeconds == b->plan->timePerBatchSeconds);
                for (std::size_t k = 0; k < b->plan->stages.size() && shape != oracle::Shape::Dag;
                     ++k) {
                    std::vector<int> mapped;
                    for (int v : a->plan->stages[k].layers)
                        mapped.push_back(newIndexOf[std::size_t(v)]);
                    std::vector<int> got = b->plan->stages[k].layers;
                    std::sort(mapped.begin(), mapped.end());
                    std::sort(got.begin(), got.end());
                    QCOMPARE(got, mapped);
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestPlacementReference)
#include "test_placement_reference.moc"
