#include "core/calibration/simplex_search.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>

namespace tandem::core::calibration {

namespace {

// Improvements smaller than this are noise (the objective is a mean of rounded times).
constexpr double kMinImprovement = 1e-12;

using Point = std::vector<double>;

// a + t (b − a), moved onto the box.
Point towards(const Point& a, const Point& b, double t) {
    Point y(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        y[i] = std::clamp(a[i] + t * (b[i] - a[i]), 0.0, 1.0);
    return y;
}

class Search {
public:
    Search(const Objective& objective, const SimplexSearchOptions& options,
           const RunControl* control)
        : objective_(objective), options_(options), control_(control) {}

    // The objective at x, or false when the search must stop (budget, cancel, error).
    bool evaluate(const Point& x, double& value) {
        if (stop_) return false;
        if (evaluations_ >= options_.maxEvaluations || (control_ && control_->cancelled())) {
            stop_ = true;
            cancelled_ = control_ && control_->cancelled();
            return false;
        }
        auto result = objective_(x);
        ++evaluations_;
        if (!result) {
            stop_ = true;
            if (result.message() == "cancelled" || (control_ && control_->cancelled()))
                cancelled_ = true;
            else
                error_ = result.error();
            return false;
        }
        value = *result;
        if (best_.empty() || value < bestValue_ - kMinImprovement) {
            best_ = x;
            bestValue_ = value;
        }
        return true;
    }

    void run(Point start) {
        double value = 0;
        if (!evaluate(start, value)) return;
        for (;;) {
            const double before = bestValue_;
            if (best_.empty() || !round(best_, bestValue_)) return;
            if (!(bestValue_ < before - kMinImprovement)) break;
        }
        converged_ = true;
    }

    // One Nelder–Mead round from x0; false when stopped.
    bool round(const Point x0, const double f0) {
        const std::size_t n = x0.size();
        if (n == 0) return true;
        std::vector<Point> v{x0};
        std::vector<double> f{f0};
        for (std::size_t i = 0; i < n; ++i) {
            Point y = x0;
            const double h = options_.initialStep;
            y[i] = x0[i] + h <= 1 ? x0[i] + h : std::max(0.0, x0[i] - h);
            double fy = 0;
            if (!evaluate(y, fy)) return false;
            v.push_back(std::move(y));
            f.push_back(fy);
        }
        for (;;) {
            std::vector<std::size_t> order(n + 1);
            std::iota(order.begin(), order.end(), std::size_t(0));
            std::stable_sort(order.begin(), order.end(),
                             [&](std::size_t a, std::size_t b) { return f[a] < f[b]; });
            std::vector<Point> sv;
            std::vector<double> sf;
            for (std::size_t i : order) {
                sv.push_back(v[i]);
                sf.push_back(f[i]);
            }
            v = std::move(sv);
            f = std::move(sf);
            double size = 0;
            for (std::size_t i = 1; i <= n; ++i)
                for (std::size_t j = 0; j < n; ++j)
                    size = std::max(size, std::fabs(v[i][j] - v[0][j]));
            if (size < options_.minStep) return true;

            Point c(n, 0.0);  // centroid of all but the worst
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j) c[j] += v[i][j] / double(n);
            const Point xr = towards(c, v[n], -1.0);
            double fr = 0;
            if (!evaluate(xr, fr)) return false;
            if (fr < f[0]) {
                const Point xe = towards(c, v[n], -2.0);
                double fe = 0;
                if (!evaluate(xe, fe)) return false;
                v[n] = fe < fr ? xe : xr;
                f[n] = std::min(fe, fr);
            } else if (fr < f[n - 1]) {
                v[n] = xr;
                f[n] = fr;
            } else {
                const Point xc = fr < f[n] ? towards(c, xr, 0.5) : towards(c, v[n], 0.5);
                double fc = 0;
                if (!evaluate(xc, fc)) return false;
                if (fc < std::min(fr, f[n])) {
                    v[n] = xc;
                    f[n] = fc;
                } else {
                    for (std::size_t i = 1; i <= n; ++i) {
                        v[i] = towards(v[0], v[i], 0.5);
                        if (!evaluate(v[i], f[i])) return false;
                    }
                }
            }
        }
    }

    const Objective& objective_;
    const SimplexSearchOptions& options_;
    const RunControl* control_;
    int evaluations_ = 0;
    bool stop_ = false, cancelled_ = false, converged_ = false;
    std::optional<Error> error_;
    Point best_;
    double bestValue_ = 0;
};

}  // namespace

Expected<SimplexSearchResult> simplexSearch(const Objective& objective, std::vector<double> start,
                                            const SimplexSearchOptions& options,
                                            const RunControl* control) {
    if (!(options.maxEvaluations >= 1 && options.minStep > 0 &&
          options.minStep <= options.initialStep && options.initialStep <= 1))
        return Error{
            "simplex search: the budget must be at least 1 evaluation and the steps "
            "positive with minStep ≤ initialStep ≤ 1"};
    for (double v : start)
        if (!(v >= 0 && v <= 1))
            return Error{"simplex search: the start must lie in the unit box, not " +
                         std::to_string(v)};
    Search search(objective, options, control);
    search.run(std::move(start));
    if (search.error_) return *search.error_;
    SimplexSearchResult result;
    result.evaluations = search.evaluations_;
    result.cancelled = search.cancelled_;
    result.converged = search.converged_;
    result.x = std::move(search.best_);
    result.value = search.bestValue_;
    return result;
}

}  // namespace tandem::core::calibration
