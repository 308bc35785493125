#include "core/model/size_expression.h"

#include <cctype>
#include <utility>

namespace tandem::core::model {

// Recursive descent straight into postfix code. Depth is bounded so that a hostile file of
// nested parentheses cannot exhaust the stack.
class SizeExpression::Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    std::string parse(std::vector<Instruction>& out) {
        skipSpace();
        if (pos_ == text_.size()) return "empty expression";
        if (std::string e = expression(out, 0); !e.empty()) return e;
        skipSpace();
        if (pos_ != text_.size()) {
            return "unexpected '" + std::string(text_.substr(pos_)) + "' at offset " +
                   std::to_string(pos_) + " after a complete expression";
        }
        return {};
    }

private:
    static constexpr int kMaxDepth = 64;

    void skipSpace() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool accept(char c) {
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    std::string expected(const char* what) {
        skipSpace();
        if (pos_ == text_.size()) return std::string("expected ") + what + " at the end";
        return std::string("expected ") + what + " at offset " + std::to_string(pos_) +
               ", found '" + text_[pos_] + "'";
    }

    std::string expression(std::vector<Instruction>& out, int depth) {
        if (std::string e = term(out, depth); !e.empty()) return e;
        while (true) {
            Code code;
            if (accept('+'))
                code = Code::Add;
            else if (accept('-'))
                code = Code::Sub;
            else
                return {};
            if (std::string e = term(out, depth); !e.empty()) return e;
            out.push_back({code, 0});
        }
    }
    std::string term(std::vector<Instruction>& out, int depth) {
        if (std::string e = unary(out, depth); !e.empty()) return e;
        while (true) {
            Code code;
            if (accept('*'))
                code = Code::Mul;
            else if (accept('/'))
                code = Code::Div;
            else
                return {};
            if (std::string e = unary(out, depth); !e.empty()) return e;
            out.push_back({code, 0});
        }
    }
    std::string unary(std::vector<Instruction>& out, int depth) {
        if (depth > kMaxDepth) return "expression nested deeper than 64 levels";
        if (accept('-')) {
            if (std::string e = unary(out, depth + 1); !e.empty()) return e;
            out.push_back({Code::Neg, 0});
            return {};
        }
        return primary(out, depth);
    }
    std::string primary(std::vector<Instruction>& out, int depth) {
        skipSpace();
        if (pos_ == text_.size()) return expected("a number, variable or '('");
        const char c = text_[pos_];
        if (std::isdigit(static_cast<unsigned char>(c))) return number(out);
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name(out, depth);
        if (accept('(')) {
            if (std::string e = expression(out, depth + 1); !e.empty()) return e;
            if (!accept(')')) return expected("')'");
            return {};
        }
        return expected("a number, variable or '('");
    }
    std::string number(std::vector<Instruction>& out) {
        const std::size_t start = pos_;
        std::int64_t value = 0;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            const int digit = text_[pos_] - '0';
            if (__builtin_mul_overflow(value, 10, &value) ||
                __builtin_add_overflow(value, digit, &value)) {
                while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
                    ++pos_;
                return "number " + std::string(text_.substr(start, pos_ - start)) + " at offset " +
                       std::to_string(start) + " does not fit in 64 bits";
            }
            ++pos_;
        }
        out.push_back({Code::Push, value});
        return {};
    }
    std::string name(std::vector<Instruction>& out, int depth) {
        const std::size_t start = pos_;
        while (pos_ < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
            ++pos_;
        const std::string_view word = text_.substr(start, pos_ - start);
        skipSpace();
        const bool call = pos_ < text_.size() && text_[pos_] == '(';
        if (call) {
            if (word != "cdiv") {
                return "unknown function '" + std::string(word) + "' at offset " +
                       std::to_string(start) + " (allowed: cdiv)";
            }
            ++pos_;
            if (std::string e = expression(out, depth + 1); !e.empty()) return e;
            if (!accept(',')) return expected("',' between the arguments of cdiv");
            if (std::string e = expression(out, depth + 1); !e.empty()) return e;
            if (!accept(')')) return expected("')' closing cdiv");
            out.push_back({Code::CeilDiv, 0});
            return {};
        }
        if (word.size() == 1 &&
            (word[0] == 'b' || word[0] == 's' || word[0] == 't' || word[0] == 'e')) {
            out.push_back({Code::Var, word[0]});
            return {};
        }
        return "unknown variable '" + std::string(word) + "' at offset " + std::to_string(start) +
               " (allowed: b, s, t, e)";
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

Expected<SizeExpression> SizeExpression::parse(std::string_view text) {
    SizeExpression result;
    Parser parser(text);
    if (std::string problem = parser.parse(result.program_); !problem.empty()) {
        return Error{"cannot parse \"" + std::string(text) + "\": " + problem};
    }
    result.text_ = std::string(text);
    return result;
}

SizeExpression SizeExpression::constant(std::int64_t value) {
    SizeExpression result;
    result.program_.push_back({Code::Push, value});
    result.text_ = std::to_string(value);
    return result;
}

bool SizeExpression::isConstant() const {
    return program_.empty() || (program_.size() == 1 && program_[0].code == Code::Push);
}

Expected<std::int64_t> SizeExpression::evaluate(const SizeVariables& vars) const {
    if (program_.empty()) return std::int64_t{0};
    const auto context = [&] {
        return " (b=" + std::to_string(vars.b) + ", s=" + std::to_string(vars.s) +
               ", t=" + std::to_string(vars.t) + ", e=" + std::to_string(vars.e) + ")";
    };
    std::vector<std::int64_t> stack;
    stack.reserve(program_.size());
    for (const Instruction& in : program_) {
        if (in.code == Code::Push) {
            stack.push_back(in.value);
            continue;
        }
        if (in.code == Code::Var) {
            const char v = char(in.value);
            stack.push_back(v == 'b' ? vars.b : v == 's' ? vars.s : v == 't' ? vars.t : vars.e);
            continue;
        }
        if (in.code == Code::Neg) {
            const std::int64_t x = stack.back();
            if (__builtin_sub_overflow(std::int64_t{0}, x, &stack.back())) {
                return Error{"negating " + std::to_string(x) + " overflows" + context()};
            }
            continue;
        }
        const std::int64_t y = stack.back();
        stack.pop_back();
        const std::int64_t x = stack.back();
        std::int64_t& r = stack.back();
        const std::string xs = std::to_string(x), ys = std::to_string(y);
        switch (in.code) {
            case Code::Add:
                if (__builtin_add_overflow(x, y, &r))
                    return Error{xs + " + " + ys + " overflows 64 bits" + context()};
                break;
            case Code::Sub:
                if (__builtin_sub_overflow(x, y, &r))
                    return Error{xs + " - " + ys + " overflows 64 bits" + context()};
                break;
            case Code::Mul:
                if (__builtin_mul_overflow(x, y, &r))
                    return Error{xs + " * " + ys + " overflows 64 bits" + context()};
                break;
            case Code::Div:
            case Code::CeilDiv: {
                const char* op = in.code == Code::Div ? " / " : ", ";
                const std::string shown =
                    in.code == Code::Div ? xs + op + ys : "cdiv(" + xs + op + ys + ")";
                if (y == 0) return Error{"division by zero in " + shown + context()};
                if (y == -1 && x == INT64_MIN) return Error{shown + " overflows" + context()};
                const std::int64_t q = x / y;
                const bool exact = x % y == 0;
                if (in.code == Code::Div && !exact) {
                    return Error{shown + " is not an exact integer division" + context()};
                }
                // C++ truncates toward zero; the ceiling is one more when the true quotient is
                // positive and inexact.
                r = q + (!exact && ((x < 0) == (y < 0)) ? 1 : 0);
                break;
            }
            default:
                break;
        }
    }
    return stack.back();
}

}  // namespace tandem::core::model
