#include "core/model/operator.h"

#include <array>
#include <utility>

namespace tandem::core::model {

namespace {
constexpr std::array<std::pair<OpClass, std::string_view>, 5> kClassNames{{
    {OpClass::TensorCore, "tensor_core"},
    {OpClass::VectorCore, "vector_core"},
    {OpClass::Fused, "fused"},
    {OpClass::Collective, "collective"},
    {OpClass::Nop, "nop"},
}};
constexpr std::array<std::pair<BackwardRule, std::string_view>, 6> kRuleNames{{
    {BackwardRule::None, "none"},
    {BackwardRule::WeightGemm, "weight_gemm"},
    {BackwardRule::ActivationGemm, "activation_gemm"},
    {BackwardRule::Elementwise, "elementwise"},
    {BackwardRule::AllReduceInBackward, "all_reduce_in_backward"},
    {BackwardRule::NoneAfterAllReduce, "none_after_all_reduce"},
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

std::string_view toString(OpClass c) { return nameOf(kClassNames, c); }
bool parseOpClass(std::string_view text, OpClass& out) { return parseName(kClassNames, text, out); }
std::string_view toString(BackwardRule r) { return nameOf(kRuleNames, r); }
bool parseBackwardRule(std::string_view text, BackwardRule& out) {
    return parseName(kRuleNames, text, out);
}

double Operator::flops() const {
    switch (opClass) {
        case OpClass::TensorCore: return gemm.flops();
        case OpClass::Fused: return gemm.flops() + double(elements);
        case OpClass::VectorCore: return double(elements);
        case OpClass::Collective:
        case OpClass::Nop: return 0.0;
    }
    return 0.0;
}

}  // namespace tandem::core::model
