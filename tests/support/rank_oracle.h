#pragma once
// Spearman's rank correlation written out the slow, obvious way, as the oracle for the tests
// of core/validation's statistics: ranks by counting (ties share their mean rank), then
// Pearson's r of the ranks.
#include <cmath>
#include <vector>

namespace tandem::test {

// rank = values below + (values equal, itself included, + 1) / 2.
inline std::vector<double> countedRanks(const std::vector<double>& v) {
    std::vector<double> r;
    for (double x : v) {
        double below = 0, equal = 0;
        for (double y : v) {
            below += y < x;
            equal += y == x;
        }
        r.push_back(below + (equal + 1) / 2);
    }
    return r;
}

inline double pearson(const std::vector<double>& x, const std::vector<double>& y) {
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= double(x.size());
    my /= double(y.size());
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / std::sqrt(sxx) / std::sqrt(syy);
}

inline double rankCorrelation(const std::vector<double>& x, const std::vector<double>& y) {
    return pearson(countedRanks(x), countedRanks(y));
}

}  // namespace tandem::test
