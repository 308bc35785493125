#pragma once
// Name tables for enums that appear in files and on the command line: one constexpr array of
// {value, name} pairs per enum, and the two lookups every toString/parse pair needs.
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace tandem::core {

template <class E, std::size_t N>
using EnumNames = std::array<std::pair<E, std::string_view>, N>;

template <class E, std::size_t N>
std::string_view enumName(const EnumNames<E, N>& table, E value) {
    for (const auto& [v, name] : table)
        if (v == value) return name;
    return "unknown";
}

template <class E, std::size_t N>
bool parseEnumName(const EnumNames<E, N>& table, std::string_view text, E& out) {
    for (const auto& [value, name] : table) {
        if (name == text) {
            out = value;
            return true;
        }
    }
    return false;
}

}  // namespace tandem::core
