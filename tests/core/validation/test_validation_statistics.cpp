// The statistics of `tandem-cli validate` (core/validation/rank_statistics.h,
// validation_summary.h) against brute force and independent formulas: average ranks by counting,
// Spearman's ρ as 1 − 6Σd²/(n(n²−1)) without ties and as Pearson's r of counted ranks with ties,
// a published example, the regret of a pick by scanning, and a whole summary recomputed from
// synthetic runs with groups too small to count and runs that do not fit. Random cases use
// fixed seeds.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "core/validation/rank_statistics.h"
#include "core/validation/validation_summary.h"
#include "rank_oracle.h"

using namespace tandem::core::validation;

namespace {

using tandem::test::countedRanks;
using tandem::test::pearson;

bool close(double a, double b) {
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

std::vector<double> randomValues(std::mt19937& rng, std::size_t n, int distinct) {
    std::uniform_int_distribution<int> pick(1, distinct);
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(0.5 * pick(rng));
    return v;
}

}  // namespace

class TestValidationStatistics : public QObject {
    Q_OBJECT

private slots:
    void medianOfOddEvenAndEmpty() {
        QCOMPARE(median({3, 1, 2}), 2.0);
        QCOMPARE(median({4, 1, 3, 2}), 2.5);
        QCOMPARE(median({}), 0.0);
        QCOMPARE(median({7}), 7.0);
    }

    void ranksAgainstCounting() {
        const std::vector<double> ties{10, 20, 20, 5, 20, 10};
        const std::vector<double> expected{2.5, 5, 5, 1, 5, 2.5};
        QCOMPARE(averageRanks(ties), expected);
        std::mt19937 rng(20240601);
        for (int round = 0; round < 200; ++round) {
            const auto v = randomValues(rng, 1 + std::size_t(round % 17), 1 + round % 6);
            QCOMPARE(averageRanks(v), countedRanks(v));
        }
    }

    void spearmanAgainstFormulas() {
        // Wikipedia's example (IQ against hours of TV per week): ρ = −29/165.
        const std::vector<double> iq{106, 100, 86, 101, 99, 103, 97, 113, 112, 110};
        const std::vector<double> tv{7, 27, 2, 50, 28, 29, 20, 12, 6, 17};
        QVERIFY(close(*spearman(iq, tv), -29.0 / 165.0));
        QVERIFY(close(*spearman(iq, iq), 1.0));
        std::vector<double> reversed(iq.rbegin(), iq.rend()), sorted = iq;
        std::sort(sorted.begin(), sorted.end());
        std::vector<double> descending(sorted.rbegin(), sorted.rend());
        QVERIFY(close(*spearman(sorted, descending), -1.0));

        std::mt19937 rng(7);
        for (int round = 0; round < 300; ++round) {
            const std::size_t n = 2 + std::size_t(round % 30);
            // Without ties: the closed formula.
            std::vector<double> x(n), y(n);
            for (std::size_t i = 0; i < n; ++i) x[i] = y[i] = double(i);
            std::shuffle(x.begin(), x.end(), rng);
            std::shuffle(y.begin(), y.end(), rng);
            double d2 = 0;
            for (std::size_t i = 0; i < n; ++i) d2 += (x[i] - y[i]) * (x[i] - y[i]);
            const double N = double(n);
            QVERIFY(close(*spearman(x, y), 1 - 6 * d2 / (N * (N * N - 1))));
            // With ties: Pearson's r of counted ranks (undefined for a constant side).
            const auto a = randomValues(rng, n, 4), b = randomValues(rng, n, 3);
            const auto rho = spearman(a, b);
            const auto ra = countedRanks(a), rb = countedRanks(b);
            const bool constant =
                std::all_of(a.begin(), a.end(), [&](double v) { return v == a[0]; }) ||
                std::all_of(b.begin(), b.end(), [&](double v) { return v == b[0]; });
            QCOMPARE(rho.has_value(), !constant);
            if (rho) QVERIFY2(close(*rho, pearson(ra, rb)), qPrintable(QString::number(*rho)));
        }
        QVERIFY(!spearman(std::vector<double>{1}, std::vector<double>{2}));
        QVERIFY(!spearman(std::vector<double>{1, 2}, std::vector<double>{1, 2, 3}));
    }

    void regretAgainstScanning() {
        // Predicted best is index 2 (ties to the lowest index), measured best index 0.
        const auto r = pickRegret(std::vector<double>{3, 2, 1, 1}, std::vector<double>{4, 5, 6, 8});
        QCOMPARE(r.pick, std::size_t(2));
        QCOMPARE(r.best, std::size_t(0));
        QCOMPARE(r.regret, 6.0 / 4.0 - 1.0);
        std::mt19937 rng(99);
        for (int round = 0; round < 200; ++round) {
            const std::size_t n = 1 + std::size_t(round % 12);
            const auto p = randomValues(rng, n, 5), m = randomValues(rng, n, 9);
            std::size_t pick = 0;
            double best = m[0];
            for (std::size_t i = 0; i < n; ++i) {
                if (p[i] < p[pick]) pick = i;
                best = std::min(best, m[i]);
            }
            const auto got = pickRegret(p, m);
            QCOMPARE(got.pick, pick);
            QCOMPARE(got.regret, m[pick] / best - 1);
            QVERIFY(got.regret >= 0);
        }
    }

