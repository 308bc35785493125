#pragma once
// A plain-text table for the CLI's human output: columns sized to their widest cell, numbers
// right-aligned. Width is counted in UTF-8 code points so "µs" lines up.
#include <ostream>
#include <string>
#include <vector>

namespace tandem::cli {

class TextTable {
public:
    explicit TextTable(std::vector<std::string> header, std::vector<bool> rightAligned = {});
    void addRow(std::vector<std::string> cells);
    void addSeparator();
    void print(std::ostream& os, const std::string& indent = "") const;

private:
    std::vector<std::string> header_;
    std::vector<bool> right_;
    std::vector<std::vector<std::string>> rows_;  // an empty row is a separator
};

}  // namespace tandem::cli
