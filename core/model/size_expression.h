#pragma once
// A strict integer expression for the sizes in a native model file, so that one graph file
// serves every microbatch b, sequence length s, tensor-parallel width t and bytes per element e.
// Grammar: integers, the variables b s t e, + - * / with the usual precedence, unary minus,
// parentheses, and cdiv(x, y) = ⌈x / y⌉. Division must be exact (a model whose sizes do not
// split evenly is an error, not a rounding); every operation is overflow-checked. Expressions are
// parsed once when the file is read and evaluated per build.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"

namespace tandem::core::model {

struct SizeVariables {
    std::int64_t b = 1;  // microbatch
    std::int64_t s = 1;  // sequence length
    std::int64_t t = 1;  // tensor-parallel width
    std::int64_t e = 2;  // bytes per element
};

class SizeExpression {
public:
    SizeExpression() = default;  // the constant 0
    // Errors say what is wrong and where (character offset), e.g. "unknown variable 'h' at
    // offset 0 (allowed: b, s, t, e)".
    static Expected<SizeExpression> parse(std::string_view text);
    static SizeExpression constant(std::int64_t value);

    // Errors name the failing operation and the variable values, e.g. "4096 / 3 is not exact
    // (b=1, s=2048, t=3, e=2)".
    Expected<std::int64_t> evaluate(const SizeVariables& vars) const;

    const std::string& text() const { return text_; }
    bool isConstant() const;

private:
    enum class Code : std::uint8_t { Push, Var, Add, Sub, Mul, Div, CeilDiv, Neg };
    struct Instruction {
        Code code = Code::Push;
        std::int64_t value = 0;  // Push: the literal; Var: 'b', 's', 't' or 'e'
    };
    class Parser;
    std::vector<Instruction> program_;  // postfix
    std::string text_ = "0";
};

}  // namespace tandem::core::model