    void summaryAgainstRecomputation() {
        // Four models × GPU counts with 2 (too few), 3, 5 and 7 runs; some runs do not fit.
        std::mt19937 rng(4242);
        std::uniform_real_distribution<double> time(0.1, 2.0);
        std::vector<MeasuredRun> runs;
        std::vector<RunPrediction> predictions;
        const int sizes[] = {2, 3, 5, 7};
        for (int g = 0; g < 4; ++g)
            for (int k = 0; k < sizes[g] + 1; ++k) {
                MeasuredRun run;
                run.name = "run " + std::to_string(runs.size());
                run.model = {1024 * (1 + g % 2), 16, 12 + g, 1024, 50257, 128};
                run.gpus = 8;
                run.globalBatch = 8 << (k % 3);
                run.measuredSeconds = time(rng);
                RunPrediction p;
                p.fits = k != 1;  // one run of each group does not fit
                p.predictedSeconds = p.fits ? time(rng) : 0;
                p.error = p.fits ? p.predictedSeconds / run.measuredSeconds - 1 : 0;
                runs.push_back(run);
                predictions.push_back(p);
            }
        const ValidationSummary s = summarizeValidation(runs, predictions);
        QCOMPARE(s.runs, runs.size());

        std::vector<double> abs, all;
        std::map<std::int64_t, std::vector<std::size_t>> groups;  // by layers: unique per group
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (!predictions[i].fits) continue;
            all.push_back(predictions[i].predictedSeconds / runs[i].measuredSeconds - 1);
            abs.push_back(std::abs(all.back()));
            groups[runs[i].model.layers].push_back(i);
        }
        QCOMPARE(s.fitting, abs.size());
        QVERIFY(s.errors.has_value());
        double sumAbs = 0, sum = 0;
        for (std::size_t i = 0; i < abs.size(); ++i) {
            sumAbs += abs[i];
            sum += all[i];
        }
        QVERIFY(close(s.errors->meanAbsError, sumAbs / double(abs.size())));
        QVERIFY(close(s.errors->meanError, sum / double(abs.size())));
        std::vector<double> sorted = abs;
        std::sort(sorted.begin(), sorted.end());
        const std::size_t n = sorted.size();
        const double middle = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        QCOMPARE(s.errors->medianAbsError, middle);
        const double worst = sorted.back();
        QCOMPARE(s.errors->worstAbsError, worst);
        QCOMPARE(std::abs(predictions[s.errors->worstRun].error), worst);

        // Groups of ≥ 3 fitting runs only: sizes 3, 5, 7 (the group of 2 has 2 that fit).
        QCOMPARE(s.groups.size(), std::size_t(3));
        double sumRho = 0, sumRegret = 0, worstRegret = 0;
        for (const ValidationGroup& g : s.groups) {
            const auto& members = groups.at(g.layers);
            QCOMPARE(g.runs, members);
            std::vector<double> p, m;
            for (std::size_t i : members) {
                p.push_back(predictions[i].predictedSeconds / double(runs[i].globalBatch));
                m.push_back(runs[i].measuredSeconds / double(runs[i].globalBatch));
            }
            QVERIFY(close(*g.spearman, pearson(countedRanks(p), countedRanks(m))));
            const std::size_t pick = std::size_t(std::min_element(p.begin(), p.end()) - p.begin());
            const double regret = m[pick] / *std::min_element(m.begin(), m.end()) - 1;
            QCOMPARE(g.regret, regret);
            QCOMPARE(g.pick, members[pick]);
            sumRho += *g.spearman;
            sumRegret += regret;
            worstRegret = std::max(worstRegret, regret);
        }
        QVERIFY(close(*s.meanSpearman, sumRho / 3));
        QVERIFY(close(*s.meanRegret, sumRegret / 3));
        QCOMPARE(*s.worstRegret, worstRegret);
        QCOMPARE(s.groups[*s.worstRegretGroup].regret, worstRegret);
    }

    void summaryWithoutFittingRuns() {
        std::vector<MeasuredRun> runs(4);
        std::vector<RunPrediction> predictions(4);  // none fits
        const ValidationSummary s = summarizeValidation(runs, predictions);
        QCOMPARE(s.runs, std::size_t(4));
        QCOMPARE(s.fitting, std::size_t(0));
        QVERIFY(!s.errors && s.groups.empty() && !s.meanSpearman && !s.meanRegret &&
                !s.worstRegret);
    }
};

QTEST_GUILESS_MAIN(TestValidationStatistics)
#include "test_validation_statistics.moc"
