#pragma once
// Collects the columns and rows of a mixed-integer program before it is handed to CBC, so the
// formulations stay free of Osi/Coin types and the model can be built, inspected (sizes for the
// benchmark) and loaded in one place.
#include <limits>
#include <utility>
#include <vector>

class OsiClpSolverInterface;

namespace tandem::core::schedule {

class MilpBuilder {
public:
    static constexpr double kInfinity = std::numeric_limits<double>::infinity();
    using Terms = std::vector<std::pair<int, double>>;

    int addColumn(double lower, double upper, double objective, bool integer);
    void addRow(const Terms& terms, double lower, double upper);

    int columns() const { return static_cast<int>(lower_.size()); }
    int rows() const { return static_cast<int>(rowLower_.size()); }
    int integers() const;
    void setUpper(int column, double upper) { upper_[column] = upper; }
    void setLower(int column, double lower) { lower_[column] = lower; }
    double lower(int column) const { return lower_[column]; }
    double upper(int column) const { return upper_[column]; }

    void loadInto(OsiClpSolverInterface& solver) const;

private:
    std::vector<double> lower_, upper_, objective_;
    std::vector<char> integer_;
    std::vector<double> rowLower_, rowUpper_;
    std::vector<int> rowStart_{0};
    std::vector<int> index_;
    std::vector<double> value_;
};

}  // namespace tandem::core::schedule
