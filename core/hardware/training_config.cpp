#include "core/hardware/training_config.h"

#include <array>
#include <utility>

namespace tandem::core::hardware {

namespace {
constexpr std::array<std::pair<Recompute, std::string_view>, 3> kRecomputeNames{{
    {Recompute::Off, "off"},
    {Recompute::On, "on"},
    {Recompute::Auto, "auto"},
}};
constexpr std::array<std::pair<Optimizer, std::string_view>, 2> kOptimizerNames{{
    {Optimizer::Sgd, "sgd"},
    {Optimizer::Adam, "adam"},
}};

template <class E, std::size_t N>
bool parseName(const std::array<std::pair<E, std::string_view>, N>& table, std::string_view text,
               E& out) {
    for (const auto& [value, name] : table) {
        if (name == text) {
            out = value;
            return true;
        }
    }
    return false;
}
template <class E, std::size_t N>
std::string_view nameOf(const std::array<std::pair<E, std::string_view>, N>& table, E value) {
    for (const auto& [v, name] : table)
        if (v == value) return name;
    return "unknown";
}
}  // namespace

std::string_view toString(Recompute r) {
    return nameOf(kRecomputeNames, r);
}
std::string_view toString(Optimizer o) {
    return nameOf(kOptimizerNames, o);
}
bool parseRecompute(std::string_view text, Recompute& out) {
    return parseName(kRecomputeNames, text, out);
}
bool parseOptimizer(std::string_view text, Optimizer& out) {
    return parseName(kOptimizerNames, text, out);
}

}  // namespace tandem::core::hardware
