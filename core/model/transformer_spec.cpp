#include "core/model/transformer_spec.h"

#include <set>
#include "core/common/enum_names.h"

namespace tandem::core::model {

namespace {
constexpr EnumNames<NormKind, 2> kNorms{{
    {NormKind::LayerNorm, "layer_norm"},
    {NormKind::RmsNorm, "rms_norm"},
}};
constexpr EnumNames<Activation, 3> kActivations{{
    {Activation::Gelu, "gelu"},
    {Activation::Relu, "relu"},
    {Activation::SwiGlu, "swiglu"},
}};
constexpr EnumNames<PositionKind, 3> kPositions{{
    {PositionKind::Learned, "learned"},
    {PositionKind::Rotary, "rotary"},
    {PositionKind::Alibi, "alibi"},
}};

}  // namespace

std::string_view toString(NormKind v) {
    return enumName(kNorms, v);
}
std::string_view toString(Activation v) {
    return enumName(kActivations, v);
}
std::string_view toString(PositionKind v) {
    return enumName(kPositions, v);
}
bool parseNormKind(std::string_view text, NormKind& out) {
    return parseEnumName(kNorms, text, out);
}
bool parseActivation(std::string_view text, Activation& out) {
    return parseEnumName(kActivations, text, out);
}
bool parsePositionKind(std::string_view text, PositionKind& out) {
    return parseEnumName(kPositions, text, out);
}

Status validateTransformerSpec(const TransformerSpec& spec) {
    const std::string where = "transformer '" + spec.name + "'";
    if (spec.name.empty()) return Error{"transformer: name is empty"};
    if (spec.family.empty()) return Error{where + ": family is empty"};
    const std::pair<const char*, std::int64_t> positive[] = {
        {"layers", spec.layers}, {"hidden", spec.hidden}, {"heads", spec.heads},
        {"ffn", spec.ffn},       {"vocab", spec.vocab},   {"max_sequence", spec.maxSequence},
    };
    for (const auto& [field, value] : positive) {
        if (value < 1) {
            return Error{where + ": " + field + " = " + std::to_string(value) + " must be >= 1"};
        }
    }
    // Each block is a graph node. Published transformers have at most a few hundred blocks; at
    // 10,000 an estimate with every layer's operators in JSON takes seconds and under 0.5 GB
    // (100,000 took 90 s and 3.9 GB).
    constexpr std::int64_t kMaxLayers = 10000;
    if (spec.layers > kMaxLayers) {
        return Error{where + ": layers = " + std::to_string(spec.layers) +
                     " is out of range: must be an integer in [1, " + std::to_string(kMaxLayers) +
                     "]"};
    }
    const std::pair<const char*, std::int64_t> nonNegative[] = {
        {"kv_heads", spec.kvHeads},
        {"type_vocab", spec.typeVocab},
        {"projection_dim", spec.projectionDim},
        {"position_offset", spec.positionOffset},
    };
    for (const auto& [field, value] : nonNegative) {
        if (value < 0) {
            return Error{where + ": " + field + " = " + std::to_string(value) + " must be >= 0"};
        }
    }
    if (spec.hidden % spec.heads != 0) {
        return Error{where + ": hidden = " + std::to_string(spec.hidden) +
                     " is not divisible by heads = " + std::to_string(spec.heads)};
    }
    if (spec.kvHeads > 0 && spec.heads % spec.kvHeads != 0) {
        return Error{where + ": heads = " + std::to_string(spec.heads) +
                     " is not divisible by kv_heads = " + std::to_string(spec.kvHeads)};
    }
    if (spec.positions == PositionKind::Rotary && spec.headDim() % 2 != 0) {
        return Error{where +
                     ": rotary positions need an even head dimension, but hidden / heads"
                     " = " +
                     std::to_string(spec.headDim())};
    }
    std::set<std::int64_t> widths;
    for (std::int64_t t : spec.tensorParallelWidths) {
        if (t < 1) {
            return Error{where + ": tensor_parallel_widths contains " + std::to_string(t) +
                         "; widths must be >= 1"};
        }
        if (!widths.insert(t).second) {
            return Error{where + ": tensor_parallel_widths lists " + std::to_string(t) + " twice"};
        }
    }
    return Status::success();
}

}  // namespace tandem::core::model
