#include "app/cli/text_table.h"

#include <algorithm>

namespace tandem::cli {

namespace {
std::size_t displayWidth(const std::string& text) {
    return std::size_t(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}
}  // namespace

TextTable::TextTable(std::vector<std::string> header, std::vector<bool> rightAligned)
    : header_(std::move(header)), right_(std::move(rightAligned)) {
    right_.resize(header_.size(), false);
}

void TextTable::addRow(std::vector<std::string> cells) {
    cells.resize(header_.size());
    rows_.push_back(std::move(cells));
}

void TextTable::addSeparator() {
    rows_.emplace_back();
}

void TextTable::print(std::ostream& os, const std::string& indent) const {
    std::vector<std::size_t> width(header_.size());
    for (std::size_t c = 0; c < header_.size(); ++c) width[c] = displayWidth(header_[c]);
    for (const auto& row : rows_)
        for (std::size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], displayWidth(row[c]));
    auto printRow = [&](const std::vector<std::string>& row) {
        os << indent;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string pad(width[c] - displayWidth(row[c]), ' ');
            os << (c ? "  " : "")
               << (right_[c] ? pad + row[c] : row[c] + (c + 1 < row.size() ? pad : ""));
        }
        os << "\n";
    };
    auto rule = [&] {
        std::size_t total = 0;
        for (std::size_t w : width) total += w + 2;
        os << indent << std::string(total > 2 ? total - 2 : 0, '-') << "\n";
    };
    printRow(header_);
    rule();
    for (const auto& row : rows_) {
        if (row.empty())
            rule();
        else
            printRow(row);
    }
}

}  // namespace tandem::cli
