#include "core/model/operator.h"

#include "core/common/enum_names.h"

namespace tandem::core::model {

namespace {
constexpr EnumNames<OpClass, 5> kClassNames{{
    {OpClass::TensorCore, "tensor_core"},
    {OpClass::VectorCore, "vector_core"},
    {OpClass::Fused, "fused"},
    {OpClass::Collective, "collective"},
    {OpClass::Nop, "nop"},
}};
constexpr EnumNames<BackwardRule, 8> kRuleNames{{
    {BackwardRule::None, "none"},
    {BackwardRule::WeightGemm, "weight_gemm"},
    {BackwardRule::ActivationGemm, "activation_gemm"},
    {BackwardRule::Elementwise, "elementwise"},
    {BackwardRule::AllReduceInBackward, "all_reduce_in_backward"},
    {BackwardRule::NoneAfterAllReduce, "none_after_all_reduce"},
    {BackwardRule::TransposedCollective, "transposed_collective"},
    {BackwardRule::FusedAttention, "fused_attention"},
}};
constexpr EnumNames<CollectiveKind, 3> kCollectiveNames{{
    {CollectiveKind::AllReduce, "all_reduce"},
    {CollectiveKind::AllGather, "all_gather"},
    {CollectiveKind::ReduceScatter, "reduce_scatter"},
}};

}  // namespace

std::string_view toString(OpClass c) {
    return enumName(kClassNames, c);
}
bool parseOpClass(std::string_view text, OpClass& out) {
    return parseEnumName(kClassNames, text, out);
}
std::string_view toString(BackwardRule r) {
    return enumName(kRuleNames, r);
}
bool parseBackwardRule(std::string_view text, BackwardRule& out) {
    return parseEnumName(kRuleNames, text, out);
}

std::string_view toString(CollectiveKind k) {
    return enumName(kCollectiveNames, k);
}
bool parseCollectiveKind(std::string_view text, CollectiveKind& out) {
    return parseEnumName(kCollectiveNames, text, out);
}
CollectiveKind transposed(CollectiveKind k) {
    switch (k) {
        case CollectiveKind::AllGather:
            return CollectiveKind::ReduceScatter;
        case CollectiveKind::ReduceScatter:
            return CollectiveKind::AllGather;
        case CollectiveKind::AllReduce:
            break;
    }
    return CollectiveKind::AllReduce;
}

double Operator::flops() const {
    switch (opClass) {
        case OpClass::TensorCore:
            return gemm.flops();
        case OpClass::Fused:
            return gemm.flops() + double(elements);
        case OpClass::VectorCore:
            return double(elements);
        case OpClass::Collective:
        case OpClass::Nop:
            return 0.0;
    }
    return 0.0;
}

bool Operator::takesTime() const {
    const bool gemmWork = isGemm() && gemm.batch > 0 && gemm.m > 0 && gemm.n > 0 && gemm.k > 0;
    const bool vectorWork = (opClass == OpClass::VectorCore || opClass == OpClass::Fused) &&
                            elements > 0 && (cyclesPerElement > 0 || streamedTensors > 0);
    return gemmWork || vectorWork;
}

}  // namespace tandem::core::model
