#include "core/hardware/training_config.h"

#include "core/common/enum_names.h"

namespace tandem::core::hardware {

namespace {
constexpr EnumNames<Recompute, 4> kRecomputeNames{{
    {Recompute::Off, "off"},
    {Recompute::On, "on"},
    {Recompute::Auto, "auto"},
    {Recompute::Selective, "selective"},
}};
constexpr EnumNames<Optimizer, 2> kOptimizerNames{{
    {Optimizer::Sgd, "sgd"},
    {Optimizer::Adam, "adam"},
}};

}  // namespace

std::string_view toString(Recompute r) {
    return enumName(kRecomputeNames, r);
}
std::string_view toString(Optimizer o) {
    return enumName(kOptimizerNames, o);
}
bool parseRecompute(std::string_view text, Recompute& out) {
    return parseEnumName(kRecomputeNames, text, out);
}
bool parseOptimizer(std::string_view text, Optimizer& out) {
    return parseEnumName(kOptimizerNames, text, out);
}

}  // namespace tandem::core::hardware
