#include "core/schedule/milp_builder.h"

#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>

namespace tandem::core::schedule {

int MilpBuilder::addColumn(double lower, double upper, double objective, bool integer) {
    lower_.push_back(lower);
    upper_.push_back(upper);
    objective_.push_back(objective);
    integer_.push_back(integer ? 1 : 0);
    return columns() - 1;
}

void MilpBuilder::addRow(const Terms& terms, double lower, double upper) {
    for (const auto& [column, value] : terms) {
        if (value == 0) continue;
        index_.push_back(column);
        value_.push_back(value);
    }
    rowStart_.push_back(static_cast<int>(index_.size()));
    rowLower_.push_back(lower);
    rowUpper_.push_back(upper);
}

int MilpBuilder::integers() const {
    return static_cast<int>(std::count(integer_.begin(), integer_.end(), 1));
}

void MilpBuilder::loadInto(OsiClpSolverInterface& solver) const {
    const double inf = solver.getInfinity();
    const auto finite = [inf](std::vector<double> v) {
        for (double& x : v) {
            if (x == kInfinity) x = inf;
            if (x == -kInfinity) x = -inf;
        }
        return v;
    };
    std::vector<int> lengths(rows());
    std::vector<CoinBigIndex> starts(rowStart_.begin(), rowStart_.end());
    for (int r = 0; r < rows(); ++r) lengths[r] = rowStart_[r + 1] - rowStart_[r];
    CoinPackedMatrix matrix(false, columns(), rows(), static_cast<CoinBigIndex>(index_.size()),
                            value_.data(), index_.data(), starts.data(), lengths.data());
    const std::vector<double> lower = finite(lower_), upper = finite(upper_);
    const std::vector<double> rowLower = finite(rowLower_), rowUpper = finite(rowUpper_);
    solver.loadProblem(matrix, lower.data(), upper.data(), objective_.data(), rowLower.data(),
                       rowUpper.data());
    for (int c = 0; c < columns(); ++c)
        if (integer_[c]) solver.setInteger(c);
}

}  // namespace tandem::core::schedule
