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
constexpr EnumNames<SequenceParallel, 3> kSequenceParallelNames{{
    {SequenceParallel::Off, "off"},
    {SequenceParallel::On, "on"},
    {SequenceParallel::Auto, "auto"},
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
std::string_view toString(SequenceParallel s) {
    return enumName(kSequenceParallelNames, s);
}
bool parseSequenceParallel(std::string_view text, SequenceParallel& out) {
    return parseEnumName(kSequenceParallelNames, text, out);
}
bool parseRecompute(std::string_view text, Recompute& out) {
    return parseEnumName(kRecomputeNames, text, out);
}
bool parseOptimizer(std::string_view text, Optimizer& out) {
    return parseEnumName(kOptimizerNames, text, out);
}

}  // namespace tandem::core::hardware
